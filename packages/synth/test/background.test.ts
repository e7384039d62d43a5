import { createRng } from '@fb/core';
import { describe, expect, it } from 'vitest';
import { generate, type SynthOptions, sampleCopula } from '../src/index.js';

/**
 * Background rows are the stream `seed/rows/background`'s rows that fall in no subgroup, in order: drawn
 * here as one long draw and filtered by the truth's own `subgroupsOf`, whatever chunks `generate` draws
 * them in. In both cases the subgroups cover much of the population, so that the background needs
 * about two or three draws per kept row, in several chunks.
 */
const cases: [string, Partial<SynthOptions>][] = [
  [
    'specific subgroups',
    { seed: 4, attributes: 12, pairs: 4, minGroupSize: 300, maxGroupSize: 400, backgroundShare: 0.3 },
  ],
  [
    'subgroups covering most rows',
    {
      seed: 9,
      attributes: 4,
      pairs: 2,
      maxGranularity: 1,
      maxIntersectionality: 1,
      minGroupSize: 100,
      maxGroupSize: 120,
      backgroundShare: 0.6,
    },
  ],
];

describe('generate: background rows', () => {
  it.each(cases)('%s: the first rows of their stream outside every subgroup', (_, options) => {
    const r = generate({ ensembleSize: 0, ...options, shuffle: false });
    const { n, d, x } = r.dataset;
    const nBg = r.truth.subgroupOf.filter((g) => g === -1).length;
    expect(nBg).toBeGreaterThan(0);
    // Unshuffled, the background rows come last.
    const got = x.subarray((n - nBg) * d);
    const draws = 60 * nBg + 10_000;
    const stream = createRng(r.options.seed).fork('rows').fork('background');
    const candidates = sampleCopula(r.copula, draws, stream);
    const inside = r.truth.subgroupsOf(candidates);
    const want = new Float64Array(nBg * d);
    let kept = 0;
    let used = 0;
    for (let i = 0; i < draws && kept < nBg; i++) {
      if (inside[i] !== -1) continue;
      want.set(candidates.subarray(i * d, (i + 1) * d), kept * d);
      kept++;
      used = i + 1;
    }
    expect(kept).toBe(nBg);
    // Several draws per kept row: the background comes in more than one chunk.
    expect(used / nBg).toBeGreaterThan(1.5);
    expect(Array.from(got)).toEqual(Array.from(want));
  });
});
