import { describe, expect, it } from 'vitest';
import { generate, type SynthOptions } from '../src/index.js';
import { outputHasher } from './helpers.js';

/**
 * Digests of the dataset and every per-row truth array of mid-sized runs, recorded after subgroup rows
 * came to be drawn by minimax tilting (conditional.ts, tilting.ts), outcomes from a stream per subgroup
 * (outcomes.ts), and the latent normals by the ziggurat (`Rng.zigguratNormals`): the generator's output
 * for a seed must not change.
 */
const cases: [Partial<SynthOptions>, string][] = [
  [
    {
      seed: 3,
      attributes: 12,
      pairs: 40,
      protectedShare: 0.34,
      continuousShare: 0.25,
      minGroupSize: 60,
      maxGroupSize: 120,
      ensembleSize: 3,
      ensembleTrainingRows: 400,
    },
    '64474175bf068a95',
  ],
  [
    {
      seed: 5,
      attributes: 10,
      pairs: 30,
      valueSampling: 'uniform',
      minIntersectionality: 2,
      minGranularity: 2,
      maxGranularity: 3,
      minGroupSize: 50,
      maxGroupSize: 90,
      backgroundShare: 0.2,
      labels: 'threshold',
    },
    '6179da246815f6f1',
  ],
];

describe('generate: output is stable for a seed', () => {
  it.each(cases)('digest of run %#', (options, expected) => {
    const r = generate(options);
    const t = r.truth;
    const h = outputHasher(r);
    // The truth functions on inputs off the data: every row's protected variants.
    const probe = t.counterfactualOf(r.dataset.x.subarray(0, 300 * r.dataset.d));
    h.numbers(t.subgroupsOf(probe))
      .numbers(t.isBiasedInput(probe))
      .numbers(t.counterfactualOf(probe))
      .numbers(t.probabilityOf(probe));
    expect(h.digest()).toBe(expected);
  });
});
