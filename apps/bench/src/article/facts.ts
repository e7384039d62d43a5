import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FPR, type StudySummary } from '../report/report.js';

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
const mean = (xs: number[]) => {
  const f = xs.filter((x) => Number.isFinite(x));
  return f.length ? f.reduce((a, b) => a + b, 0) / f.length : Number.NaN;
};
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
      : ` From the start of its first cell to the end of its last, ${fixed(summary.elapsedSeconds / 3600)} hours passed.`;
  return `${elapsed} Building the data sets and models and fitting the shared generators took ${fixed(summary.preparationSeconds / 3600)} core-hours besides; of the method time, ${list(top)}.`;
}

const count = (n: number) => (n >= 0 && n < words.length ? words[n]! : String(n));
const list = (xs: readonly string[]) =>
  xs.length <= 1 ? (xs[0] ?? 'none') : `${xs.slice(0, -1).join(', ')} and ${xs[xs.length - 1]}`;

/** Per method: the mean of a measure over its rows, and of its chance level. */
function byMethod(rows: Row[], measure: string, chance: string) {
  const methods = [...new Set(rows.map((r) => String(r['method'])))];
  return methods.map((m) => {
    const rs = rows.filter((r) => r['method'] === m);
    return {
      method: m,
      value: mean(rs.map((r) => num(r[measure]))),
      chance: mean(rs.map((r) => num(r[chance]))),
      auc: mean(rs.map((r) => num(r['auc']))),
      // Rows where the interval's lower end clears the chance level.
      above: rs.filter((r) => num(r[`${measure}_lo`]) > num(r[chance])).length,
      rows: rs.length,
    };
  });
}

/**
 * Everything the article states in numbers, computed from a study's generated outputs (summary.json
 * and tables/*.json). The prose names these; it types no number itself.
 */
export function articleFacts(dir: string): Facts {
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

  // Baselines (the exhaustive check, the per-value scan, random findings) are reported beside the
  // methods, never ranked among them.
  const baseline = new Set(summary.plans.filter((p) => p.baseline).map((p) => p.label));
  const byValue = (a: { value: number; method: string }, b: { value: number; method: string }) =>
    b.value - a.value || a.method.localeCompare(b.method);
  for (const q of ['data', 'model', 'model-output']) {
    for (const family of ['individual', 'subgroup']) {
      const measure = family === 'individual' ? 'coverage' : 'found';
      const rows = tableRecords(dir, `${q}-${family}`);
      const key = `${q}.${family}`;
      const all = byMethod(rows, measure, `chance_${measure}`);
      const ms = all.filter((m) => !baseline.has(m.method));
      f.set(`${key}.methods`, count(ms.length));
      f.set(`${key}.baseline`, '');
      f.set(`${key}.versusBaseline`, '');
      if (ms.length === 0) continue;
      const best = [...ms].sort(byValue)[0]!;
      f.set(`${key}.best`, best.method);
      f.set(`${key}.bestValue`, fixed(best.value));
      f.set(`${key}.bestChance`, fixed(best.chance));
      const base = all.filter((m) => baseline.has(m.method) && Number.isFinite(m.value)).sort(byValue)[0];
      f.set(
        `${key}.baseline`,
        base === undefined
          ? ''
          : ` Of the baselines, ${base.method} reached ${fixed(base.value)} (chance ${fixed(base.chance)})${
              base.value > best.value ? ', more than any method' : ''
            }.`,
      );
      f.set(
        `${key}.versusBaseline`,
        base !== undefined && base.value > best.value
          ? ` It did not beat the ${base.method} baseline (${fixed(best.value)} against ${fixed(base.value)}): try that simpler audit first.`
          : '',
      );
      const auc = [...ms].sort((a, b) => b.auc - a.auc || a.method.localeCompare(b.method))[0]!;
      f.set(`${key}.topAuc`, auc.method);
      f.set(`${key}.topAucValue`, fixed(auc.auc));
      f.set(`${key}.aboveChance`, count(ms.filter((m) => m.above > 0).length));
      f.set(`${key}.neverAbove`, list(ms.filter((m) => m.above === 0).map((m) => m.method)));
      f.set(`${key}.meanAuc`, fixed(mean(ms.map((m) => m.auc))));
    }
  }

  const trend = tableRecords(dir, 'bias-trend');
  for (const variant of ['separation', 'sufficiency']) {
    const rows = trend.filter((r) => r['variant'] === variant);
    const strongest = Math.max(...rows.map((r) => num(r['bias'])));
    const atTop = rows.filter((r) => num(r['bias']) === strongest);
    if (atTop.length === 0) continue;
    const best = [...atTop].sort((a, b) => num(b['jaccard']) - num(a['jaccard']))[0]!;
    const zero = rows.find((r) => r['method'] === best['method'] && num(r['bias']) === 0);
    f.set(`trend.${variant}.best`, String(best['method']));
    f.set(`trend.${variant}.strong`, fixed(num(best['jaccard'])));
    f.set(`trend.${variant}.zero`, fixed(num(zero?.['jaccard'])));
    f.set(`trend.${variant}.range`, String(best['bias_range']));
  }

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

  const familyOf = new Map(summary.plans.map((p) => [p.label, p.family]));
  const agreement = tableRecords(dir, 'agreement');
  const within = (fa: string, fb: string) =>
    mean(
      agreement
        .filter((r) => {
          const a = familyOf.get(String(r['a']));
          const b = familyOf.get(String(r['b']));
          return (a === fa && b === fb) || (a === fb && b === fa);
        })
        .map((r) => num(r['implicated'])),
    );
  f.set('agree.individual', fixed(within('individual', 'individual')));
  f.set('agree.subgroup', fixed(within('subgroup', 'subgroup')));
  f.set('agree.across', fixed(within('individual', 'subgroup')));

  const real = tableRecords(dir, 'real');
  for (const name of summary.real) {
    const rs = real.filter((r) => r['dataset'] === name && Number.isFinite(num(r['sur'])));
    if (rs.length === 0) continue;
    const top = [...rs].sort((a, b) => num(b['sur']) - num(a['sur']))[0]!;
    f.set(`real.${name}.top`, String(top['method']));
    f.set(`real.${name}.topSur`, fixed(num(top['sur'])));
    f.set(`real.${name}.topModel`, String(top['model']));
  }
  return f;
}
