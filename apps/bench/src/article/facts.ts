import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ALPHA } from '../analyse/skill.js';
import { REPLICATION_LABEL } from '../plan/cells.js';
import { FPR, type StudySummary } from '../report/report.js';
import type { Table } from '../report/tables.js';
import { headlineMeasure } from '../score/measures.js';
import { ClaimBook, rankedRecord } from './claims.js';
import {
  abstractFindings,
  factorTable,
  headlineFindings,
  headlineScenario,
  replicationFindings,
  replicationTally,
  resultsTable,
  reversals,
  tunedFindings,
  type Where,
} from './findings.js';

/** Named numbers and names the article's prose may use, each formatted as printed. */
export type Facts = Map<string, string>;

type Row = Record<string, string | number | boolean | null>;

/** The records of a generated table (`tables/<name>.json`), or [] when the study made none. */
export function tableRecords(dir: string, name: string): Row[] {
  const path = join(dir, 'tables', `${name}.json`);
  return existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as { records: Row[] }).records : [];
}

const fixed = (v: number, digits = 2) => (Number.isFinite(v) ? v.toFixed(digits) : 'n/a');
const num = (v: unknown) => (typeof v === 'number' ? v : Number.NaN);
const words = ['no', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten'];
/** Small counts in words, as prose writes them. */
const BUDGET_WORDS: Record<string, string> = {
  maxTested: 'tested samples',
  maxQueries: 'distinct queries',
  maxPairs: 'reported pairs',
  maxSeconds: 'seconds',
};

/** The plans with a budget of their own, in words: `SG: 50 tested samples and 200,000 distinct queries`. */
function budgetExceptions(plans: StudySummary['plans']): string {
  const own = new Map<string, string>();
  for (const p of plans) {
    if (!p.budget || own.has(p.label)) continue;
    const parts = Object.entries(p.budget).map(
      ([k, v]) => `${(v as number).toLocaleString('en')} ${BUDGET_WORDS[k] ?? k}`,
    );
    own.set(p.label, `${p.label}: ${parts.join(' and ')}`);
  }
  return [...own.values()].join('; ');
}

/** How the study's LIMI plans get their generator (`options.generator`, 'vae' by default). */
function limiGenerator(plans: StudySummary['plans']): string {
  // Summaries written before plans carried their options say nothing about it.
  const limi = plans.filter((p) => p.method === 'limi');
  if (limi.some((p) => p.options === undefined)) return '';
  const kinds = new Set(limi.map((p) => (p.options as { generator?: string }).generator ?? 'vae'));
  const parts: string[] = [];
  if (kinds.has('vae')) {
    parts.push(
      "LIMI's variational autoencoder sees only the data, so it is fitted once per audited data set and seed, outside the run's budget, as its paper trains it before the timed search.",
    );
  }
  if (kinds.has('pca')) parts.push('LIMI with a linear (PCA) generator fits it inside each run.');
  return parts.length ? ` ${parts.join(' ')}` : '';
}

/**
 * Where the run's time went, in words: its elapsed time, the preparation's and the largest shares of
 * method time. Empty for summaries written before they recorded it.
 */
function runCost(summary: StudySummary): string {
  if (summary.planSeconds === undefined) return '';
  const total = summary.planSeconds.reduce((a, p) => a + p.seconds, 0);
  const top = summary.planSeconds
    .slice(0, 3)
    .map((p) => `${p.plan} took ${Math.round((100 * p.seconds) / total)}%`);
  const elapsed =
    summary.elapsedSeconds === null
      ? ''
      : ` Its cells ran for ${fixed(summary.elapsedSeconds / 3600)} hours of elapsed time (the pauses of a run stopped and resumed not counted).`;
  return `${elapsed} Building the data sets and models and fitting the shared generators took ${fixed(summary.preparationSeconds / 3600)} core-hours besides; of the method time, ${list(top)}.`;
}

const count = (n: number) => (n >= 0 && n < words.length ? words[n]! : String(n));
const list = (xs: readonly string[]) =>
  xs.length <= 1 ? (xs[0] ?? 'none') : `${xs.slice(0, -1).join(', ')} and ${xs[xs.length - 1]}`;

/** The study file's design (`study.json` beside the report): phases, checkpoints, seed sets. */
function studyFileFacts(f: Facts, dir: string): void {
  const path = join(dir, 'study.json');
  const study = existsSync(path)
    ? (JSON.parse(readFileSync(path, 'utf8')) as {
        seeds: number[];
        phases?: { globalShare: number } | null;
        anytimeQueries?: number[];
        synthetic?: { baseSeeds?: number[] | null };
        replication?: { seeds: number[] } | null;
        tuning?: { seeds: number[] } | null;
        realSeeds?: number[] | null;
        questions?: string[];
        factorQuestions?: Record<string, string[]> | null;
      })
    : null;
  const share = study?.phases?.globalShare;
  f.set('design.globalShare', share === undefined ? 'n/a' : `${Math.round(100 * share)}%`);
  f.set('design.anytime', list((study?.anytimeQueries ?? []).map((q) => q.toLocaleString('en'))) || 'none');
  const seeds = study?.seeds.length ?? 0;
  f.set('design.seeds', String(seeds));
  f.set('design.alpha', String(ALPHA));
  f.set('design.baseSeeds', String(study?.synthetic?.baseSeeds?.length ?? seeds));
  f.set('design.replicationSeeds', String(study?.replication?.seeds.length ?? 0));
  f.set('design.tuningSeeds', String(study?.tuning?.seeds.length ?? 0));
  f.set('design.realSeeds', String(study?.realSeeds?.length ?? seeds));
  const limited = Object.entries(study?.factorQuestions ?? {});
  f.set(
    'design.factorQuestions',
    limited.length
      ? ` On the levels of ${list(limited.map(([factor]) => factor))} the study asks only the ${list([
          ...new Set(limited.flatMap(([, qs]) => qs)),
        ])} questions, and every question on the base scenario, its replication and the other factors.`
      : '',
  );
}

/** The questions and families the article reports, in its order. */
export const ARTICLE_QUESTIONS: readonly Where[] = [
  { question: 'data', family: 'subgroup' },
  { question: 'model', family: 'individual' },
  { question: 'model-output', family: 'subgroup' },
  { question: 'model-output', family: 'individual' },
];

/** A question's sentence led by the question and family (`Data question, subgroup methods: …`), or ''. */
function labelled(w: Where, text: string): string {
  return text
    ? `${w.question === 'data' ? 'Data' : w.question === 'model' ? 'Model' : 'Model-output'} question, ${w.family} methods: ${text}`
    : '';
}

/** The model the factor scenarios share (the one every scenario has), else the first. */
function factorModelOf(book: ClaimBook, w: Where): string | null {
  const measure = headlineMeasure[w.family];
  const scenarios = book.scenarios();
  const modelsIn = (s: string) =>
    new Set(
      book
        .skill({ ...w, scenario: s, measure })
        .filter(rankedRecord)
        .map((r) => r.model),
    );
  const sets = scenarios.map(modelsIn).filter((m) => m.size > 0);
  if (sets.length === 0) return null;
  const common = [...sets[0]!].filter((m) => sets.every((s) => s.has(m)));
  return common[0] ?? [...sets[0]!][0] ?? null;
}

/** The most seeds a ranked method has in a scenario, over the article's questions. */
function seedsOf(book: ClaimBook, ws: readonly Where[], scenario: string): number {
  let n = 0;
  for (const w of ws) {
    const measure = headlineMeasure[w.family];
    for (const r of book.skill({ ...w, scenario, measure })) n = Math.max(n, r.seeds);
  }
  return n;
}

/** Agreement on real data, per family: between methods against with the random subgroups, per data set. */
function realAgreementText(rows: Row[]): string {
  if (rows.length === 0) return 'The study ran no real data set, so it reports no agreement on real data.';
  const out: string[] = [];
  for (const family of ['subgroup', 'individual']) {
    const mine = rows.filter((r) => r['family'] === family);
    const sets = [...new Set(mine.map((r) => String(r['dataset'])))];
    const parts = sets.flatMap((d) => {
      const m = mine.find((r) => r['dataset'] === d && r['between'] === 'methods');
      const rnd = mine.find((r) => r['dataset'] === d && r['between'] === 'random subgroups');
      if (!m || !rnd) return [];
      const iv = (r: Row) =>
        `${fixed(num(r['agreement']))} [${fixed(num(r['agreement_lo']))}, ${fixed(num(r['agreement_hi']))}]`;
      return [`${d}: ${iv(m)} between methods, ${iv(rnd)} with the random subgroups`];
    });
    if (parts.length) out.push(`For ${family} methods, ${parts.join('; ')}.`);
  }
  return out.join(' ');
}

/**
 * Everything the article states in numbers, computed from a study's generated outputs (summary.json
 * and tables/*.json). The prose names these; it types no number itself.
 */
export function articleFacts(dir: string): { facts: Facts; tables: Table[] } {
  const f: Facts = new Map();
  const summary = JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8')) as StudySummary;
  const fam = (family: string) => summary.plans.filter((p) => p.family === family && !p.baseline);
  f.set('study.name', summary.name);
  f.set('study.seeds', String(summary.seeds.length));
  f.set('study.cells', summary.cells.toLocaleString('en'));
  f.set('study.done', summary.done.toLocaleString('en'));
  f.set('study.failed', summary.failed.toLocaleString('en'));
  f.set('study.scenarios', count(summary.scenarios.length));
  f.set('study.twins', count(summary.twins));
  f.set('study.real', count(summary.real.length));
  f.set('study.realNames', list(summary.real));
  f.set('study.models', list(summary.models));
  f.set('study.plans', String(summary.plans.length));
  f.set('study.individual', count(new Set(fam('individual').map((p) => p.method)).size));
  f.set('study.subgroup', count(new Set(fam('subgroup').map((p) => p.method)).size));
  f.set('study.topK', count(summary.topK));
  f.set('study.jaccard', String(summary.jaccardThreshold));
  f.set('study.auditShare', `${Math.round(100 * summary.auditShare)}%`);
  f.set('study.maxTested', (summary.budget.maxTested ?? Number.NaN).toLocaleString('en'));
  f.set('study.maxSeconds', String(summary.budget.maxSeconds ?? 'no'));
  f.set('study.maxQueries', summary.budget.maxQueries?.toLocaleString('en') ?? 'no limit on');
  const own = budgetExceptions(summary.plans);
  f.set(
    'study.budgetExceptions',
    own ? ` Methods that spend far more per tested sample have a budget of their own (${own}).` : '',
  );
  f.set('study.limiGenerator', limiGenerator(summary.plans));
  f.set('study.coreHours', fixed(summary.wallSeconds / 3600, 1));
  f.set('study.runCost', runCost(summary));
  f.set('study.fpr', String(FPR));

  const accuracy = tableRecords(dir, 'models').map((r) => num(r['accuracy']));
  f.set('models.accMin', fixed(Math.min(...accuracy)));
  f.set('models.accMax', fixed(Math.max(...accuracy)));

  studyFileFacts(f, dir);
  const book = new ClaimBook(dir);
  const tables: Table[] = [];
  // The abstract cites first, so its claims have the first ids.
  f.set('abstract.findings', abstractFindings(book, ARTICLE_QUESTIONS));
  const replication: string[] = [];
  const tuned: string[] = [];
  const reversed: string[] = [];
  for (const w of ARTICLE_QUESTIONS) {
    const key = `${w.question}.${w.family}`;
    for (const tunedTable of [false, true]) {
      const results = resultsTable(book, w, tunedTable);
      if (results) tables.push(results);
    }
    f.set(`findings.${key}`, headlineFindings(book, w));
    replication.push(labelled(w, replicationFindings(book, w)));
    tuned.push(labelled(w, tunedFindings(book, w)));
    const factorModel = factorModelOf(book, w);
    reversed.push(labelled(w, factorModel ? reversals(book, w, factorModel) : ''));
    const factors = factorModel ? factorTable(book, w, factorModel) : null;
    if (factors) tables.push(factors);
    f.set(`factors.${key}.model`, factorModel ?? 'n/a');
  }
  const some = (xs: string[], none: string) => xs.filter(Boolean).join(' ') || none;
  f.set('replication.all', some(replication, 'The study ran no replication of its headline scenario.'));
  f.set('tuned.all', some(tuned, 'The study ran no tuning grid.'));
  f.set(
    'reversals.all',
    some(
      reversed,
      'No comparison that holds in the headline scenario reverses, by a test that holds, in another scenario.',
    ),
  );
  const headline = headlineScenario(book, ARTICLE_QUESTIONS[0]!) ?? 'n/a';
  f.set('headline.scenario', headline);
  f.set('headline.seeds', String(seedsOf(book, ARTICLE_QUESTIONS, headline)));
  const replicated = seedsOf(book, ARTICLE_QUESTIONS, REPLICATION_LABEL);
  f.set('replication.seeds', String(replicated));
  const tally = replicationTally(book, ARTICLE_QUESTIONS);
  f.set(
    'abstract.replication',
    replicated > 0
      ? `; on ${replicated} fresh seeds, ${tally.held} of these ${tally.total} conclusions held by the same test (the replication names which)`
      : '',
  );

  const cost = tableRecords(dir, 'efficiency').filter((r) => Number.isFinite(num(r['seconds'])));
  if (cost.length > 0) {
    const sorted = [...cost].sort((a, b) => num(a['seconds']) - num(b['seconds']));
    f.set('cost.fastest', String(sorted[0]!['method']));
    f.set('cost.fastestSeconds', fixed(num(sorted[0]!['seconds'])));
    f.set('cost.slowest', String(sorted[sorted.length - 1]!['method']));
    f.set('cost.slowestSeconds', fixed(num(sorted[sorted.length - 1]!['seconds'])));
  }

  const capped = tableRecords(dir, 'efficiency').filter((r) => num(r['time_capped']) > 0);
  f.set(
    'cost.timeCapped',
    capped.length === 0
      ? 'no method'
      : list(capped.map((r) => `${r['method']} (${Math.round(100 * num(r['time_capped']))}% of its runs)`)),
  );

  f.set('agree.real', realAgreementText(tableRecords(dir, 'real-agreement')));
  tables.push(book.table());
  return { facts: f, tables };
}
