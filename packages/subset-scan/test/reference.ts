import { createRng } from '@fb/core';
import type { ScanData, ScanDirection, ScanSubset, ScoreFunction } from '../src/index.js';

/**
 * Independent score of a set of records: the log-likelihood ratio maximised over its free parameter
 * on the direction's side of the null, by closed form where there is one and by 200 bisection steps on
 * the slope otherwise. Written from the formulas, not from the package's kernels.
 */
export function referenceScore(
  score: ScoreFunction,
  direction: ScanDirection,
  ys: number[],
  es: number[],
  constants: { sigma?: number; alpha?: number } = {},
): number {
  const n = ys.length;
  if (n === 0) return 0;
  const Y = ys.reduce((a, b) => a + b, 0);
  const E = es.reduce((a, b) => a + b, 0);
  const clampSide = (t: number) =>
    (direction === 'positive' && t < 0) || (direction === 'negative' && t > 0) ? 0 : t;
  const T = Math.log(1e6);
  const clampT = (t: number) => Math.max(-T, Math.min(T, t));
  if (score === 'gaussian') {
    const D = ys.reduce((a, y, i) => a + y - es[i]!, 0);
    const mu = clampSide(D / n);
    const s2 = constants.sigma! ** 2;
    return (mu * D - (mu * mu * n) / 2) / s2;
  }
  if (score === 'poisson') {
    const t = clampSide(clampT(Y === 0 ? -T : E === 0 ? T : Math.log(Y / E)));
    return Y * t + E * (1 - Math.exp(t));
  }
  if (score === 'berk-jones') {
    const a = constants.alpha!;
    const f = (t: number) => Y * t - n * Math.log(1 - a + a * Math.exp(t));
    const r = Y / n;
    const t = clampSide(clampT(r <= 0 ? -T : r >= 1 ? T : Math.log(r / (1 - r) / (a / (1 - a)))));
    return f(t);
  }
  const f = (t: number) => Y * t - es.reduce((s, p) => s + Math.log(1 - p + p * Math.exp(t)), 0);
  const slope = (t: number) => Y - es.reduce((s, p) => s + (p * Math.exp(t)) / (1 - p + p * Math.exp(t)), 0);
  let lo = -T;
  let hi = T;
  for (let it = 0; it < 200; it++) {
    const mid = (lo + hi) / 2;
    if (slope(mid) > 0) lo = mid;
    else hi = mid;
  }
  return f(clampSide((lo + hi) / 2));
}

/** Every value set of one attribute: null (unconstrained) and every proper non-empty subset (or range). */
function valueSets(arity: number, contiguous: boolean): (number[] | null)[] {
  const out: (number[] | null)[] = [null];
  if (contiguous) {
    for (let a = 0; a < arity; a++) {
      for (let b = a; b < arity; b++) {
        if (a === 0 && b === arity - 1) continue;
        out.push(Array.from({ length: b - a + 1 }, (_, j) => a + j));
      }
    }
    return out;
  }
  for (let mask = 1; mask < (1 << arity) - 1; mask++) {
    out.push([...Array(arity).keys()].filter((v) => mask & (1 << v)));
  }
  return out;
}

/** The best penalised score over every subgroup (Cartesian product of value sets) of small data. */
export function bruteForce(
  data: ScanData,
  score: ScoreFunction,
  direction: ScanDirection,
  penalty: number,
  constants: { sigma?: number; alpha?: number } = {},
  contiguous: boolean[] = data.arity.map(() => false),
): { score: number; subset: ScanSubset } {
  const choices = data.arity.map((k, m) => valueSets(k, contiguous[m]!));
  const n = data.observed.length;
  let best = { score: Number.NEGATIVE_INFINITY, subset: [] as ScanSubset };
  const visit = (m: number, chosen: (number[] | null)[]) => {
    if (m === data.arity.length) {
      const ys: number[] = [];
      const es: number[] = [];
      for (let i = 0; i < n; i++) {
        if (chosen.every((vals, j) => vals === null || vals.includes(data.codes[j]![i]!))) {
          ys.push(data.observed[i]!);
          es.push(data.expected[i]!);
        }
      }
      const pen = penalty * chosen.reduce((s, v) => s + (v?.length ?? 0), 0);
      const s = referenceScore(score, direction, ys, es, constants) - pen;
      if (s > best.score) best = { score: s, subset: chosen.map((v) => (v ? Int32Array.from(v) : null)) };
      return;
    }
    for (const c of choices[m]!) visit(m + 1, [...chosen, c]);
  };
  visit(0, []);
  return best;
}

/**
 * Small coded data: records with random codes and expectations; observations drawn with the signal
 * `shift` inside the records where `planted` holds (odds × e^shift for binary scores, rate × e^shift for
 * Poisson, mean + shift for Gaussian).
 */
export function smallData(
  seed: string,
  n: number,
  arity: number[],
  score: ScoreFunction,
  planted: (codes: number[]) => boolean,
  shift: number,
): ScanData {
  const rng = createRng(seed);
  const codes = arity.map(() => new Int32Array(n));
  const observed = new Float64Array(n);
  const expected = new Float64Array(n);
  const row: number[] = new Array(arity.length);
  for (let i = 0; i < n; i++) {
    arity.forEach((k, m) => {
      row[m] = rng.int(0, k - 1);
      codes[m]![i] = row[m]!;
    });
    const s = planted(row) ? shift : 0;
    if (score === 'gaussian') {
      expected[i] = rng.normal(0, 1);
      observed[i] = expected[i]! + s + rng.normal(0, 1);
    } else if (score === 'poisson') {
      expected[i] = rng.uniform(0.5, 3);
      const mu = expected[i]! * Math.exp(s);
      let k = 0;
      let p = Math.exp(-mu);
      let c = p;
      const u = rng.next();
      while (u > c) {
        k++;
        p *= mu / k;
        c += p;
      }
      observed[i] = k;
    } else {
      const p = score === 'berk-jones' ? 0.3 : rng.uniform(0.1, 0.9);
      expected[i] = p;
      const odds = (p / (1 - p)) * Math.exp(s);
      observed[i] = rng.next() < odds / (1 + odds) ? 1 : 0;
    }
  }
  return { codes, arity, observed, expected };
}
