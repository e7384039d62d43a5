import {
  type Classifier,
  createDataset,
  createRng,
  DataError,
  type DiscoveryResult,
  defineSchema,
  OptionsError,
  reproducibleView,
} from '@fb/core';
import { describe, expect, it } from 'vitest';
import type { TransparencyReport } from '../src/index.js';
import { fliptest } from '../src/index.js';

const schema = defineSchema({
  attributes: [
    { name: 'sex', kind: 'categorical', protected: true, categories: ['f', 'm'] },
    { name: 'a', kind: 'ordinal', protected: false, min: 0, max: 99, step: 1 },
    { name: 'b', kind: 'ordinal', protected: false, min: 0, max: 29, step: 1 },
    { name: 'colour', kind: 'categorical', protected: false, categories: ['r', 'g', 'b'] },
  ],
  outcome: { name: 'y', labels: ['no', 'yes'], favorable: 1 },
});

function modelOf(rule: (r: Float64Array) => number): Classifier {
  return {
    nFeatures: 4,
    nClasses: 2,
    predict(x) {
      const out = new Int32Array(x.length / 4);
      for (let i = 0; i < out.length; i++) out[i] = rule(x.subarray(4 * i, 4 * i + 4));
      return out;
    },
  };
}

/** Women and men drawn from the same distribution, except that men's b is shifted by `bShift`. */
function population(perGroup: number, bShift = 0, seed = 'fliptest') {
  const rng = createRng(seed);
  const x: number[] = [];
  for (let sex = 0; sex <= 1; sex++)
    for (let i = 0; i < perGroup; i++)
      x.push(sex, rng.int(0, 99), Math.min(29, rng.int(0, 19) + sex * bShift), rng.int(0, 2));
  const y = Array.from({ length: 2 * perGroup }, (_, i) => i % 2);
  return createDataset({ schema, x, y, name: 'population' });
}

/** Approves a > 50, except in the planted region 20 <= a <= 40, where it approves men only. */
const inRegion = (r: ArrayLike<number>) => r[1]! >= 20 && r[1]! <= 40;
const planted = modelOf((r) => (inRegion(r) ? (r[0] === 1 ? 1 : 0) : r[1]! > 50 ? 1 : 0));
const blind = modelOf((r) => (r[1]! > 50 ? 1 : 0));

interface Member {
  sourceRow: number;
  counterpart: number[];
  sampleOutcome: number;
  counterpartOutcome: number;
  directlyDiscriminatory: boolean;
}
interface Extras {
  attribute: string;
  sourceValue: number;
  targetValue: number;
  transport: string;
  meanCost: number;
  counterpartRows?: number[];
  sinkhorn?: { iterations: number; marginalError: number; planCost: number };
  flipset: { positive: Member[]; negative: Member[] };
  report: { positive: TransparencyReport; negative: TransparencyReport };
  completed: boolean;
}
/** The extras of the run's first (here: only) attribute. */
const extrasOf = (r: DiscoveryResult) => (r.extras as unknown as { attributes: Extras[] }).attributes[0]!;

/** Squared L1 cost of standardised rows (excluding sex), recomputed independently. */
function standardized(rows: number[][]): number[][] {
  const cols = [1, 2, 3];
  const means = cols.map((j) => rows.reduce((s, r) => s + r[j]!, 0) / rows.length);
  const sds = cols.map(
    (j, k) => Math.sqrt(rows.reduce((s, r) => s + (r[j]! - means[k]!) ** 2, 0) / rows.length) || 1,
  );
  return rows.map((r) => cols.map((j, k) => (r[j]! - means[k]!) / sds[k]!));
}
const cost = (p: number[], q: number[]) => p.reduce((s, v, k) => s + Math.abs(v - q[k]!), 0) ** 2;

describe('fliptest exact map', () => {
  it('is the minimum-cost one-to-one map (brute force over all permutations)', async () => {
    for (const seed of ['t1', 't2', 't3']) {
      const dataset = population(6, 3, seed);
      const result = await fliptest.run({ dataset, model: planted }, {}, { seed: 1 });
      const x = extrasOf(result);
      expect(x.transport).toBe('exact');
      const rows = Array.from({ length: 12 }, (_, i) => Array.from(dataset.x.subarray(4 * i, 4 * i + 4)));
      const z = standardized(rows);
      const women = [0, 1, 2, 3, 4, 5];
      const men = [6, 7, 8, 9, 10, 11];
      let best = Number.POSITIVE_INFINITY;
      const permute = (k: number, used: Set<number>, acc: number): void => {
        if (k === 6) {
          best = Math.min(best, acc);
          return;
        }
        for (const m of men) {
          if (used.has(m)) continue;
          used.add(m);
          permute(k + 1, used, acc + cost(z[women[k]!]!, z[m]!));
          used.delete(m);
        }
      };
      permute(0, new Set(), 0);
      expect(x.meanCost * 6).toBeCloseTo(best, 9);
      // The map is one-to-one onto the men.
      expect(new Set(x.counterpartRows).size).toBe(6);
      for (const r of x.counterpartRows!) expect(r).toBeGreaterThanOrEqual(6);
    }
  });
});

describe('fliptest flipsets', () => {
  const dataset = population(300);

  it('puts the planted region into F- and finds its members directly discriminatory', async () => {
    const result = await fliptest.run({ dataset, model: planted }, {}, { seed: 2 });
    const x = extrasOf(result);
    expect(x.completed).toBe(true);
    expect(x.attribute).toBe('sex');
    expect([x.sourceValue, x.targetValue]).toEqual([0, 1]);
    const { positive, negative } = x.flipset;
    // About 21 % of women fall in the region and are refused there while a similar man is approved.
    expect(negative.length).toBeGreaterThan(40);
    const inside = negative.filter((m) => inRegion(dataset.x.subarray(4 * m.sourceRow, 4 * m.sourceRow + 4)));
    let regionWomen = 0;
    for (let i = 0; i < 300; i++) if (inRegion(dataset.x.subarray(4 * i, 4 * i + 4))) regionWomen++;
    // Most women of the region flip; the rest of F- are boundary mismatches near a = 50, which also
    // flip the other way (F+), so F- outside the region is about as large as F+.
    expect(inside.length).toBeGreaterThan(0.7 * regionWomen);
    expect(inside.length / negative.length).toBeGreaterThan(0.6);
    expect(positive.length).toBeLessThan(negative.length / 4);
    for (const m of negative) {
      expect([m.sampleOutcome, m.counterpartOutcome]).toEqual([0, 1]);
      expect(m.counterpart[0]).toBe(1);
      expect(planted.predict(Float64Array.from(m.counterpart))[0]).toBe(1);
    }
    // TSN and DSN are the flipsets' (seed 000): every woman is mapped, and each member of F+ or F- is
    // one flipping pair.
    expect(result.metrics.tsn).toBe(300);
    expect(result.metrics.dsn).toBe(positive.length + negative.length);
    expect(result.metrics.pairs).toBe(result.metrics.dsn);
    expect(result.metrics.sur).toBeCloseTo(result.metrics.dsn / 300, 12);
    // The contract's pairs are the direct counterfactual checks of the women: exactly the region.
    const keys = new Set<string>();
    for (let i = 0; i < 300; i++) keys.add(Array.from(dataset.x.subarray(4 * i + 1, 4 * i + 4)).join());
    const direct = (result.extras as { direct: { tsn: number; pairs: number } }).direct;
    expect(direct.tsn).toBe(keys.size);
    if (result.findings.kind !== 'individual') throw new Error('individual findings expected');
    for (const p of result.findings.pairs) expect(inRegion(p.sample)).toBe(true);
    expect(inside.every((m) => m.directlyDiscriminatory)).toBe(true);
  });

  it('uses the model decisions, never the dataset labels', async () => {
    const relabelled = createDataset({
      schema,
      x: dataset.x,
      y: Int32Array.from(dataset.y, (v) => 1 - v),
    });
    const a = extrasOf(await fliptest.run({ dataset, model: planted }, {}, { seed: 3 }));
    const b = extrasOf(await fliptest.run({ dataset: relabelled, model: planted }, {}, { seed: 3 }));
    expect(b.flipset).toEqual(a.flipset);
  });

  it('finds no direct discrimination and balanced, small flipsets for a blind model', async () => {
    const result = await fliptest.run({ dataset, model: blind }, {}, { seed: 4 });
    const x = extrasOf(result);
    expect((result.extras as { direct: { dsn: number } }).direct.dsn).toBe(0);
    expect(result.findings.kind === 'individual' && result.findings.pairs.length).toBe(0);
    expect(result.metrics.dsn).toBe(x.flipset.negative.length + x.flipset.positive.length);
    expect(result.metrics.dsn).toBeLessThan(30);
  });
});

describe('fliptest transparency report', () => {
  it('ranks first the feature that differs between the groups and drives the flips', async () => {
    // Men have b shifted up by 8; the model approves b >= 12 for everyone.
    const dataset = population(300, 8);
    const model = modelOf((r) => (r[2]! >= 12 ? 1 : 0));
    const result = await fliptest.run({ dataset, model }, {}, { seed: 5 });
    const { negative } = extrasOf(result).report;
    expect(negative.size).toBeGreaterThan(50);
    expect(negative.byMeanChange[0]!.attribute).toBe('b');
    expect(negative.byMeanChange[0]!.meanChange).toBeLessThan(-3);
    expect(negative.bySign[0]!.attribute).toBe('b');
    expect(negative.bySign[0]!.meanSign).toBe(-1);
    // Categorical features report the share changed and no sign.
    const colour = negative.byMeanChange.find((c) => c.attribute === 'colour')!;
    expect(colour.meanSign).toBeNull();
    expect(colour.meanChange).toBeGreaterThanOrEqual(0);
    expect(colour.meanChange).toBeLessThanOrEqual(1);
    expect(negative.bySign.some((c) => c.attribute === 'colour')).toBe(false);
  });
});

describe('fliptest entropic map', () => {
  it('converges and approximates the exact map on a shifted population', async () => {
    const dataset = population(200, 8);
    const model = modelOf((r) => (r[2]! >= 12 ? 1 : 0));
    const exact = extrasOf(await fliptest.run({ dataset, model }, {}, { seed: 6 }));
    const result = await fliptest.run({ dataset, model }, { transport: 'entropic' }, { seed: 6 });
    const approx = extrasOf(result);
    expect(approx.transport).toBe('entropic');
    expect(approx.sinkhorn!.marginalError).toBeLessThanOrEqual(1e-6);
    // Exact OT is the cheapest coupling: the entropic plan costs more, but not by much at small epsilon.
    expect(approx.sinkhorn!.planCost).toBeGreaterThanOrEqual(exact.meanCost * (1 - 1e-4));
    expect(approx.sinkhorn!.planCost).toBeLessThan(exact.meanCost * 1.5);
    // Barycentric counterparts average the plan, so their cost is close to the exact one.
    expect(Math.abs(approx.meanCost - exact.meanCost) / exact.meanCost).toBeLessThan(0.5);
    expect(approx.flipset.negative.length).toBeGreaterThan(0.5 * exact.flipset.negative.length);
    for (const m of approx.flipset.negative) {
      expect(m.counterpart[0]).toBe(1);
      expect(Number.isInteger(m.counterpart[1]) && Number.isInteger(m.counterpart[3])).toBe(true);
    }
  });
});

describe('fliptest options and runs', () => {
  const dataset = population(100);

  it('is reproducible for a seed', async () => {
    const a = await fliptest.run({ dataset, model: planted }, { sampleSize: 60 }, { seed: 7 });
    const b = await fliptest.run({ dataset, model: planted }, { sampleSize: 60 }, { seed: 7 });
    expect(reproducibleView(b)).toEqual(reproducibleView(a));
    expect(extrasOf(a).flipset.negative.length).toBeGreaterThan(0);
  });

  it('maps in the other direction when asked', async () => {
    const result = await fliptest.run(
      { dataset, model: planted },
      { sourceValue: 1, targetValue: 0 },
      { seed: 8 },
    );
    const x = extrasOf(result);
    // Men in the region are approved while their female counterparts are not: F+.
    expect(x.flipset.positive.length).toBeGreaterThan(x.flipset.negative.length);
  });

  it('maps every protected attribute by default and counts the flipping pairs of all of them', async () => {
    // Two protected attributes; the model refuses group 0 of `race` where 20 <= a <= 40 and ignores sex.
    const two = defineSchema({
      attributes: [
        { name: 'sex', kind: 'categorical', protected: true, categories: ['f', 'm'] },
        { name: 'race', kind: 'categorical', protected: true, categories: ['p', 'q', 'r'] },
        { name: 'a', kind: 'ordinal', protected: false, min: 0, max: 99, step: 1 },
      ],
      outcome: { name: 'y', labels: ['no', 'yes'], favorable: 1 },
    });
    const rng = createRng('two-attributes');
    const x: number[] = [];
    for (let i = 0; i < 240; i++) x.push(i % 2, i % 3, rng.int(0, 99));
    const data = createDataset({ schema: two, x, y: x.map((_, i) => i % 2).slice(0, 240) });
    const byRace: Classifier = {
      nFeatures: 3,
      nClasses: 2,
      predict(b) {
        const out = new Int32Array(b.length / 3);
        for (let i = 0; i < out.length; i++) {
          const a = b[3 * i + 2]!;
          out[i] = a >= 20 && a <= 40 ? (b[3 * i + 1] === 0 ? 0 : 1) : a > 50 ? 1 : 0;
        }
        return out;
      },
    };
    const result = await fliptest.run({ dataset: data, model: byRace }, {}, { seed: 10 });
    const runs = (result.extras as unknown as { attributes: Extras[]; completed: boolean }).attributes;
    expect(runs.map((r) => r.attribute)).toEqual(['sex', 'race']);
    expect(runs.every((r) => r.completed)).toBe(true);
    let mapped = 0;
    let flipping = 0;
    for (const r of runs) {
      const sampled = (r as unknown as { sampled: { source: number } }).sampled.source;
      mapped += sampled;
      flipping += r.flipset.positive.length + r.flipset.negative.length;
    }
    // sex: 120 women mapped onto 120 men; race: the 80 rows of p onto 80 rows of q or r.
    expect(mapped).toBe(200);
    expect(result.metrics.tsn).toBe(200);
    expect(result.metrics.dsn).toBe(flipping);
    // Race drives the flips: group p in the region is refused, its counterparts approved.
    const race = runs[1]!;
    expect(race.flipset.negative.length).toBeGreaterThan(race.flipset.positive.length);
    expect(race.flipset.negative.length).toBeGreaterThan(10);
    // One attribute asked for: only its run.
    const one = await fliptest.run({ dataset: data, model: byRace }, { attribute: ['race'] }, { seed: 10 });
    const only = (one.extras as unknown as { attributes: Extras[] }).attributes;
    expect(only.map((r) => r.attribute)).toEqual(['race']);
    expect(one.metrics.tsn).toBe(80);
    // A TSN budget of 101 caps the samples: 50 for sex (half of it), then 51 for race (all that is
    // left), both mapped with complete flipsets.
    const capped = await fliptest.run(
      { dataset: data, model: byRace },
      {},
      { seed: 10, budget: { maxTested: 101 } },
    );
    const cappedRuns = (capped.extras as unknown as { attributes: Extras[] }).attributes;
    expect(cappedRuns.map((r) => (r as unknown as { sampled: { source: number } }).sampled.source)).toEqual([
      50, 51,
    ]);
    expect(cappedRuns.every((r) => r.completed)).toBe(true);
    expect(capped.metrics.tsn).toBe(101);
    expect(capped.run.stopReason).toBe('tested-budget');
    // Group values need a single attribute.
    await expect(fliptest.run({ dataset: data, model: byRace }, { sourceValue: 0 })).rejects.toThrow(
      OptionsError,
    );
  });

  it('rejects a non-protected attribute, equal groups and an absent group', async () => {
    await expect(fliptest.run({ dataset, model: planted }, { attribute: 'a' })).rejects.toThrow(OptionsError);
    await expect(
      fliptest.run({ dataset, model: planted }, { sourceValue: 1, targetValue: 1 }),
    ).rejects.toThrow(OptionsError);
    const women = createDataset({
      schema,
      x: dataset.x.subarray(0, 400),
      y: [0, 1, ...new Array(98).fill(0)],
    });
    await expect(fliptest.run({ dataset: women, model: planted })).rejects.toThrow(DataError);
  });
});
