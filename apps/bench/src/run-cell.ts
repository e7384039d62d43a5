import type { Progress } from '@fb/core';
import { scoreIndividual, scoreSubgroup } from '@fb/eval';
import { accuracy, fitLogisticRegression } from '@fb/models';
import { generatePlantedPair } from '@fb/synth';
import { findMethod } from './methods.js';
import type { CellRecord } from './store.js';
import type { Cell, Study } from './study.js';

/** Generate the cell's data, train the model, run the method under the budget, score it. */
export async function runCell(
  study: Study,
  cell: Cell,
  onProgress?: (p: Progress) => void,
): Promise<CellRecord> {
  const generated = generatePlantedPair(cell.scenario.generator, cell.seed);
  const { dataset, truth } = generated;
  const model = fitLogisticRegression(dataset, { l2: study.model.l2 });
  const detector = findMethod(cell.plan.method);
  const result = await detector.run({ dataset, model }, cell.plan.options, {
    seed: cell.seed,
    budget: study.budget,
    ...(onProgress ? { onProgress } : {}),
  });
  const base = {
    key: cell.key,
    scenario: cell.scenario.label,
    seed: cell.seed,
    method: cell.plan.method,
    label: cell.plan.label,
    modelAccuracy: accuracy(model, dataset),
    metrics: {
      tsn: result.metrics.tsn,
      dsn: result.metrics.dsn,
      sur: result.metrics.sur,
      dss: result.metrics.dss,
      queries: result.metrics.distinctQueries,
    },
    stopReason: result.run.stopReason,
    wallSeconds: result.run.wallSeconds,
  };
  if (result.findings.kind === 'individual') {
    const s = scoreIndividual(result, dataset, truth);
    return { ...base, hit: s.hit, quality: s.precision, qualityName: 'precision', pValue: null };
  }
  const s = scoreSubgroup(result, dataset, truth);
  const best = s.bestRank === null ? null : result.findings.subgroups[s.bestRank - 1]!;
  return {
    ...base,
    hit: s.hit,
    quality: s.bestJaccard,
    qualityName: 'jaccard',
    pValue: best?.pValue ?? null,
  };
}
