import { createRng } from '@fb/core';
import type { CellRecord } from '../run/record.js';
import type { Cell } from './cells.js';

/**
 * The kind of data a cell audits. A method's cost differs between them, not only by data size: a
 * sequential test stops early on data without bias and runs every resample where bias is planted.
 */
export type DataKind = 'planted bias' | 'no bias' | 'real';

export function dataKind(c: { dataset: { kind: 'synthetic' | 'real'; null?: boolean } }): DataKind {
  if (c.dataset.kind === 'real') return 'real';
  return c.dataset.null === true ? 'no bias' : 'planted bias';
}

/**
 * The size of the data a cell audits, as the study states it: a real data set's name, or the options
 * that set a generated data set's rows. Most methods' cost grows with the rows, so a study whose
 * scenarios differ in size is sampled and extrapolated size by size.
 */
export function dataSize(c: Pick<Cell, 'dataset'>): string {
  const d = c.dataset;
  if (d.kind === 'real') return d.name;
  const o = d.options;
  return JSON.stringify([o['rows'] ?? null, o['minGroupSize'] ?? null, o['maxGroupSize'] ?? null]);
}

/** A cell's kind and size of data: the estimate's unit of extrapolation within a plan. */
const dataStratum = (c: Pick<Cell, 'dataset'>) => `${dataKind(c)}\u0000${dataSize(c)}`;

const stratumOf = (c: Pick<Cell, 'dataset' | 'plan'>) => `${c.plan.label}\u0000${dataStratum(c)}`;

/**
 * A sample of a study's blocks (data set, seed, question, model) for a time estimate, with all their
 * cells: up to `perStratum` blocks of every kind and size of data, question and model, drawn uniformly
 * with the seeded generator (the same seed, the same sample), then one more block for each method plan
 * and kind and size of data none of them holds. Whole blocks, because a cell's time depends on its
 * block's neighbours: a worker builds a block once and its cells share warm models, fits and compiled
 * code, so cells drawn one per block each pay what a study run pays once per block (twice the default
 * study's time, measured).
 */
export function sampleBlocks(cells: readonly Cell[], perStratum: number, seed = 0): Cell[] {
  const blocks = new Map<string, Cell[]>();
  for (const c of cells) {
    const list = blocks.get(c.block) ?? [];
    list.push(c);
    blocks.set(c.block, list);
  }
  const strata = new Map<string, string[]>();
  for (const [block, [first]] of blocks) {
    const key = `${dataStratum(first!)}\u0000${first!.question}\u0000${first!.model?.label}`;
    const list = strata.get(key) ?? [];
    list.push(block);
    strata.set(key, list);
  }
  const rng = createRng(`estimate:${seed}`);
  const picked = new Set<string>();
  for (const [key, list] of strata) {
    for (const b of rng.fork(key).sample(list, Math.min(perStratum, list.length))) picked.add(b);
  }
  const covered = new Set(cells.filter((c) => picked.has(c.block)).map(stratumOf));
  for (const c of cells) {
    if (covered.has(stratumOf(c))) continue;
    picked.add(c.block);
    for (const d of blocks.get(c.block)!) covered.add(stratumOf(d));
  }
  return cells.filter((c) => picked.has(c.block));
}

export interface PlanEstimate {
  plan: string;
  cells: number;
  sampled: number;
  /** Mean seconds per cell of the method and its scoring, and the standard error of that mean. */
  meanSeconds: number;
  standardError: number;
  /** Estimated core-seconds of all its cells. */
  totalSeconds: number;
}

export interface StudyEstimate {
  plans: PlanEstimate[];
  /** Blocks (data set, seed, question, model) whose rows and model are built once per worker. */
  blocks: number;
  /** Mean seconds to build a block, over the sampled blocks other than each worker's first. */
  prepareSeconds: number;
  /** Data-only fits (LIMI's generator), each made once for the cells that share it, and their mean seconds. */
  fits: number;
  fitSeconds: number;
  /** Core-seconds: methods and scoring, block preparation, and their sum with a 95% margin. */
  methodSeconds: number;
  preparationSeconds: number;
  totalSeconds: number;
  marginSeconds: number;
  failedSampled: number;
  /** Sampled cells that ended on their time cap: counted with the seconds they were given, so the plan's
   * time is then a lower bound. */
  cappedSampled: number;
}

const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);

/**
 * Extrapolate a study's cost from its sampled cells: per plan, cells x mean (method + scoring)
 * seconds (a stratified estimate with its standard error), plus every block's preparation once and
 * every data-only fit once (`fitKey`: the key of the fit a cell needs, shared by the cells on the same
 * rows, or null). Overrun cells count with the seconds they were given.
 *
 * A method's first cell on a worker pays for loading and compiling its code, and a worker's first block
 * for the data and model code's: a study run pays that once per worker as the sample did, over many
 * more cells. So the means are taken over the other cells and blocks, and what those first ones took
 * beyond the mean is added once (records without these marks count as later ones).
 */
export function estimateStudy(
  cells: readonly Cell[],
  sampled: readonly CellRecord[],
  fitKey: (cell: Cell) => string | null = () => null,
): StudyEstimate {
  const plans: PlanEstimate[] = [];
  let variance = 0;
  const labels = [...new Set(cells.map((c) => c.plan.label))];
  const cellOf = new Map(cells.map((c) => [c.key, c]));
  const secondsOf = (r: CellRecord) => r.wallSeconds + (r.costs?.scoreSeconds ?? 0);
  for (const plan of labels) {
    const ofPlan = cells.filter((c) => c.plan.label === plan);
    const timed = sampled.filter((r) => r.plan.label === plan);
    let total = 0;
    let planVariance = 0;
    let n = 0;
    // Per kind and size of data (a stratum): its cells x its sampled mean; a stratum without a sample
    // takes the plan's mean over the same kind of data, else over all its samples.
    const all = timed.map(secondsOf);
    const strata = new Map<string, { kind: DataKind; count: number }>();
    for (const c of ofPlan) {
      const key = dataStratum(c);
      const s = strata.get(key);
      if (s) s.count++;
      else strata.set(key, { kind: dataKind(c), count: 1 });
    }
    const stratumOfRecord = (r: CellRecord) => {
      const c = cellOf.get(r.key);
      return c ? dataStratum(c) : null;
    };
    const later = timed.filter((r) => r.costs?.firstOfMethod !== true);
    const allLater = later.map(secondsOf);
    for (const [stratum, { kind, count }] of strata) {
      const own = timed.filter((r) => stratumOfRecord(r) === stratum);
      const times = own.filter((r) => r.costs?.firstOfMethod !== true).map(secondsOf);
      const sameKind = later.filter((r) => dataKind(r) === kind).map(secondsOf);
      // The stratum's later cells, else those of the same kind of data, else all the plan's later ones;
      // only when the plan has none, its first cells themselves.
      const laterPool = times.length > 0 ? times : sameKind.length > 0 ? sameKind : allLater;
      const fromLater = laterPool.length > 0;
      const use = fromLater ? laterPool : own.length > 0 ? own.map(secondsOf) : all;
      const m = mean(use);
      const sd = use.length > 1 ? Math.sqrt(use.reduce((a, t) => a + (t - m) ** 2, 0) / (use.length - 1)) : m;
      const se = use.length > 0 ? sd / Math.sqrt(use.length) : Number.NaN;
      // The first cells' cost beyond the mean, once.
      let first = 0;
      if (fromLater) for (const r of own) if (r.costs?.firstOfMethod === true) first += secondsOf(r) - m;
      total += count * m + first;
      planVariance += (count * se) ** 2;
      n += count;
    }
    plans.push({
      plan,
      cells: n,
      sampled: all.length,
      meanSeconds: total / n,
      standardError: Math.sqrt(planVariance) / n,
      totalSeconds: total,
    });
    variance += planVariance;
  }
  const blocks = new Set(cells.map((c) => c.block)).size;
  const fitOf = (r: CellRecord) => r.costs?.fitSeconds ?? 0;
  // Each sampled block's build: what its cells spent preparing besides data-only fits (the first of
  // them built it, the others found it built).
  const built = new Map<string, { seconds: number; first: boolean }>();
  for (const r of sampled) {
    const b = built.get(r.block) ?? { seconds: 0, first: false };
    b.seconds += Math.max(0, (r.costs?.prepareSeconds ?? 0) - fitOf(r));
    b.first ||= r.costs?.firstBlock === true;
    built.set(r.block, b);
  }
  const laterBuilds = [...built.values()].filter((b) => !b.first).map((b) => b.seconds);
  const prepareSeconds = laterBuilds.length
    ? mean(laterBuilds)
    : mean([...built.values()].map((b) => b.seconds));
  const firstBuilds = laterBuilds.length
    ? [...built.values()].filter((b) => b.first).reduce((a, b) => a + b.seconds - prepareSeconds, 0)
    : 0;
  const fitTimes = sampled.map(fitOf).filter((s) => s > 0.05);
  const fitSeconds = fitTimes.length ? mean(fitTimes) : 0;
  const fits = new Set(cells.map(fitKey).filter((k) => k !== null)).size;
  // A worker keeps to one audited data set until it is done (pool.ts), so each block is built once and
  // each fit made once (a few of the last ones twice, when a free worker shares a data set rather than idle).
  const preparationSeconds = blocks * prepareSeconds + firstBuilds + fits * fitSeconds;
  const methodSeconds = plans.reduce((a, p) => a + (Number.isFinite(p.totalSeconds) ? p.totalSeconds : 0), 0);
  return {
    plans,
    blocks,
    prepareSeconds,
    fits,
    fitSeconds,
    methodSeconds,
    preparationSeconds,
    totalSeconds: methodSeconds + preparationSeconds,
    marginSeconds: 1.96 * Math.sqrt(variance),
    failedSampled: sampled.filter((r) => r.status === 'failed').length,
    cappedSampled: sampled.filter((r) => r.stopReason === 'time-budget').length,
  };
}

const hours = (s: number) => `${(s / 3600).toFixed(2)} h`;

/** The estimate in words: where the time goes and how long the study takes on `workers` cores. */
export function formatEstimate(e: StudyEstimate, workers: number): string {
  // As wide as the longest label: plans that differ only in their last option must stay apart.
  const w = Math.max(4, ...e.plans.map((p) => p.plan.length));
  const lines = [
    `${'plan'.padEnd(w)} ${'cells'.padStart(7)} ${'sampled'.padStart(7)} ${'s/cell'.padStart(8)} ${'core-h'.padStart(7)} ${'share'.padStart(6)}`,
  ];
  for (const p of [...e.plans].sort((a, b) => b.totalSeconds - a.totalSeconds)) {
    lines.push(
      `${p.plan.padEnd(w)} ${String(p.cells).padStart(7)} ${String(p.sampled).padStart(7)} ${p.meanSeconds.toFixed(2).padStart(8)} ${(p.totalSeconds / 3600).toFixed(2).padStart(7)} ${`${((100 * p.totalSeconds) / e.totalSeconds).toFixed(0)}%`.padStart(6)}`,
    );
  }
  lines.push(
    `preparation: ${e.blocks} blocks x ${e.prepareSeconds.toFixed(2)} s per worker that builds one${e.fits ? ` + ${e.fits} data-only fits x ${e.fitSeconds.toFixed(2)} s` : ''} = ${hours(e.preparationSeconds)} (${((100 * e.preparationSeconds) / e.totalSeconds).toFixed(0)}%)`,
    `total: ${hours(e.totalSeconds)} of core time (95% margin of the method part ± ${hours(e.marginSeconds)}); on ${workers} workers about ${hours(e.totalSeconds / workers)} of wall time; on N machines of ${workers} cores about ${hours(e.totalSeconds / workers)} / N`,
  );
  if (e.failedSampled > 0) lines.push(`${e.failedSampled} sampled cells failed (counted with their time)`);
  if (e.cappedSampled > 0)
    lines.push(
      `${e.cappedSampled} sampled cells ended on their time cap (counted with the seconds they were given: their plans may cost more)`,
    );
  return lines.join('\n');
}
