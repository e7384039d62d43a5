import { logNormalUpperTail, normalUpperTail } from '@fb/core';
import type { OutcomeKind } from './outcomes.js';

/** The outcome's mean over a pattern's non-NaN rows, from its summed statistics at `off`. */
export function outcomeRate(stats: Float64Array, off: number, kind: OutcomeKind): number {
  if (kind === 'boolean') return stats[off]! / (stats[off]! + stats[off + 1]!);
  return stats[off + 1]! / stats[off]!;
}

/**
 * DivExplorer's t-value of a pattern's outcome against the whole data's.
 * - Boolean outcomes: the Beta(pos + 1, neg + 1) posteriors of both, t = |mean_I − mean_D|/√(var_I + var_D).
 * - Quantitative outcomes (Welch): t = |μ_I − μ_D|/√(σ²_I/n_I + σ²_D/n_D), population variances.
 */
export function tValue(
  stats: Float64Array,
  off: number,
  all: Float64Array,
  allOff: number,
  kind: OutcomeKind,
): number {
  if (kind === 'boolean') {
    const beta = (pos: number, neg: number) => {
      const a = pos + 1;
      const b = neg + 1;
      return { mean: a / (a + b), variance: (a * b) / ((a + b) ** 2 * (a + b + 1)) };
    };
    const p = beta(stats[off]!, stats[off + 1]!);
    const q = beta(all[allOff]!, all[allOff + 1]!);
    return Math.abs(p.mean - q.mean) / Math.sqrt(p.variance + q.variance);
  }
  const moments = (s: Float64Array, o: number) => {
    const count = s[o]!;
    const mean = s[o + 1]! / count;
    return { count, mean, variance: Math.max(0, s[o + 2]! / count - mean * mean) };
  };
  const p = moments(stats, off);
  const q = moments(all, allOff);
  const se = Math.sqrt(p.variance / p.count + q.variance / q.count);
  const diff = Math.abs(p.mean - q.mean);
  return se === 0 ? (diff === 0 ? 0 : Number.POSITIVE_INFINITY) : diff / se;
}

/**
 * The convenience p-value of a t-value, 2·P(Z > |t|) (two-sided normal tail), and its natural log.
 * The p-value underflows to 0 beyond |t| ≈ 38.5, where no double can hold it; the log is computed in
 * the log domain and stays finite (ln p = −1254.14 at t = 50) for every finite t up to about 1e154.
 */
export function twoSidedPValue(t: number): { pValue: number; logPValue: number } {
  const z = Math.abs(t);
  return {
    pValue: Math.min(1, 2 * normalUpperTail(z)),
    logPValue: Math.min(0, Math.LN2 + logNormalUpperTail(z)),
  };
}
