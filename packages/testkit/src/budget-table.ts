import { createHash } from 'node:crypto';
import {
  type Classifier,
  createDataset,
  createRng,
  type Dataset,
  type DiscoveryResult,
  defineSchema,
} from '@fb/core';
import { probabilityModel } from './region-fixture.js';

/**
 * A SHA-256 of a result's findings, extras and metrics, leaving out what depends on the clock (`timings`,
 * any `...Seconds` field and `dss`): equal digests mean a run gave the same answer byte for byte, e.g.
 * before and after a change that must not alter a method's output.
 */
export function resultDigest(result: DiscoveryResult): string {
  const { findings, extras, metrics } = result;
  const clockFree = (key: string, value: unknown) =>
    key === 'timings' || key === 'dss' || /Seconds$/.test(key) ? undefined : value;
  return createHash('sha256').update(JSON.stringify({ findings, extras, metrics }, clockFree)).digest('hex');
}

/**
 * A wide table for time-budget tests: `n` rows of a protected `sex` and `d - 1` continuous attributes
 * (integers on [0, 100]), labels drawn at random (40 % favourable), and a model whose favourable
 * probability is 0.7 for sex = 1, 0.3 otherwise, plus a small term in the first continuous attribute.
 * Large `n` and `d` make binning, clustering and pattern searches take seconds.
 */
export function wideTable(
  n: number,
  d: number,
  seed: number | string = 'wide-table',
): { dataset: Dataset; model: Classifier } {
  const rng = createRng(seed);
  const schema = defineSchema({
    attributes: [
      { name: 'sex', kind: 'categorical', protected: true, categories: ['f', 'm'] },
      ...Array.from({ length: d - 1 }, (_, j) => ({
        name: `x${j}`,
        kind: 'continuous' as const,
        protected: false,
        min: 0,
        max: 100,
      })),
    ],
    outcome: { name: 'y', labels: ['no', 'yes'], favorable: 1 },
  });
  const x = Float64Array.from({ length: n * d }, (_, k) => (k % d === 0 ? rng.int(0, 1) : rng.int(0, 100)));
  const y = Int32Array.from({ length: n }, () => (rng.bernoulli(0.4) ? 1 : 0));
  const model = probabilityModel('wide', (r) => (r[0] === 1 ? 0.7 : 0.3) + r[1]! / 1000, d);
  return { dataset: createDataset({ schema, x, y, name: `wide-${n}x${d}` }), model };
}
