import { modelAccuracy, modelMismatches } from '../../analyse/analysis.js';
import type { Study } from '../../plan/config.js';
import type { ReportBuilder } from '../builder.js';
import { skillBrief } from '../skill-summary.js';
import { num, raw } from '../tables.js';
import { pct, type ReportInputs } from './shared.js';

/** The report's title. */
export const reportTitle = (study: Study) => `fairbench study: ${study.name}`;

/** The title, the study's settings and cell counts, the brief, and how every measure is read. */
export function overview(b: ReportBuilder, { study, records, parts, skillRows }: ReportInputs): void {
  b.heading(1, reportTitle(study));
  b.text(study.description);
  b.text(
    `Seeds: ${study.seeds.join(', ')}. Budget per run: ${JSON.stringify(study.budget)}. Trained models: ${study.models
      .map((m) => m.label)
      .join(
        ', ',
      )}. Audited rows: ${pct(study.auditShare)} of each data set, held out from training. Subgroup hits: Jaccard ≥ ${study.jaccardThreshold}, best of the top ${study.topK} findings.`,
  );
  b.text(`Cells: ${records.length} stored, ${parts.done.length} done, ${parts.failed.length} failed.`);
  const brief = skillBrief(skillRows);
  if (brief.length) {
    b.heading(2, 'In brief');
    for (const line of brief) b.text(line);
  }
  b.text(
    'The design is in docs/study-design.md. Every measure is shown beside its **chance level**: the same method, model',
    'and seed on the no-bias twin of the data set (same rows, labels drawn without bias), its findings scored against',
    'the planted subgroups of the biased data set. A method that finds the planted bias scores above its chance level.',
  );
}

/** Whether every method of a block audited the same model, and each audited model's accuracy. */
export function models(b: ReportBuilder, { records }: ReportInputs): void {
  const mismatches = modelMismatches(records);
  b.text(
    mismatches.length === 0
      ? 'Every method of a block (data set, seed, question, model) audited the identical model (same prediction fingerprint).'
      : `**Warning:** methods audited different models in ${mismatches.length} blocks: ${mismatches.join('; ')}.`,
  );
  const accuracy = modelAccuracy(records);
  b.addTable({
    name: 'models',
    caption: 'Accuracy of the audited models on the held-out rows',
    headers: ['question', 'model', 'data set', 'accuracy'],
    align: ['l', 'l', 'l', 'r'],
    rows: accuracy.map((m) => [m.question, m.model, m.dataset, num(m.accuracy)]),
    data: accuracy.map((m) => ({ ...m, accuracy: raw(m.accuracy) })),
    cells: accuracy.map((m) => ({ question: m.question, model: m.model, dataset: m.dataset })),
  });
}
