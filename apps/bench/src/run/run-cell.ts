import { type DiscoveryResult, describeCondition, type Progress, type Schema } from '@fb/core';
import { type AuditScore, QueryClock, scoreAudit } from '@fb/eval';
import { type Cell, contentHash } from '../plan/cells.js';
import { phaseInputs, phaseOptions } from '../plan/phases.js';
import { floorScores } from '../score/floors.js';
import { methodForCell } from './prefit.js';
import { type Prepared, prepare, type ScoringTruth } from './prepare.js';
import { type CellRecord, identity } from './record.js';

/** Subgroups whose protected conditions count as what a subgroup method points at. */
const TOP_SUBGROUPS = 5;

/**
 * The protected attribute values a run points at: for an individual method, per protected attribute
 * the values with at least the attribute's mean DSN; for a subgroup method, the protected values in
 * the conditions of its top-ranked subgroups. Each in the data's labels (`sex = female`, `25 <= age < 45`).
 */
export function implicatedValues(result: DiscoveryResult, schema: Schema): string[] {
  const out = new Set<string>();
  const f = result.findings;
  const label = (attribute: string, v: number) => describeCondition(schema, { attribute, values: [v] });
  if (f.kind === 'individual') {
    const byAttr = new Map<string, { value: number; dsn: number }[]>();
    for (const c of f.byAttributeValue) {
      if (!byAttr.has(c.attribute)) byAttr.set(c.attribute, []);
      byAttr.get(c.attribute)!.push({ value: c.value, dsn: c.dsn });
    }
    for (const [attribute, values] of byAttr) {
      const mean = values.reduce((a, v) => a + v.dsn, 0) / values.length;
      for (const v of values) if (v.dsn > 0 && v.dsn >= mean) out.add(label(attribute, v.value));
    }
  } else {
    const isProtected = new Set(schema.attributes.filter((a) => a.protected).map((a) => a.name));
    for (const s of f.subgroups.filter((g) => g.rank <= TOP_SUBGROUPS)) {
      for (const c of s.conditions) {
        if (!isProtected.has(c.attribute)) continue;
        if ('values' in c) for (const v of c.values) out.add(label(c.attribute, v));
        else out.add(describeCondition(schema, c));
      }
    }
  }
  return [...out].sort();
}

/** A running cell's progress, as workers report it. */
export interface CellProgress {
  type: 'progress';
  key: string;
  phase: string;
  share: number | null;
  tested: number;
  elapsedSeconds: number;
}

export function cellProgress(cell: Cell, p: Progress): CellProgress {
  return {
    type: 'progress',
    key: cell.key,
    phase: p.phase,
    share: p.total ? (p.done ?? 0) / p.total : null,
    tested: p.tested,
    elapsedSeconds: p.elapsedSeconds,
  };
}

async function score(
  result: DiscoveryResult,
  prep: Prepared,
  truth: ScoringTruth,
  cell: Cell,
  clock?: QueryClock,
): Promise<AuditScore> {
  const individual = result.findings.kind === 'individual';
  const twinModel = individual ? await prep.twinModel() : null;
  return scoreAudit(result, prep.dataset, truth.view, {
    model: prep.model,
    ...(individual ? { modelTruth: await truth.modelTruth() } : {}),
    ...(twinModel ? { twinModel } : {}),
    jaccardThreshold: cell.jaccardThreshold,
    topK: cell.topK,
    ...(clock ? { clock, anytimeQueries: cell.anytimeQueries } : {}),
  });
}

/**
 * The options a cell runs with: its plan's, with the study's phase rule (if any) applied to the query
 * budget and the data's protected values.
 */
export function cellOptions(cell: Cell, schema: Schema): Record<string, unknown> {
  const maxQueries = cell.budget.maxQueries;
  if (!cell.phases || maxQueries === undefined) return cell.plan.options;
  return phaseOptions(cell.plan.method, cell.plan.options, cell.phases, phaseInputs(schema, maxQueries));
}

/**
 * What this worker has run so far, for the time estimate: a method's first cell on a worker and the
 * worker's first block pay for loading and compiling code that later ones find ready (see
 * `estimateStudy`).
 */
const warm = { methods: new Set<string>(), firstBlock: null as string | null };

/** Build the block's rows and model (cached per worker), run the method under the budget, score it. */
export async function runCell(cell: Cell, onProgress?: (p: Progress) => void): Promise<CellRecord> {
  const t0 = performance.now();
  warm.firstBlock ??= cell.block;
  const firstBlock = cell.block === warm.firstBlock;
  const prep = await prepare(cell);
  // Preparation includes a data-only phase fitted for the block's rows (LIMI's generator).
  const options = cellOptions(cell, prep.dataset.schema);
  const what = computation(cell, options);
  if (sameRuns.block !== cell.block) sameRuns.reset(cell.block);
  const earlier = sameRuns.records.get(what);
  if (earlier) {
    const costs = earlier.costs && { ...earlier.costs, firstOfMethod: false, firstBlock: false };
    return { ...earlier, ...identity(cell), ...(costs ? { costs } : {}), sameAs: earlier.key };
  }
  const firstOfMethod = !warm.methods.has(cell.plan.method);
  warm.methods.add(cell.plan.method);
  const record = await runMethod(cell, prep, options, t0, onProgress);
  if (record.costs) record.costs = { ...record.costs, firstOfMethod, firstBlock };
  if (record.status === 'done') sameRuns.records.set(what, record);
  return record;
}

/**
 * The runs of the block this worker ran last, by what they compute: two plans whose options resolve to
 * the same (a tuning grid's share that gives a method as many starting points as its default) are
 * one run, stored under both cells with `sameAs` naming the one that ran. The pool sends a data set's
 * cells to one worker in plan order, so the first of them has run by then.
 */
const sameRuns = {
  block: '',
  records: new Map<string, CellRecord>(),
  reset(block: string) {
    this.block = block;
    this.records.clear();
  },
};

/** What a cell computes, apart from its labels: the method, its resolved options, budget and scoring. */
function computation(cell: Cell, options: Record<string, unknown>): string {
  return contentHash({
    method: cell.plan.method,
    options,
    budget: cell.budget,
    scoring: {
      jaccardThreshold: cell.jaccardThreshold,
      topK: cell.topK,
      anytimeQueries: cell.anytimeQueries,
    },
  });
}

/** Run the cell's method on its prepared block under the budget, and score it. */
async function runMethod(
  cell: Cell,
  prep: Prepared,
  options: Record<string, unknown>,
  t0: number,
  onProgress?: (p: Progress) => void,
): Promise<CellRecord> {
  const tFit = performance.now();
  const detector = await methodForCell(cell.plan.method, options, prep.dataset, cell.seed);
  const prepareSeconds = (performance.now() - t0) / 1000;
  const fitSeconds = (performance.now() - tFit) / 1000;
  const clock = new QueryClock(prep.model);
  clock.start();
  const result = await detector.run({ dataset: prep.dataset, model: clock.model }, options, {
    seed: cell.seed,
    budget: cell.budget,
    ...(onProgress ? { onProgress } : {}),
  });
  const t1 = performance.now();
  const truth = prep.truth;
  const own = truth ? await score(result, prep, truth, cell, clock) : null;
  const chance: CellRecord['chance'] = [];
  for (const t of prep.chance)
    chance.push({ scenario: t.scenario, score: await score(result, prep, t, cell) });
  // Floors only where bias is planted: the excess over them is measured on those runs.
  const floors =
    truth && own && !(cell.dataset.kind === 'synthetic' && cell.dataset.null)
      ? await floorScores(result, own, prep, cell, (r, c) => score(r, prep, truth, cell, c))
      : [];
  const scoreSeconds = (performance.now() - t1) / 1000;
  return {
    ...identity(cell),
    family: result.method.kind,
    access: result.method.access,
    status: 'done',
    error: null,
    modelFingerprint: prep.modelFingerprint,
    modelAccuracy: prep.modelAccuracy,
    ...(options !== cell.plan.options ? { runOptions: options } : {}),
    metrics: result.metrics,
    stopReason: result.run.stopReason,
    wallSeconds: result.run.wallSeconds,
    costs: { prepareSeconds, scoreSeconds, fitSeconds },
    score: own,
    chance,
    floors,
    implicated: implicatedValues(result, prep.dataset.schema),
  };
}
