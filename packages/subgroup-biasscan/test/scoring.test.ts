import { describe, expect, it } from 'vitest';
import {
  bernoulliScore,
  maximizeQ,
  poissonScore,
  positiveInterval,
  Q_TOLERANCE,
  roundScore,
  scoreEvaluator,
} from '../src/index.js';

const p = (...v: number[]) => Float64Array.from(v);

/** q·dF/dq of the Bernoulli statistic, written out independently: Y − Σ q pᵢ / (1 − pᵢ + q pᵢ). */
function bernoulliSlope(y: number, ps: Float64Array, q: number): number {
  return y - ps.reduce((s, pi) => s + (q * pi) / (1 - pi + q * pi), 0);
}

describe('Bernoulli score', () => {
  it('has q̂ equal to the odds ratio when all expectations are equal (closed form)', () => {
    // N = 10, p = 0.5, Y = 8: Y = N q p / (1 − p + q p) gives q = Y(1 − p) / (p (N − Y)) = 4.
    const ps = new Float64Array(10).fill(0.5);
    const ev = scoreEvaluator('bernoulli', 8, ps);
    const q = maximizeQ(ev, 'positive');
    expect(Math.abs(q - 4)).toBeLessThanOrEqual(Q_TOLERANCE / 2);
    // F(4) = 8 ln 4 − 10 ln 2.5 = 1.92745 (by hand).
    expect(roundScore(ev.f(q))).toBe(1.9274);
  });

  it('finds the root of Y = Σ q pᵢ/(1 − pᵢ + q pᵢ) and scores it by the formula', () => {
    const ps = p(0.1, 0.3, 0.6, 0.8, 0.2, 0.45);
    const y = 4;
    const ev = scoreEvaluator('bernoulli', y, ps);
    const q = maximizeQ(ev, 'positive');
    // The root lies within half a bisection width of q̂: the slope changes sign across that bracket.
    expect(bernoulliSlope(y, ps, q - Q_TOLERANCE / 2)).toBeGreaterThan(0);
    expect(bernoulliSlope(y, ps, q + Q_TOLERANCE / 2)).toBeLessThan(0);
    const byFormula = y * Math.log(q) - ps.reduce((s, pi) => s + Math.log(1 - pi + q * pi), 0);
    expect(ev.f(q)).toBeCloseTo(byFormula, 12);
    expect(bernoulliScore(y, ps, q)).toBeCloseTo(byFormula, 12);
    expect(ev.f(q)).toBeGreaterThan(0);
  });

  it('clamps q̂ to 1 (score 0) when the deviation is in the other direction', () => {
    const ps = p(0.2, 0.3, 0.4);
    // Y = 3 > E = 0.9: observed above expected, so the negative scan sees nothing.
    const ev = scoreEvaluator('bernoulli', 3, ps);
    expect(maximizeQ(ev, 'negative')).toBe(1);
    expect(ev.f(1)).toBe(0);
    expect(positiveInterval(ev, 1e-17, 'negative')).toBeNull();
    expect(maximizeQ(ev, 'positive')).toBeGreaterThan(1);
  });
});

describe('Poisson score', () => {
  it('has q̂ = Y/E and F(q̂) = Y ln q̂ + E (1 − q̂)', () => {
    const ps = p(0.2, 0.5, 0.3, 1.0); // E = 2
    const ev = scoreEvaluator('poisson', 5, ps);
    const q = maximizeQ(ev, 'positive');
    expect(Math.abs(q - 2.5)).toBeLessThanOrEqual(Q_TOLERANCE / 2);
    // 5 ln 2.5 − 3 = 1.58145 (by hand).
    expect(roundScore(ev.f(q))).toBe(1.5815);
    expect(poissonScore(5, ps, 2.5)).toBeCloseTo(5 * Math.log(2.5) - 3, 12);
  });

  it('gives the interval where F(q) exceeds the penalty, clipped to the direction', () => {
    // Y = 1, E = 3: q̂ = 1/3, F(q̂) = ln(1/3) + 2 ≈ 0.901.
    const ev = scoreEvaluator('poisson', 1, p(1, 1, 1));
    const f = (q: number) => Math.log(q) + 3 * (1 - q);
    const pen = 0.5;
    const iv = positiveInterval(ev, pen, 'negative');
    expect(iv).not.toBeNull();
    const { qHat, qMin, qMax } = iv!;
    expect(Math.abs(qHat - 1 / 3)).toBeLessThanOrEqual(Q_TOLERANCE / 2);
    expect(qMin).toBeLessThan(qHat);
    expect(qMax).toBeGreaterThan(qHat);
    for (const root of [qMin, qMax]) {
      // F − pen changes sign within half a bisection width of each root.
      expect(Math.sign(f(root - Q_TOLERANCE / 2) - pen)).not.toBe(Math.sign(f(root + Q_TOLERANCE / 2) - pen));
    }
    // Without penalty the upper root is q = 1 itself; the interval never crosses 1 in the negative direction.
    const unpenalised = positiveInterval(ev, 0, 'negative')!;
    expect(unpenalised.qMax).toBeLessThanOrEqual(1);
    expect(unpenalised.qMax).toBeGreaterThan(1 - Q_TOLERANCE);
    expect(positiveInterval(ev, 0, 'positive')).toBeNull();
    // A penalty above the maximum leaves no positive interval.
    expect(positiveInterval(ev, 1, 'negative')).toBeNull();
  });
});

describe('roundScore', () => {
  it('rounds to 4 decimals without producing -0', () => {
    expect(roundScore(1.23456)).toBe(1.2346);
    expect(Object.is(roundScore(-1e-9), 0)).toBe(true);
  });
});
