import { createDataset, createRng, DataError, defineSchema, Rng } from '@fb/core';
import { describe, expect, it } from 'vitest';
import {
  degree,
  discretise,
  extensionBound,
  fairNaiveBayes,
  findPatterns,
  fitNaiveBayes,
  kldScore,
  type NaiveBayes,
  type PatternMass,
  type Variable,
} from '../src/index.js';

const never = () => false;
const noPause = async () => {};

/** A random naive Bayes model over variables with the given arities and sensitivity. */
function randomModel(
  arity: number[],
  sensitive: boolean[],
  rng: Rng,
): { nb: NaiveBayes; variables: Variable[] } {
  const variables = arity.map((k, j) => ({
    attribute: `v${j}`,
    sensitive: sensitive[j]!,
    levels: Array.from({ length: k }, (_, l) => ({ attribute: `v${j}`, values: [l] })),
  }));
  const leaves = arity.map((k) => {
    const leaf = new Float64Array(k * 2);
    for (let dcl = 0; dcl < 2; dcl++) {
      const w = Array.from({ length: k }, () => 0.05 + rng.next());
      const s = w.reduce((a, b) => a + b, 0);
      w.forEach((v, l) => {
        leaf[l * 2 + dcl] = v / s;
      });
    }
    return leaf;
  });
  return { nb: { prior: 0.2 + 0.6 * rng.next(), leaves }, variables };
}

/** Every pattern of the model by enumeration: each variable skipped, in y, or (if sensitive) in x. */
function bruteForce(nb: NaiveBayes, variables: Variable[], delta: number) {
  const out: { diff: number; kld: number }[] = [];
  const v = variables.length;
  const walk = (j: number, m: PatternMass, xCount: number) => {
    if (j === v) {
      if (xCount === 0) return;
      const diff = degree(m);
      if (Math.abs(diff) > delta) out.push({ diff, kld: kldScore(m, delta) });
      return;
    }
    walk(j + 1, m, xCount);
    const leaf = nb.leaves[j]!;
    for (let l = 0; l < variables[j]!.levels.length; l++) {
      const [p0, p1] = [leaf[l * 2]!, leaf[l * 2 + 1]!];
      walk(j + 1, { xy0: m.xy0 * p0, xy1: m.xy1 * p1, y0: m.y0 * p0, y1: m.y1 * p1 }, xCount);
      if (variables[j]!.sensitive) walk(j + 1, { ...m, xy0: m.xy0 * p0, xy1: m.xy1 * p1 }, xCount + 1);
    }
  };
  walk(0, { xy0: 1 - nb.prior, xy1: nb.prior, y0: 1 - nb.prior, y1: nb.prior }, 0);
  return out;
}

describe('degree and KL score', () => {
  it('computes Delta by hand', () => {
    // P(d, x, y) = 0.06, P(not d, x, y) = 0.04: P(d | x, y) = 0.6; P(d | y) = 0.2 / 0.5 = 0.4.
    const m = { xy0: 0.04, xy1: 0.06, y0: 0.3, y1: 0.2 };
    expect(degree(m)).toBeCloseTo(0.2, 12);
  });

  it('computes the KL divergence to the nearest delta-fair distribution by hand', () => {
    const m = { xy0: 0.04, xy1: 0.06, y0: 0.3, y1: 0.2 };
    // Delta = 0.2 > delta = 0.1: q = (0.1 - 0.2) / (1/0.1 - 1/0.5) = -0.0125.
    const q = -0.0125;
    const expected = 0.06 * Math.log2(0.06 / (0.06 + q)) + 0.04 * Math.log2(0.04 / (0.04 - q));
    expect(kldScore(m, 0.1)).toBeCloseTo(expected, 12);
    // After moving q the pattern sits exactly on the edge: Delta' = 0.1.
    expect(degree({ xy0: 0.04 - q, xy1: 0.06 + q, y0: 0.3 - q, y1: 0.2 + q })).toBeCloseTo(0.1, 12);
    expect(kldScore(m, 0.25)).toBe(0);
  });
});

describe('branch and bound', () => {
  it('bounds |Delta| of every extension (checked on random models)', () => {
    const rng = Rng.create(11);
    for (let trial = 0; trial < 30; trial++) {
      const { nb, variables } = randomModel([2, 3, 2, 2], [true, false, true, false], rng);
      // Root pattern: no variables. Its bound must cover every pattern.
      const patterns = bruteForce(nb, variables, 0);
      const top = Math.max(...patterns.map((p) => Math.abs(p.diff)));
      const ratios = (only: boolean) => {
        const up = new Float64Array(5).fill(1);
        const down = new Float64Array(5).fill(1);
        for (let j = 3; j >= 0; j--) {
          let hi = 1;
          let lo = 1;
          if (!only || variables[j]!.sensitive) {
            const leaf = nb.leaves[j]!;
            for (let l = 0; l < leaf.length / 2; l++) {
              hi = Math.max(hi, leaf[l * 2 + 1]! / leaf[l * 2]!);
              lo = Math.min(lo, leaf[l * 2 + 1]! / leaf[l * 2]!);
            }
          }
          up[j] = up[j + 1]! * hi;
          down[j] = down[j + 1]! * lo;
        }
        return { up, down };
      };
      const root = { xy0: 1 - nb.prior, xy1: nb.prior, y0: 1 - nb.prior, y1: nb.prior };
      expect(extensionBound(root, 0, ratios(false), ratios(true))).toBeGreaterThanOrEqual(top - 1e-12);
    }
  });

  for (const ranking of ['diff', 'kld'] as const) {
    it(`finds the same top-k as brute force (${ranking})`, async () => {
      const rng = Rng.create(ranking === 'diff' ? 5 : 6);
      for (let trial = 0; trial < 20; trial++) {
        const { nb, variables } = randomModel([2, 3, 2, 2, 3], [true, true, false, false, false], rng);
        const delta = 0.02;
        const k = 7;
        const brute = bruteForce(nb, variables, delta)
          .map((p) => (ranking === 'diff' ? Math.abs(p.diff) : p.kld))
          .sort((a, b) => b - a)
          .slice(0, k);
        const found = await findPatterns(nb, variables, { ranking, delta, k }, never, noPause);
        expect(found.complete).toBe(true);
        expect(found.patterns.map((p) => p.score)).toHaveLength(brute.length);
        found.patterns.forEach((p, i) => {
          expect(p.score).toBeCloseTo(brute[i]!, 12);
        });
        if (ranking === 'diff') expect(found.pruned).toBeGreaterThan(0);
      }
    });
  }
});

describe('the search stops on time on large data', () => {
  it('polls its stop by rows scanned, not only by nodes: a few nodes over many rows are checked', async () => {
    // 5 variables over 300,000 rows: a few hundred nodes, each child's support filter scanning up
    // to every row, millions of rows in all (polling every 4,096 nodes never polled here).
    const rng = Rng.create(3);
    const { nb, variables } = randomModel([2, 3, 2, 2, 3], [true, true, false, false, false], rng);
    const n = 300_000;
    const v = variables.length;
    const codes = new Int32Array(n * v);
    for (let i = 0; i < n * v; i++) codes[i] = Math.floor(rng.next() * variables[i % v]!.levels.length);
    let polls = 0;
    const found = await findPatterns(
      nb,
      variables,
      { ranking: 'diff', delta: 0.0, k: 1000, support: { codes, minRows: 1 } },
      () => {
        polls++;
        return true;
      },
      noPause,
    );
    expect(polls).toBe(1);
    expect(found.complete).toBe(false);
  });
});

describe('naive Bayes fit and discretisation', () => {
  it('learns the class prior from counts (not swapped) and smoothed leaves', () => {
    const variables: Variable[] = [
      {
        attribute: 'a',
        sensitive: true,
        levels: [
          { attribute: 'a', values: [0] },
          { attribute: 'a', values: [1] },
        ],
      },
    ];
    // Three positives, one negative; a = 1 on two positives.
    const codes = Int32Array.from([1, 1, 0, 0]);
    const decision = Uint8Array.from([1, 1, 1, 0]);
    const nb = fitNaiveBayes(variables, codes, decision, 0);
    expect(nb.prior).toBe(0.75);
    expect(Array.from(nb.leaves[0]!)).toEqual([1, 1 / 3, 0, 2 / 3]);
    const smoothed = fitNaiveBayes(variables, codes, decision, 1);
    expect(smoothed.leaves[0]![3]).toBeCloseTo(3 / 5, 12);
    expect(() => fitNaiveBayes(variables, codes, new Uint8Array(4), 1)).toThrow(DataError);
  });

  it('keeps small discrete attributes and median-splits continuous ones', () => {
    const schema = defineSchema({
      attributes: [
        { name: 's', kind: 'categorical', protected: true, categories: ['a', 'b', 'c'] },
        { name: 'u', kind: 'continuous', protected: false, min: 0, max: 10 },
      ],
      outcome: { name: 'y', labels: ['0', '1'], favorable: 1 },
    });
    const x = Float64Array.from([0, 1, 2, 2, 0, 3, 2, 9]);
    const ds = createDataset({ schema, x, y: Int32Array.from([0, 1, 0, 1]) });
    const { variables, codes } = discretise(ds, 12, 2);
    expect(variables[0]!.levels).toEqual([
      { attribute: 's', values: [0] },
      { attribute: 's', values: [2] },
    ]);
    expect(variables[1]!.levels).toEqual([
      { attribute: 'u', min: 1, max: 3, maxInclusive: false },
      { attribute: 'u', min: 3, max: 9, maxInclusive: true },
    ]);
    expect(Array.from(codes)).toEqual([0, 0, 1, 0, 0, 1, 1, 1]);
  });
});

describe('fairNaiveBayes detector', () => {
  const schema = defineSchema({
    attributes: [
      { name: 'sex', kind: 'categorical', protected: true, categories: ['m', 'f'] },
      { name: 'job', kind: 'categorical', protected: false, categories: ['a', 'b', 'c'] },
      { name: 'edu', kind: 'categorical', protected: false, categories: ['lo', 'hi'] },
    ],
    outcome: { name: 'hired', labels: ['no', 'yes'], favorable: 1 },
  });

  function data(biased: boolean, seed: number) {
    const rng = createRng(seed);
    const n = 4000;
    const x = new Float64Array(n * 3);
    const y = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      const [sex, job, edu] = [rng.int(0, 1), rng.int(0, 2), rng.int(0, 1)];
      x.set([sex, job, edu], i * 3);
      let p = 0.3 + 0.3 * edu + (job === 2 ? 0.1 : 0);
      if (biased && sex === 1) p -= 0.25;
      y[i] = rng.bernoulli(p) ? 1 : 0;
    }
    return createDataset({ schema, x, y });
  }

  it('finds a planted sex effect as the top pattern, with members that show it', async () => {
    const r = await fairNaiveBayes.run({ dataset: data(true, 1) }, { k: 3 }, { seed: 1 });
    if (r.findings.kind !== 'subgroup') throw new Error('expected subgroups');
    const top = r.findings.subgroups[0]!;
    expect(top.conditions).toContainEqual({ attribute: 'sex', values: [1] });
    expect(top.direction).toBe('lower');
    expect(top.effect!).toBeLessThan(-0.1);
    expect(top.details.observedRate as number).toBeLessThan(top.details.observedContextRate as number);
  });

  it('finds no pattern above delta when the outcome ignores sex', async () => {
    const r = await fairNaiveBayes.run({ dataset: data(false, 2) }, { delta: 0.05 }, { seed: 1 });
    expect(r.metrics.dsn).toBe(0);
    expect(r.extras.complete).toBe(true);
  });
});

describe('variables and support', () => {
  // race (6 categories, protected), region (5 categories), flag (constant), score (ordinal 0..9). Race
  // e never occurs with region 4, and labels favour region 4 and disfavour race e: the naive Bayes
  // model then ranks "race e in region 4", which describes no one, among its strongest patterns.
  const schema = defineSchema({
    attributes: [
      { name: 'race', kind: 'categorical', protected: true, categories: ['a', 'b', 'c', 'd', 'e', 'f'] },
      { name: 'region', kind: 'categorical', protected: false, categories: ['r0', 'r1', 'r2', 'r3', 'r4'] },
      { name: 'flag', kind: 'categorical', protected: false, categories: ['off', 'on'] },
      { name: 'score', kind: 'ordinal', protected: false, min: 0, max: 9, step: 1 },
    ],
    outcome: { name: 'o', labels: ['no', 'yes'], favorable: 1 },
  });
  function data(n: number) {
    const rng = createRng('fnb-support');
    const x: number[] = [];
    const y: number[] = [];
    for (let i = 0; i < n; i++) {
      const race = rng.int(0, 5);
      const region = race === 4 ? rng.int(0, 3) : rng.int(0, 4);
      x.push(race, region, 0, rng.int(0, 9));
      y.push(rng.bernoulli(0.3 + (region === 4 ? 0.5 : 0) - (race === 4 ? 0.25 : 0)) ? 1 : 0);
    }
    return createDataset({ schema, x, y });
  }

  it('keeps one level per category of a many-valued categorical and drops single-level variables', () => {
    const { variables, dropped } = discretise(data(600), 4, 2);
    const race = variables.find((v) => v.attribute === 'race')!;
    expect(race.levels).toEqual([0, 1, 2, 3, 4, 5].map((v) => ({ attribute: 'race', values: [v] })));
    expect(variables.map((v) => v.attribute)).not.toContain('flag');
    expect(dropped).toEqual(['flag']);
  });

  it('reports only patterns matching at least minSupport of the rows', async () => {
    const dataset = data(2000);
    const loose = await fairNaiveBayes.run({ dataset }, { k: 20, minSupport: 0 });
    const subgroups = (r: typeof loose) => (r.findings.kind === 'subgroup' ? r.findings.subgroups : []);
    // Without a minimum, patterns that describe no row are reported.
    expect(subgroups(loose).some((s) => s.size === 0)).toBe(true);
    const strict = await fairNaiveBayes.run({ dataset }, { k: 20 });
    expect(subgroups(strict).length).toBeGreaterThan(0);
    for (const s of subgroups(strict)) expect(s.size).toBeGreaterThanOrEqual(20);
  });

  it('never reports more patterns than rows', async () => {
    const result = await fairNaiveBayes.run({ dataset: data(12) }, { k: 50, minSupport: 0, delta: 0 });
    expect(result.metrics.dsn).toBeLessThanOrEqual(12);
    expect(result.metrics.sur).toBeLessThanOrEqual(1);
  });
});
