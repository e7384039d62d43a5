import { type Classifier, createDataset, createRng, defineSchema, OptionsError, Rng } from '@fb/core';
import { describe, expect, it } from 'vitest';
import {
  adaptiveEpsilon,
  combine,
  GroupPopulation,
  judge,
  mutualInformation,
  verifair,
  verifyPair,
} from '../src/index.js';

describe('adaptive concentration bound', () => {
  it('matches the formula at hand-picked points', () => {
    // delta = 24 e^{-1.8} makes b = 1; at n = 1 the log-log term vanishes: epsilon = 1.
    const delta = 24 * Math.exp(-1.8);
    expect(adaptiveEpsilon(1, delta)).toBeCloseTo(1, 12);
    // n = 1.1^(e - 1) makes log_1.1(n) + 1 = e, so the log term is 0.6: epsilon = sqrt(1.6 / n).
    const n = 1.1 ** (Math.E - 1);
    expect(adaptiveEpsilon(n, delta)).toBeCloseTo(Math.sqrt(1.6 / n), 12);
  });

  it('shrinks with n and widens as delta falls', () => {
    expect(adaptiveEpsilon(10_000, 1e-10)).toBeLessThan(adaptiveEpsilon(1_000, 1e-10));
    expect(adaptiveEpsilon(1_000, 1e-10)).toBeGreaterThan(adaptiveEpsilon(1_000, 1e-2));
  });
});

describe('judge', () => {
  const delta = 24 * Math.exp(-1.8); // b = 1, epsilon(1) = 1
  it('waits while the comparison group mean is within epsilon of 0', () => {
    expect(judge(1, 0.5, 0.9, 0.15, 0, delta, false)).toBeNull();
  });

  it('computes the difference form: E = a - b + c, epsilon doubled', () => {
    const n = 1e6;
    const eps = adaptiveEpsilon(n, delta);
    const j = judge(n, 0.3, 0.5, 0.15, 0, delta, true)!;
    expect(j.estimate).toBeCloseTo(-0.05, 12);
    expect(j.epsilon).toBeCloseTo(2 * eps, 12);
    expect(j.verdict).toBe('unfair');
  });

  it('computes the ratio form and its propagated epsilon', () => {
    const n = 1e6;
    const e = adaptiveEpsilon(n, delta);
    const j = judge(n, 0.4, 0.5, 0.15, 0, delta, false)!;
    expect(j.estimate).toBeCloseTo(0.4 / 0.5 - 0.85, 12);
    expect(j.epsilon).toBeCloseTo(e / 0.5 + (e * (e + 0.4)) / (0.5 * (0.5 - e)), 12);
    expect(j.verdict).toBe('unfair');
    expect(judge(n, 0.5, 0.5, 0.15, 0, delta, false)!.verdict).toBe('fair');
  });

  it('gives ambiguous verdicts only within Delta', () => {
    // E = 0 exactly: never certain; with Delta wider than epsilon it is ambiguous-fair.
    const n = 1e6;
    expect(judge(n, 0.425, 0.5, 0.15, 0, delta, false)).toBeNull();
    expect(judge(n, 0.425, 0.5, 0.15, 0.1, delta, false)!.verdict).toBe('ambiguous-fair');
  });
});

describe('combine', () => {
  const fair = { verdict: 'fair' as const, estimate: 0.2, epsilon: 0.01 };
  const unfair = { verdict: 'unfair' as const, estimate: -0.2, epsilon: 0.01 };
  it('is unfair as soon as one direction is, naming the disadvantaged side', () => {
    expect(combine(null, unfair)).toMatchObject({ verdict: 'unfair', disadvantaged: 'b' });
    expect(combine(unfair, null)).toMatchObject({ verdict: 'unfair', disadvantaged: 'a' });
  });
  it('waits for both directions before calling a pair fair', () => {
    expect(combine(fair, null)).toBeNull();
    expect(combine(fair, { ...fair, estimate: 0.05 })).toMatchObject({
      verdict: 'fair',
      disadvantaged: null,
      estimate: 0.05,
    });
  });
});

/** Bernoulli draws with success probability p, from a seeded generator. */
function bernoulli(p: number, rng: Rng) {
  return (k: number) => {
    let s = 0;
    for (let i = 0; i < k; i++) if (rng.next() < p) s++;
    return s;
  };
}
const never = async () => false;
const settings = { c: 0.15, ambiguity: 0, delta: 1e-10, difference: false, batchSize: 1000, maxSamples: 1e7 };

describe('verifyPair', () => {
  it('finds the disadvantaged group of a clear gap, in either order', async () => {
    const rng = Rng.create(1);
    const ab = await verifyPair(
      bernoulli(0.3, rng.fork('a')),
      bernoulli(0.5, rng.fork('b')),
      settings,
      never,
    );
    expect(ab).toMatchObject({ verdict: 'unfair', disadvantaged: 'a', stoppedBy: 'verdict' });
    const ba = await verifyPair(
      bernoulli(0.5, rng.fork('c')),
      bernoulli(0.3, rng.fork('d')),
      settings,
      never,
    );
    expect(ba).toMatchObject({ verdict: 'unfair', disadvantaged: 'b' });
  });

  it('calls equal rates fair', async () => {
    const rng = Rng.create(2);
    const r = await verifyPair(bernoulli(0.5, rng.fork('a')), bernoulli(0.5, rng.fork('b')), settings, never);
    expect(r.verdict).toBe('fair');
    expect(Math.abs(r.rateA - 0.5)).toBeLessThan(0.02);
  });

  it('gives up at maxSamples when the truth sits on the threshold', async () => {
    const rng = Rng.create(3);
    const r = await verifyPair(
      bernoulli(0.425, rng.fork('a')),
      bernoulli(0.5, rng.fork('b')),
      { ...settings, maxSamples: 20_000 },
      never,
    );
    expect(r).toMatchObject({ verdict: 'undecided', stoppedBy: 'max-samples', samples: 20_000 });
  });

  it('stops between batches when asked', async () => {
    let looks = 0;
    const rng = Rng.create(4);
    const r = await verifyPair(
      bernoulli(0.425, rng.fork('a')),
      bernoulli(0.5, rng.fork('b')),
      settings,
      async () => ++looks >= 3,
    );
    expect(r).toMatchObject({ verdict: 'undecided', stoppedBy: 'budget', samples: 3000 });
  });

  it('keeps its error rate under 2 delta over many seeded runs near the threshold', async () => {
    // True ratio 0.80 < 0.85: unfair. A loose delta = 0.1 allows up to 20% wrong verdicts.
    const s = { ...settings, delta: 0.1, batchSize: 50 };
    let wrong = 0;
    const runs = 300;
    for (let seed = 0; seed < runs; seed++) {
      const rng = Rng.create(seed);
      const r = await verifyPair(bernoulli(0.4, rng.fork('a')), bernoulli(0.5, rng.fork('b')), s, never);
      if (r.verdict === 'fair' || r.verdict === 'ambiguous-fair' || r.disadvantaged === 'b') wrong++;
    }
    expect(wrong / runs).toBeLessThanOrEqual(2 * s.delta);
  });
});

describe('mutualInformation', () => {
  it('is log 2 for two identical fair coins and 0 for independent ones', () => {
    expect(mutualInformation(Int32Array.from([0, 1, 0, 1]), 2, Int32Array.from([0, 1, 0, 1]), 2)).toBeCloseTo(
      Math.log(2),
      12,
    );
    expect(mutualInformation(Int32Array.from([0, 0, 1, 1]), 2, Int32Array.from([0, 1, 0, 1]), 2)).toBeCloseTo(
      0,
      12,
    );
  });
});

const schema = defineSchema({
  attributes: [
    { name: 'group', kind: 'categorical', protected: true, categories: ['g0', 'g1', 'g2'] },
    { name: 'sex', kind: 'categorical', protected: true, categories: ['m', 'f'] },
    { name: 'u', kind: 'continuous', protected: false, min: 0, max: 1 },
  ],
  outcome: { name: 'y', labels: ['no', 'yes'], favorable: 1 },
});

/** Favourable iff u < threshold of the row's group; blind to sex. */
class GroupThresholdModel implements Classifier {
  readonly nFeatures = 3;
  readonly nClasses = 2;
  constructor(private readonly thresholds: number[]) {}
  predict(x: Float64Array): Int32Array {
    const out = new Int32Array(x.length / 3);
    for (let i = 0; i < out.length; i++) out[i] = x[i * 3 + 2]! < this.thresholds[x[i * 3]!]! ? 1 : 0;
    return out;
  }
}

function data(n: number, seed: number, labelFrom?: Classifier) {
  const rng = createRng(seed);
  const x = new Float64Array(n * 3);
  for (let i = 0; i < n; i++) {
    x[i * 3] = i % 3;
    x[i * 3 + 1] = rng.int(0, 1);
    x[i * 3 + 2] = rng.uniform(0, 1);
  }
  const y = labelFrom ? labelFrom.predict(x) : Int32Array.from({ length: n }, (_, i) => i % 2);
  return createDataset({ schema, x, y });
}

/** The exact favourable rate of the model on one group's rows: the empirical population's mean. */
function exactRate(model: Classifier, ds: ReturnType<typeof data>, g: number): number {
  const rows = [];
  for (let i = 0; i < ds.n; i++) if (ds.x[i * 3] === g) rows.push(...ds.x.subarray(i * 3, i * 3 + 3));
  const p = model.predict(Float64Array.from(rows));
  return p.reduce((t, v) => t + v, 0) / p.length;
}

describe('verifair detector', () => {
  it('agrees with the exact population rates on a model with known parity gaps', async () => {
    const model = new GroupThresholdModel([0.5, 0.3, 0.48]);
    const ds = data(3000, 5);
    const rates = [0, 1, 2].map((g) => exactRate(model, ds, g));
    const r = await verifair.run({ dataset: ds, model }, { delta: 1e-6, attributes: ['group'] }, { seed: 1 });
    const verdicts = r.extras.verdicts as { a: string; b: string; verdict: string }[];
    expect(verdicts).toHaveLength(3);
    for (const v of verdicts) {
      const [ra, rb] = [rates[Number(v.a[1])]!, rates[Number(v.b[1])]!];
      const expected = Math.min(ra, rb) / Math.max(ra, rb) < 0.85 ? 'unfair' : 'fair';
      expect(v.verdict).toBe(expected);
    }
    // g1 (threshold 0.3) is disadvantaged against g0 and g2: one finding, naming both, with the figures
    // of its larger gap (against g0's 0.5).
    expect(r.findings.kind).toBe('subgroup');
    if (r.findings.kind !== 'subgroup') return;
    expect(r.findings.subgroups).toHaveLength(1);
    const [s] = r.findings.subgroups;
    expect(s!.conditions).toEqual([{ attribute: 'group', values: [1] }]);
    expect(s!.size).toBe(1000);
    expect(s!.details).toMatchObject({ comparedWith: 'g0', unfairPairs: 2, comparedWithAll: 'g0, g2' });
    expect(s!.effect!).toBeCloseTo(rates[1]! - rates[0]!, 1);
    expect(r.metrics.dsn).toBe(1);
  });

  it('finds nothing when the model ignores the protected attributes', async () => {
    const model = new GroupThresholdModel([0.5, 0.5, 0.5]);
    const r = await verifair.run({ dataset: data(3000, 6), model }, { delta: 1e-6 }, { seed: 2 });
    expect(r.metrics.dsn).toBe(0);
    expect((r.extras.verdicts as { verdict: string }[]).every((v) => v.verdict === 'fair')).toBe(true);
  });

  it('verifies the attributes most informative about the outcome first', async () => {
    const model = new GroupThresholdModel([0.8, 0.2, 0.5]);
    const r = await verifair.run({ dataset: data(900, 7, model), model }, { delta: 1e-3 }, { seed: 3 });
    const order = r.extras.attributeOrder as { attribute: string; mutualInformation: number }[];
    expect(order.map((o) => o.attribute)).toEqual(['group', 'sex']);
    expect(order[0]!.mutualInformation).toBeGreaterThan(order[1]!.mutualInformation);
  });

  it('draws in empirical mode the rows fill copies, and asks the model about each row once', async () => {
    const ds = data(3000, 8);
    const group = Int32Array.from({ length: 400 }, (_, i) => 7 * i);
    const rows = new Int32Array(5000);
    new GroupPopulation(ds, group, 'empirical', Rng.create('pop')).drawRows(5000, rows);
    const copied = new Float64Array(5000 * 3);
    new GroupPopulation(ds, group, 'empirical', Rng.create('pop')).fill(5000, copied);
    for (let i = 0; i < 5000; i++)
      expect(Array.from(copied.subarray(i * 3, i * 3 + 3))).toEqual(
        Array.from(ds.x.subarray(rows[i]! * 3, rows[i]! * 3 + 3)),
      );

    // A run draws far more than the 3000 rows (undecided pairs draw maxSamples each): every row reaches
    // the model at most once, and the rates are still those of the groups' rows.
    const inner = new GroupThresholdModel([0.5, 0.44, 0.47]);
    const asked: string[] = [];
    const counting: Classifier = {
      nFeatures: 3,
      nClasses: 2,
      predict(z) {
        for (let i = 0; i < z.length / 3; i++) asked.push(Array.from(z.subarray(i * 3, i * 3 + 3)).join(','));
        return inner.predict(z);
      },
    };
    const r = await verifair.run(
      { dataset: ds, model: counting },
      { delta: 1e-6, maxSamples: 30_000, attributes: ['group'] },
      { seed: 9 },
    );
    expect(r.extras.samples as number).toBeGreaterThan(10 * ds.n);
    expect(asked.length).toBeLessThanOrEqual(ds.n);
    expect(new Set(asked).size).toBe(asked.length);
    const rates = [0, 1, 2].map((g) => exactRate(inner, ds, g));
    for (const v of r.extras.verdicts as {
      a: string;
      b: string;
      rateA: number;
      rateB: number;
      samples: number;
    }[]) {
      // Binomial sd at these sample sizes is below 0.01.
      expect(Math.abs(v.rateA - rates[Number(v.a[1])]!)).toBeLessThan(0.04);
      expect(Math.abs(v.rateB - rates[Number(v.b[1])]!)).toBeLessThan(0.04);
    }
  });

  it('samples the product of marginals in independent mode', async () => {
    // Rows (u, v) are (0.1, g0-threshold 0.5) ...: favourable iff u < 0.5 holds for half of the rows;
    // with whole rows the rate is the rows' rate, with independent columns it is the same for u alone,
    // so compare a model whose decision needs two columns together.
    const s2 = defineSchema({
      attributes: [
        { name: 'g', kind: 'categorical', protected: true, categories: ['a', 'b'] },
        { name: 'u', kind: 'ordinal', protected: false, min: 0, max: 1, step: 1 },
        { name: 'v', kind: 'ordinal', protected: false, min: 0, max: 1, step: 1 },
      ],
      outcome: { name: 'y', labels: ['no', 'yes'], favorable: 1 },
    });
    // Group a: u == v on every row; group b: u != v. Model: favourable iff u == v.
    const rows = [0, 0, 0, 0, 1, 1, 1, 0, 1, 1, 1, 0];
    const x = new Float64Array(Array.from({ length: 50 }, () => rows).flat());
    const ds = createDataset({ schema: s2, x, y: Int32Array.from({ length: 200 }, (_, i) => i % 2) });
    const same: Classifier = {
      nFeatures: 3,
      nClasses: 2,
      predict: (z) =>
        Int32Array.from({ length: z.length / 3 }, (_, i) => (z[i * 3 + 1] === z[i * 3 + 2] ? 1 : 0)),
    };
    const opts = { delta: 1e-3, c: 0.05, maxSamples: 20_000 };
    const emp = await verifair.run(
      { dataset: ds, model: same },
      { ...opts, population: 'empirical' },
      { seed: 4 },
    );
    const ind = await verifair.run(
      { dataset: ds, model: same },
      { ...opts, population: 'independent' },
      { seed: 4 },
    );
    const [e] = emp.extras.verdicts as { rateA: number; rateB: number }[];
    const [i] = ind.extras.verdicts as { rateA: number; rateB: number }[];
    expect(e!.rateA).toBe(1);
    expect(e!.rateB).toBe(0);
    expect(Math.abs(i!.rateA - 0.5)).toBeLessThan(0.03);
    expect(Math.abs(i!.rateB - 0.5)).toBeLessThan(0.03);
  });

  it('rejects an attribute that is not protected', async () => {
    const model = new GroupThresholdModel([0.5, 0.5, 0.5]);
    await expect(verifair.run({ dataset: data(30, 8), model }, { attributes: ['u'] })).rejects.toBeInstanceOf(
      OptionsError,
    );
  });
});
