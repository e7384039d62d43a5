import { createRng } from '@fb/core';
import { describe, expect, it } from 'vitest';
import { prepareScore } from '../src/data.js';
import { createKernel, Grouping } from '../src/kernels.js';

/**
 * `mleOpposes` lets a direction-constrained fit skip the Newton search for the maximum. It must never
 * claim a side that `mle()` does not land on: checked on random selections whose maxima lie close to
 * t = 0 (observed rates near the expected ones) as well as far from it.
 */
describe('Bernoulli kernel: mleOpposes', () => {
  it('never contradicts the side of mle()', () => {
    const rng = createRng('kernel-side');
    let claims = 0;
    let near = 0;
    for (let trial = 0; trial < 400; trial++) {
      const n = rng.int(1, 300);
      const k = 4;
      const codes = Int32Array.from({ length: n }, () => rng.int(0, k - 1));
      const expected = Float64Array.from({ length: n }, () => 0.02 + 0.96 * rng.next());
      // Half the trials: 0/1 outcomes at a shifted rate. The others: fractional observations at the
      // expectation plus a shift of 1e-12 to 1e-2, so that the maximum lies anywhere from far to very
      // near 0, around the margin of 1e-6 the check relies on.
      const shift =
        (rng.next() < 0.5 ? -1 : 1) * (trial % 2 ? 10 ** (-12 + 10 * rng.next()) : 0.2 * rng.next());
      const observed =
        trial % 2
          ? expected.map((p) => Math.min(1, Math.max(0, p + shift)))
          : expected.map((p) => (rng.next() < Math.min(1, Math.max(0, p + shift)) ? 1 : 0));
      const data = { codes: [codes], arity: [k], observed, expected };
      const prepared = prepareScore(data, {
        score: 'bernoulli',
        direction: 'positive',
        iterations: 1,
        penalty: 0,
      });
      const g = new Grouping(prepared, k, true);
      g.reset(k);
      const members = Int32Array.from({ length: n }, (_, i) => i);
      for (let i = 0; i < n; i++) {
        g.counts[codes[i]!]!++;
        g.sumValues[codes[i]!]! += prepared.values[i]!;
        g.sumExpected[codes[i]!]! += prepared.expected[i]!;
      }
      g.finish(members, n, codes);
      const kernel = createKernel(g, prepared, k);
      const chosen = Int32Array.from([0, 1, 2, 3].filter(() => rng.next() < 0.7));
      kernel.select(chosen, chosen.length);
      if (kernel.size === 0) continue;
      const t = kernel.mle();
      if (Math.abs(t) < 1e-5) near++;
      for (const side of [1, -1]) {
        if (!kernel.mleOpposes(side)) continue;
        claims++;
        expect(Math.sign(t)).toBe(-side);
      }
    }
    // The check has teeth: many claims, and maxima close to 0 among the selections.
    expect(claims).toBeGreaterThan(150);
    expect(near).toBeGreaterThan(50);
  });
});
