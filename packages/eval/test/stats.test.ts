import { describe, expect, it } from 'vitest';
import {
  clopperPearson,
  holm,
  incompleteBeta,
  meanInterval,
  normalCdf,
  normalQuantile,
  pairedConcordance,
  quantile,
  signTest,
  studentTQuantile,
  wilcoxonSignedRank,
  wilsonInterval,
} from '../src/index.js';

describe('distributions', () => {
  it('incomplete beta matches the binomial identity', () => {
    // I_x(2, 3) = P(Binomial(4, x) >= 2) = 11/16 at x = 1/2.
    expect(incompleteBeta(0.5, 2, 3)).toBeCloseTo(11 / 16, 12);
    expect(incompleteBeta(0.2, 1, 1)).toBeCloseTo(0.2, 12);
  });

  it('Student t quantiles match the closed forms for 1 and 2 degrees of freedom', () => {
    expect(studentTQuantile(0.975, 1)).toBeCloseTo(Math.tan(Math.PI * 0.475), 8);
    // df = 2: t = (2p − 1) / sqrt(2 p (1 − p)).
    expect(studentTQuantile(0.975, 2)).toBeCloseTo(0.95 / Math.sqrt(2 * 0.975 * 0.025), 8);
    expect(studentTQuantile(0.5, 7)).toBeCloseTo(0, 8);
    expect(studentTQuantile(0.975, 10_000)).toBeCloseTo(normalQuantile(0.975), 3);
  });

  it('the normal CDF is symmetric and matches its known values', () => {
    expect(normalCdf(0)).toBeCloseTo(0.5, 14);
    expect(normalCdf(1.959963984540054)).toBeCloseTo(0.975, 10);
    expect(normalCdf(-5)).toBeCloseTo(2.866515718791939e-7, 15);
    expect(normalCdf(2.5) + normalCdf(-2.5)).toBeCloseTo(1, 14);
  });
});

describe('intervals', () => {
  it('mean interval: t with n − 1 degrees of freedom', () => {
    const m = meanInterval([1, 2, 3]);
    const half = studentTQuantile(0.975, 2) / Math.sqrt(3);
    expect(m.mean).toBe(2);
    expect(m.lo).toBeCloseTo(2 - half, 10);
    expect(m.hi).toBeCloseTo(2 + half, 10);
    expect(meanInterval([4])).toEqual({ n: 1, mean: 4, lo: 4, hi: 4 });
    const rate = meanInterval([0, 1, 0], 0.95, [0, 1]);
    expect(rate.lo).toBe(0);
    expect(rate.hi).toBe(1);
  });

  it('Wilson interval of 0 out of 10', () => {
    const z = normalQuantile(0.975);
    const w = wilsonInterval(0, 10);
    expect(w.lo).toBe(0);
    expect(w.hi).toBeCloseTo((z * z) / (10 + z * z), 10);
  });

  it('quantile interpolates between order statistics', () => {
    expect(quantile([3, 1, 2, 4], 0.5)).toBe(2.5);
    expect(quantile([3, 1, 2, 4], 1)).toBe(4);
  });
});

/** Two-sided p-value by enumerating all 2^n sign assignments of the (mid)ranks. */
function bruteForceSignedRank(diffs: number[]): number {
  const abs = diffs.map(Math.abs);
  const ranks = abs.map((a) => {
    const below = abs.filter((b) => b < a).length;
    const equal = abs.filter((b) => b === a).length;
    return below + (equal + 1) / 2;
  });
  const total = ranks.reduce((a, b) => a + b, 0);
  const observed = diffs.reduce((acc, d, i) => (d > 0 ? acc + ranks[i]! : acc), 0);
  let extreme = 0;
  const n = diffs.length;
  for (let mask = 0; mask < 1 << n; mask++) {
    let w = 0;
    for (let i = 0; i < n; i++) if (mask & (1 << i)) w += ranks[i]!;
    if (Math.abs(w - total / 2) >= Math.abs(observed - total / 2) - 1e-12) extreme++;
  }
  return extreme / 2 ** n;
}

describe('Wilcoxon signed-rank', () => {
  it('exact p-values for small samples', () => {
    expect(wilcoxonSignedRank([2, 3, 4, 5, 6], [1, 1, 1, 1, 1]).pValue).toBeCloseTo(2 / 32, 14);
    const t = wilcoxonSignedRank([0, 3, 4, 5, 6], [1, 1, 1, 1, 1]);
    expect(t).toMatchObject({ n: 5, wPlus: 14, exact: true });
    expect(t.pValue).toBeCloseTo(4 / 32, 14);
  });

  it('agrees with full enumeration without ties', () => {
    const diffs = [0.3, -1.2, 2.5, 0.7, -0.1, 1.9, 3.3, -0.45, 1.1, 0.05];
    const t = wilcoxonSignedRank(
      diffs,
      diffs.map(() => 0),
    );
    expect(t.pValue).toBeCloseTo(bruteForceSignedRank(diffs), 12);
  });

  it('with ties, the exact p-value equals full enumeration of the signed mid-ranks', () => {
    const diffs = [1, 1, 2, 2, 2, -1, 3, 3, -2, 4, 4, 1, 5, -3, 2, 6];
    const t = wilcoxonSignedRank(
      diffs,
      diffs.map(() => 0),
    );
    expect(t.exact).toBe(true);
    expect(t.pValue).toBeCloseTo(bruteForceSignedRank(diffs), 12);
  });

  it('never goes below the exact floor 2 / 2^n (six tied blocks: 1/32, not a normal 0.02)', () => {
    const t = wilcoxonSignedRank([1, 1, 1, 1, 1, 1], [0, 0, 0, 0, 0, 0]);
    expect(t.pValue).toBeCloseTo(2 / 64, 14);
  });

  it('drops zero differences and gives p = 1 when nothing differs', () => {
    expect(wilcoxonSignedRank([1, 2], [1, 2])).toMatchObject({ n: 0, pValue: 1 });
  });
});

describe('Holm', () => {
  it('adjusts step-down and keeps monotonicity', () => {
    const adj = holm([0.01, 0.04, 0.03]);
    expect(adj[0]).toBeCloseTo(0.03, 12);
    expect(adj[1]).toBeCloseTo(0.06, 12);
    expect(adj[2]).toBeCloseTo(0.06, 12);
    expect(holm([0.5, 0.9])).toEqual([1, 1]);
  });
});

describe('seed-level tests and intervals', () => {
  it('one-sided signed-rank p-values by enumeration', () => {
    // All five differences positive: only one of 32 sign assignments is as extreme.
    expect(wilcoxonSignedRank([2, 3, 4, 5, 6], [1, 1, 1, 1, 1]).pGreater).toBeCloseTo(1 / 32, 14);
    // All negative: every assignment is at least as large.
    expect(wilcoxonSignedRank([1, 1, 1, 1, 1], [2, 3, 4, 5, 6]).pGreater).toBeCloseTo(1, 14);
    // Ranks 1..4, W+ = 1 + 4 = 5: sign assignments with W+ >= 5 are 9 of 16 (subsets of {1,2,3,4}
    // with sum >= 5: {1,4} {2,3} {2,4} {3,4} {1,2,3}... counted by hand below).
    const subsets = [...Array(16).keys()].map((m) => [1, 2, 3, 4].filter((_, i) => m & (1 << i)));
    const atLeast = subsets.filter((s) => s.reduce((a, b) => a + b, 0) >= 5).length;
    expect(wilcoxonSignedRank([1, -2, -3, 4], [0, 0, 0, 0]).pGreater).toBeCloseTo(atLeast / 16, 14);
  });

  it('Clopper-Pearson: 0 of 30 is not [0, 0]', () => {
    const c = clopperPearson(0, 30);
    expect(c.lo).toBe(0);
    // Upper bound solves (1 - p)^30 = 0.025.
    expect(c.hi).toBeCloseTo(1 - 0.025 ** (1 / 30), 10);
    const full = clopperPearson(30, 30);
    expect(full.lo).toBeCloseTo(0.025 ** (1 / 30), 10);
    expect(full.hi).toBe(1);
    // 5 of 10: P(X >= 5 | p = lo) = 0.025 (binomial sum by hand).
    const half = clopperPearson(5, 10);
    const upperTail = (p: number) =>
      [5, 6, 7, 8, 9, 10].reduce((a, k) => a + binom(10, k) * p ** k * (1 - p) ** (10 - k), 0);
    expect(upperTail(half.lo)).toBeCloseTo(0.025, 8);
  });

  it('intervals refuse counts outside [0, n]', () => {
    expect(() => wilsonInterval(5, 3)).toThrow(RangeError);
    expect(() => wilsonInterval(-1, 3)).toThrow(RangeError);
    expect(() => clopperPearson(1.5, 3)).toThrow(RangeError);
  });

  it('paired concordance counts seeds, ties half, with a sign test', () => {
    const r = pairedConcordance([0.9, 0.8, 0.5, 0.2], [0.1, 0.8, 0.1, 0.3]);
    expect(r.auc).toBeCloseTo((2 + 0.5) / 4, 14);
    expect(r.n).toBe(4);
    // two above, one below: P(|X - 1.5| >= 0.5) for Binomial(3, 1/2) = 1.
    expect(r.pValue).toBeCloseTo(1, 14);
    expect(signTest(5, 0)).toBeCloseTo(2 / 32, 14);
    expect(signTest(0, 0)).toBe(1);
  });
});

function binom(n: number, k: number): number {
  let r = 1;
  for (let i = 1; i <= k; i++) r = (r * (n - i + 1)) / i;
  return r;
}
