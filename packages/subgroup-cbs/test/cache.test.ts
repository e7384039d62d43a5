import { type Classifier, createDataset, createRng, defineSchema, RunController } from '@fb/core';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type CbsOptions,
  cbs,
  cbsFitCache,
  conditionalBiasScan,
  DEFAULT_FIT_CACHE_BYTES,
  FitCache,
} from '../src/index.js';

const schema = defineSchema({
  attributes: [
    { name: 'sex', kind: 'categorical', protected: true, categories: ['m', 'f'] },
    { name: 'race', kind: 'categorical', protected: true, categories: ['a', 'b', 'c'] },
    { name: 'level', kind: 'categorical', protected: false, categories: ['l0', 'l1', 'l2'] },
    { name: 'region', kind: 'categorical', protected: false, categories: ['n', 'e', 's', 'w'] },
  ],
  outcome: { name: 'o', labels: ['0', '1'], favorable: 1 },
});

/** Rows whose outcome depends on level and region; race depends on region; two models' probabilities. */
function world(n: number) {
  const rng = createRng('cbs-cache');
  const x = new Float64Array(4 * n);
  const y = new Int32Array(n);
  const p1 = new Float64Array(n);
  const p2 = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const region = rng.int(0, 3);
    const race = rng.bernoulli(0.3 + 0.1 * region) ? rng.int(1, 2) : 0;
    const sex = rng.int(0, 1);
    const level = rng.int(0, 2);
    x.set([sex, race, level, region], 4 * i);
    const base = 0.25 + 0.15 * level + 0.05 * region;
    y[i] = rng.bernoulli(base) ? 1 : 0;
    // The first model under-rates women of level 2; the second is unbiased and noisier.
    p1[i] = Math.min(0.95, Math.max(0.05, base + rng.normal(0, 0.1) - (sex === 1 && level === 2 ? 0.3 : 0)));
    p2[i] = Math.min(0.95, Math.max(0.05, base + rng.normal(0, 0.2)));
  }
  return { dataset: createDataset({ schema, x, y }), p1, p2 };
}

/** The run's output without its wall time, as text: equal texts are equal bytes. */
function bytesOf(out: { subgroups: unknown; extras: Record<string, unknown> }): string {
  const { timings: _, ...extras } = out.extras;
  return JSON.stringify({ subgroups: out.subgroups, extras });
}

const { dataset, p1, p2 } = world(1200);
const run = (p: Float64Array, options: Partial<CbsOptions>, seed = 3) =>
  conditionalBiasScan(
    dataset,
    p,
    cbs.resolveOptions({ iterations: 3, ...options }),
    new RunController({ seed }),
  );

afterEach(() => {
  cbsFitCache.configure({ maxBytes: DEFAULT_FIT_CACHE_BYTES });
  cbsFitCache.clear();
});

describe('fit cache', () => {
  // Five classes (sex: 2, race: 3), both directions: 10 scans.
  const classes = 5;

  it('gives the same bytes with and without it, and shares the data-only fits between runs', async () => {
    const options: Partial<CbsOptions> = { scanType: 'separation-recommendations', permutations: 29 };
    cbsFitCache.configure({ maxBytes: 0 });
    const off1 = bytesOf(await run(p1, options));
    const off2 = bytesOf(await run(p2, options));
    expect(cbsFitCache.stats()).toMatchObject({ hits: 0, entries: 0, bytes: 0 });

    cbsFitCache.configure({ maxBytes: DEFAULT_FIT_CACHE_BYTES });
    cbsFitCache.clear();
    const on1 = bytesOf(await run(p1, options));
    const first = cbsFitCache.stats();
    const on2 = bytesOf(await run(p2, options));
    const second = cbsFitCache.stats();
    // Run again with everything cached: the same bytes once more.
    const again = bytesOf(await run(p1, options));

    expect(on1).toBe(off1);
    expect(on2).toBe(off2);
    expect(again).toBe(off1);
    // Every fit of the first run is new: one propensity fit and one resampling-model fit per class,
    // then one propensity fit per resample (each draws a new class).
    expect(first.hits).toBe(0);
    expect(first.misses).toBeGreaterThan(2 * classes);
    // Separation conditions on the outcome, not on the model: the second model's run draws the same
    // classes with the same seed, so its two data fits per class are hits, and so is every resample
    // that the first run also made.
    expect(second.hits - first.hits).toBeGreaterThanOrEqual(2 * classes);
    const secondMisses = second.misses - first.misses;
    const resamples = (out: string) =>
      (JSON.parse(out).extras.scans as { permutationsCompleted: number }[]).reduce(
        (s, c) => s + c.permutationsCompleted,
        0,
      );
    expect(secondMisses).toBeLessThanOrEqual(resamples(on2));
  });

  it('does not share a fit that depends on the model', async () => {
    // Sufficiency for predictions conditions the resampling model on the model's P: only the
    // propensity model of each class on the data's own class, P(A = 1 | X), is the same for both.
    const options: Partial<CbsOptions> = { scanType: 'sufficiency-predictions', permutations: 19 };
    cbsFitCache.configure({ maxBytes: 0 });
    const off2 = bytesOf(await run(p2, options));
    cbsFitCache.configure({ maxBytes: DEFAULT_FIT_CACHE_BYTES });
    await run(p1, options);
    const before = cbsFitCache.stats().hits;
    const on2 = bytesOf(await run(p2, options));
    expect(cbsFitCache.stats().hits - before).toBe(classes);
    expect(on2).toBe(off2);
  });

  it('keys by content: another seed or L2 penalty misses, the same content under any name hits', async () => {
    const options: Partial<CbsOptions> = { scanType: 'separation-recommendations', permutations: 5 };
    await run(p1, options);
    let hits = cbsFitCache.stats().hits;
    // Another seed draws other classes: only the data's own fits (two per class) are shared.
    await run(p2, options, 4);
    expect(cbsFitCache.stats().hits - hits).toBe(2 * classes);
    hits = cbsFitCache.stats().hits;
    await run(p2, { ...options, l2: 0.5 }, 4);
    expect(cbsFitCache.stats().hits - hits).toBe(0);
    // A copy of the data with another name and fresh arrays is the same content.
    hits = cbsFitCache.stats().hits;
    const copy = createDataset({
      schema,
      x: Float64Array.from(dataset.x),
      y: Int32Array.from(dataset.y),
      name: 'copy',
    });
    await conditionalBiasScan(
      copy,
      Float64Array.from(p2),
      cbs.resolveOptions({ iterations: 3, ...options }),
      new RunController({ seed: 4 }),
    );
    expect(cbsFitCache.stats().hits - hits).toBeGreaterThanOrEqual(2 * classes);
  });
});

describe('FitCache', () => {
  const labels = (bits: number[]) => Uint8Array.from(bits);
  const fitted = (value: number) => () => ({ proba: new Float64Array(4).fill(value), model: {} as never });

  it('keeps the most recently used entries within its byte bound', () => {
    const cache = new FitCache();
    const design = cache.designKey('schema', 1, Float64Array.from([0, 1, 2, 3]), 1);
    // One entry without a model: 200 + 4·8 + 4 bytes; the design's copy 32 bytes.
    const entry = 200 + 32 + 4;
    cache.configure({ maxBytes: 32 + 2 * entry });
    cache.fit(design, labels([0, 0, 1, 1]), '', false, fitted(0.1));
    cache.fit(design, labels([0, 1, 0, 1]), '', false, fitted(0.2));
    // Use the first again, then add a third: the second (least recently used) goes.
    expect(cache.fit(design, labels([0, 0, 1, 1]), '', false, fitted(9)).proba[0]).toBe(0.1);
    cache.fit(design, labels([1, 1, 0, 0]), '', false, fitted(0.3));
    expect(cache.stats()).toMatchObject({ entries: 2, bytes: 32 + 2 * entry });
    expect(cache.fit(design, labels([0, 0, 1, 1]), '', false, fitted(9)).proba[0]).toBe(0.1);
    expect(cache.fit(design, labels([0, 1, 0, 1]), '', false, fitted(0.4)).proba[0]).toBe(0.4);
    expect(cache.stats().hits).toBe(2);
  });

  it('treats a hash collision as a miss and asks for the warm start model it keeps', () => {
    const cache = new FitCache();
    const a = cache.designKey('schema', 1, Float64Array.from([0, 1, 2, 3]), 1);
    // Another design forged under the same hash.
    const b = { key: a.key, x: Float64Array.from([3, 2, 1, 0]) };
    cache.fit(a, labels([0, 0, 1, 1]), '', false, fitted(0.1));
    expect(cache.fit(b, labels([0, 0, 1, 1]), '', false, fitted(0.7)).proba[0]).toBe(0.7);
    // A fit kept without its model is refitted when the model is asked for.
    expect(cache.fit(a, labels([0, 0, 1, 1]), '', true, fitted(0.5)).proba[0]).toBe(0.5);
    expect(cache.stats().hits).toBe(0);
  });

  it('rejects a negative bound with a typed error', () => {
    expect(() => new FitCache().configure({ maxBytes: -1 })).toThrow(
      expect.objectContaining({ name: 'OptionsError', code: 'OPTIONS_INVALID' }),
    );
  });
});

describe('what each scan type needs from the model', () => {
  const score = (x: Float64Array, o: number) =>
    0.3 + 0.2 * x[o + 2]! - (x[o] === 1 && x[o + 2] === 2 ? 0.35 : 0);
  const probabilities: Classifier = {
    nFeatures: 4,
    nClasses: 2,
    predict: (x) => Int32Array.from({ length: x.length / 4 }, (_, i) => (score(x, 4 * i) >= 0.5 ? 1 : 0)),
    predictProba: (x) =>
      Float64Array.from({ length: x.length / 2 }, (_, k) => {
        const s = score(x, 4 * (k >> 1));
        return k % 2 ? s : 1 - s;
      }),
  };
  const labelsOnly: Classifier = { nFeatures: 4, nClasses: 2, predict: probabilities.predict };

  it('runs the -recommendations scans from predicted labels alone, as from P >= 0.5', async () => {
    for (const scanType of ['separation-recommendations', 'sufficiency-recommendations'] as const) {
      const options = { scanType, permutations: 9, iterations: 2, threshold: 0.5 };
      const withP = await cbs.run({ dataset, model: probabilities }, options, { seed: 2 });
      const withLabels = await cbs.run({ dataset, model: labelsOnly }, options, { seed: 2 });
      expect(withLabels.extras['predictions']).toBe('labels');
      expect(withP.extras['predictions']).toBe('probabilities');
      expect(withLabels.findings.subgroups).toEqual(withP.findings.subgroups);
      expect(withLabels.findings.subgroups.length).toBeGreaterThan(0);
    }
  });

  it('names the scan type when it needs probabilities the model does not give', async () => {
    for (const scanType of ['separation-predictions', 'sufficiency-predictions'] as const) {
      await expect(cbs.run({ dataset, model: labelsOnly }, { scanType }, { seed: 1 })).rejects.toMatchObject({
        name: 'ModelError',
        code: 'MODEL_MISMATCH',
        message: expect.stringContaining(`scanType "${scanType}"`),
      });
    }
    await expect(cbs.run({ dataset }, {}, { seed: 1 })).rejects.toMatchObject({ name: 'ModelError' });
  });

  it('rejects predictions of the wrong length or outside [0, 1] with typed errors', async () => {
    const resolved = cbs.resolveOptions({ permutations: 0 });
    const ctl = () => new RunController({ seed: 1 });
    await expect(conditionalBiasScan(dataset, p1.subarray(1), resolved, ctl())).rejects.toMatchObject({
      name: 'DataError',
      code: 'DATA_SHAPE',
    });
    const outside = Float64Array.from(p1);
    outside[7] = 1.5;
    await expect(conditionalBiasScan(dataset, outside, resolved, ctl())).rejects.toMatchObject({
      code: 'DATA_OUT_OF_DOMAIN',
      message: expect.stringContaining('row 7'),
    });
    outside[7] = Number.NaN;
    await expect(conditionalBiasScan(dataset, outside, resolved, ctl())).rejects.toMatchObject({
      code: 'DATA_NOT_FINITE',
    });
  });
});
