import type { GroupOutcome } from './run-score.js';
import { holm, wilcoxonSignedRank, wilsonInterval } from './stats.js';
import type { GroupFactors } from './truth.js';

/** One measured value of one method on one block (a dataset, seed and model shared by all methods). */
export interface Observation {
  method: string;
  block: string;
  value: number;
}

export interface Comparison {
  a: string;
  b: string;
  /** Blocks both methods were measured on. */
  n: number;
  /** Mean and median of a − b over those blocks. */
  meanDifference: number;
  medianDifference: number;
  pValue: number;
  /** Holm-adjusted over every comparison of the family. */
  pHolm: number;
  /** The better method at the family-wise level `alpha` (higher is better), or null. */
  better: string | null;
}

/**
 * Paired comparisons of every two methods over the blocks they share (Wilcoxon signed-rank), with
 * Holm's correction over the whole family of comparisons. Non-finite values are left out.
 */
export function pairedComparisons(observations: readonly Observation[], alpha = 0.05): Comparison[] {
  const byMethod = new Map<string, Map<string, number>>();
  for (const o of observations) {
    if (!Number.isFinite(o.value)) continue;
    let m = byMethod.get(o.method);
    if (!m) byMethod.set(o.method, (m = new Map()));
    m.set(o.block, o.value);
  }
  const methods = [...byMethod.keys()];
  const raw: Omit<Comparison, 'pHolm' | 'better'>[] = [];
  for (let i = 0; i < methods.length; i++) {
    for (let j = i + 1; j < methods.length; j++) {
      const a = byMethod.get(methods[i]!)!;
      const b = byMethod.get(methods[j]!)!;
      const x: number[] = [];
      const y: number[] = [];
      for (const [block, v] of a) {
        const w = b.get(block);
        if (w === undefined) continue;
        x.push(v);
        y.push(w);
      }
      if (x.length === 0) continue;
      const t = wilcoxonSignedRank(x, y);
      raw.push({
        a: methods[i]!,
        b: methods[j]!,
        n: x.length,
        meanDifference: x.reduce((acc, v, k) => acc + v - y[k]!, 0) / x.length,
        medianDifference: t.medianDifference,
        pValue: t.pValue,
      });
    }
  }
  const adjusted = holm(raw.map((r) => r.pValue));
  return raw.map((r, k) => ({
    ...r,
    pHolm: adjusted[k]!,
    better: adjusted[k]! <= alpha && r.meanDifference !== 0 ? (r.meanDifference > 0 ? r.a : r.b) : null,
  }));
}

export interface DetectionPower {
  /** Alarm-score threshold: runs without bias exceed it at most at rate `fpr`. */
  threshold: number;
  /** Share of runs without bias above the threshold (≤ fpr). */
  achievedFpr: number;
  /** Share of runs with bias above the threshold. */
  power: number;
  nullRuns: number;
  biasedRuns: number;
}

/**
 * Detection power at a controlled false-positive rate: the threshold is the smallest null alarm
 * score that at most `fpr` of the null runs exceed; power is the share of biased runs above it.
 * Null when there are no null runs (the rate cannot be controlled).
 */
export function detectionPower(
  nullScores: readonly number[],
  biasedScores: readonly number[],
  fpr = 0.05,
): DetectionPower | null {
  const m = nullScores.length;
  if (m === 0) return null;
  const sorted = [...nullScores].sort((a, b) => a - b);
  // At most floor(fpr * m) null runs may lie strictly above the threshold.
  const allowed = Math.floor(fpr * m + 1e-9);
  const threshold = sorted[m - 1 - allowed]!;
  const above = (xs: readonly number[]) => xs.filter((v) => v > threshold).length;
  return {
    threshold,
    achievedFpr: above(nullScores) / m,
    power: biasedScores.length ? above(biasedScores) / biasedScores.length : Number.NaN,
    nullRuns: m,
    biasedRuns: biasedScores.length,
  };
}

export type FactorName = keyof GroupFactors;

/** Factors with few integer levels, tabulated by value; the others are cut into quantile bins. */
const discreteFactors: ReadonlySet<FactorName> = new Set(['granularity', 'intersectionality']);

export interface FactorLevel {
  level: string;
  /** Numeric lower bound of the level (its value for discrete factors), for ordering and plotting. */
  from: number;
  groups: number;
  found: number;
  rate: number;
  lo: number;
  hi: number;
}

/**
 * Detection rate of injected groups by one factor (with Wilson intervals). Discrete factors are
 * tabulated by value; continuous ones in `bins` quantile bins of the observed values.
 */
export function factorTable(outcomes: readonly GroupOutcome[], factor: FactorName, bins = 4): FactorLevel[] {
  const known = outcomes.filter((o) => o.factors[factor] !== null && Number.isFinite(o.factors[factor]));
  if (known.length === 0) return [];
  const value = (o: GroupOutcome) => o.factors[factor] as number;
  const levels = new Map<number, { label: string; items: GroupOutcome[] }>();
  const distinct = [...new Set(known.map(value))].sort((a, b) => a - b);
  if (discreteFactors.has(factor) || distinct.length <= bins) {
    for (const v of distinct) levels.set(v, { label: fmt(v), items: [] });
    for (const o of known) levels.get(value(o))!.items.push(o);
  } else {
    const sorted = known.map(value).sort((a, b) => a - b);
    const edges = Array.from(
      { length: bins + 1 },
      (_, k) => sorted[Math.round((k * (sorted.length - 1)) / bins)]!,
    );
    const uniqueEdges = [...new Set(edges)];
    for (let k = 0; k < uniqueEdges.length - 1; k++) {
      const lo = uniqueEdges[k]!;
      const hi = uniqueEdges[k + 1]!;
      const last = k === uniqueEdges.length - 2;
      levels.set(lo, { label: `[${fmt(lo)}, ${fmt(hi)}${last ? ']' : ')'}`, items: [] });
    }
    const starts = [...levels.keys()];
    for (const o of known) {
      let k = starts.length - 1;
      while (k > 0 && value(o) < starts[k]!) k--;
      levels.get(starts[k]!)!.items.push(o);
    }
  }
  return [...levels.entries()]
    .filter(([, l]) => l.items.length > 0)
    .map(([from, l]) => {
      const found = l.items.filter((o) => o.found).length;
      const w = wilsonInterval(found, l.items.length);
      return { level: l.label, from, groups: l.items.length, found, rate: w.rate, lo: w.lo, hi: w.hi };
    });
}

function fmt(v: number): string {
  return Number.isInteger(v) ? String(v) : v.toPrecision(3);
}

export interface Discrimination {
  /** Runs with and without planted bias. */
  biasedRuns: number;
  nullRuns: number;
  /**
   * ROC AUC of the alarm score between biased and null runs (Mann-Whitney, ties count one half):
   * 0.5 is chance, 1 a perfect separation. Its 95% interval is conservative: a Wilson interval with
   * min(biased, null) runs, since Var(AUC) <= AUC(1 - AUC) / min(m, n) (Birnbaum and Klose, 1957).
   */
  auc: number;
  aucLo: number;
  aucHi: number;
  /** True-positive rate at the threshold calibrated on the null runs (see `detectionPower`). */
  tpr: number;
  tprLo: number;
  tprHi: number;
  /** The false-positive rate that threshold achieves on the null runs, and its interval. */
  fpr: number;
  fprLo: number;
  fprHi: number;
}

/** Area under the ROC curve of `positive` against `negative` scores (ties count one half). */
export function rocAuc(negative: readonly number[], positive: readonly number[]): number {
  if (negative.length === 0 || positive.length === 0) return Number.NaN;
  const all = [...negative.map((v) => ({ v, pos: false })), ...positive.map((v) => ({ v, pos: true }))].sort(
    (a, b) => a.v - b.v,
  );
  // Mid-ranks: the rank-sum form of the Mann-Whitney statistic handles ties exactly.
  let rankSum = 0;
  for (let i = 0; i < all.length; ) {
    let j = i;
    while (j < all.length && all[j]!.v === all[i]!.v) j++;
    const mid = (i + 1 + j) / 2;
    for (let k = i; k < j; k++) if (all[k]!.pos) rankSum += mid;
    i = j;
  }
  const m = positive.length;
  const n = negative.length;
  return (rankSum - (m * (m + 1)) / 2) / (m * n);
}

/**
 * How well a method's alarm score tells runs with planted bias from runs without: ROC AUC with a
 * conservative interval, and the true-positive rate at a false-positive rate `fpr` calibrated on the
 * null runs, with Wilson intervals for both rates.
 */
export function discrimination(
  nullScores: readonly number[],
  biasedScores: readonly number[],
  fpr = 0.05,
): Discrimination | null {
  const n = nullScores.length;
  const m = biasedScores.length;
  if (n === 0 || m === 0) return null;
  const auc = rocAuc(nullScores, biasedScores);
  const k = Math.min(m, n);
  const aucInterval = wilsonInterval(auc * k, k);
  const power = detectionPower(nullScores, biasedScores, fpr)!;
  const tpr = wilsonInterval(Math.round(power.power * m), m);
  const achieved = wilsonInterval(Math.round(power.achievedFpr * n), n);
  return {
    biasedRuns: m,
    nullRuns: n,
    auc,
    aucLo: aucInterval.lo,
    aucHi: aucInterval.hi,
    tpr: tpr.rate,
    tprLo: tpr.lo,
    tprHi: tpr.hi,
    fpr: achieved.rate,
    fprLo: achieved.lo,
    fprHi: achieved.hi,
  };
}
