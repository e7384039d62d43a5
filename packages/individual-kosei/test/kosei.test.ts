import {
  type BatchCheck,
  CounterfactualChecker,
  CountingClassifier,
  type DiscoveryResult,
  defineSchema,
  OptionsError,
  type Rng,
  RunController,
  reproducibleView,
} from '@fb/core';
import { labelledSample, probabilityModel, RowModel } from '@fb/testkit';
import { describe, expect, it } from 'vitest';
import { runGlobalPhase } from '../src/global-phase.js';
import { kosei } from '../src/index.js';
import { runLocalPhase } from '../src/local-phase.js';
import { Neighbours } from '../src/neighbours.js';
import { RowQueue } from '../src/queue.js';
import { TestedSet } from '../src/tested-set.js';
import {
  gridBlindModel,
  gridKey,
  gridRegionModel,
  gridSchema,
  inGridRegion,
  sexOnlyModel,
} from './fixtures.js';

interface Extras {
  globalTested: number;
  globalDiscriminatory: number;
  globalRepeats: number;
  localLimit: number;
  localTested: number;
  localDiscriminatory: number;
  expanded: number;
  duplicatesSkipped: number;
  outOfDomain: number;
}
const extrasOf = (r: DiscoveryResult) => r.extras as unknown as Extras;
const pairsOf = (r: DiscoveryResult) => (r.findings.kind === 'individual' ? r.findings.pairs : []);

/** Every lattice point of the grid schema (sex 0), as keys. */
function gridPoints(): number[][] {
  const out: number[][] = [];
  for (let a = 0; a <= 19; a++)
    for (let b = 0; b <= 9; b++) for (let c = 0; c <= 2; c++) out.push([0, a, b, c]);
  return out;
}
const region = new Set(gridPoints().filter(inGridRegion).map(gridKey));
/** Points outside the region one unit step from it (colour steps stay inside). */
const boundary = new Set(
  gridPoints()
    .filter((p) => !inGridRegion(p))
    .filter((p) =>
      [1, 2].some((j) => [-1, 1].some((s) => inGridRegion(p.map((v, k) => (k === j ? v + s : v))))),
    )
    .map(gridKey),
);

describe('kosei on a planted discriminating region', () => {
  const model = gridRegionModel();
  const dataset = labelledSample(model, 100, gridSchema);

  it('walks the whole connected region and reports exactly its points', async () => {
    expect(region.size).toBe(60);
    expect(boundary.size).toBe(39);
    const result = await kosei.run(
      { dataset, model },
      { globalIterations: 200, localLimit: 10_000 },
      { seed: 4 },
    );
    const extras = extrasOf(result);
    const pairs = pairsOf(result);
    expect(extras.globalDiscriminatory).toBeGreaterThan(0);
    expect(new Set(pairs.map((p) => gridKey(p.sample)))).toEqual(region);
    expect(result.metrics.dsn).toBe(60);
    expect(pairs.length).toBe(60);
    // Each discriminatory input joins the queue once and is expanded once.
    expect(extras.expanded).toBe(60);
    expect(extras.globalTested + extras.localTested).toBe(result.metrics.tsn);
    expect(extras.globalDiscriminatory + extras.localDiscriminatory).toBe(60);
    // The walk tests the region and its boundary, plus whatever the global draws hit elsewhere.
    expect(result.metrics.tsn).toBeGreaterThanOrEqual(region.size + boundary.size);
    expect(result.metrics.tsn).toBeLessThanOrEqual(region.size + boundary.size + extras.globalTested);
    // Every reported pair flips when re-queried.
    for (const p of pairs) {
      const labels = model.predict(Float64Array.from([...p.sample, ...p.counterfactual]));
      expect(labels[0]).toBe(p.sampleOutcome);
      expect(labels[1]).toBe(p.counterfactualOutcome);
      expect(labels[0]).not.toBe(labels[1]);
    }
  });

  it('reports nothing on a model that ignores the protected attribute', async () => {
    const blind = gridBlindModel();
    const result = await kosei.run(
      { dataset: labelledSample(blind, 100, gridSchema), model: blind },
      { globalIterations: 500 },
      { seed: 4 },
    );
    expect(result.metrics.dsn).toBe(0);
    expect(result.metrics.tsn).toBeGreaterThan(300);
    expect(extrasOf(result).localTested).toBe(0);
    expect(pairsOf(result)).toEqual([]);
  });

  it('gives the same walk whatever the batch size', async () => {
    const run = (batchSize: number) =>
      kosei.run(
        { dataset, model: gridRegionModel() },
        { globalIterations: 150, localLimit: 3, batchSize },
        { seed: 9 },
      );
    const [one, many] = await Promise.all([run(1), run(512)]);
    const view = (r: DiscoveryResult) => ({
      ...(reproducibleView(r) as object),
      method: { ...r.method, options: { ...r.method.options, batchSize: null } },
    });
    expect(one.metrics.tsn).toBeGreaterThan(150);
    expect(view(one)).toEqual(view(many));
  });
});

/** A checker that records the non-protected key of every row it is asked about. */
class SpyChecker extends CounterfactualChecker {
  readonly submitted: string[] = [];
  override check(x: Float64Array): BatchCheck {
    for (let off = 0; off < x.length; off += 4) this.submitted.push(gridKey(x.subarray(off, off + 4)));
    return super.check(x);
  }
}

describe('duplicate avoidance', () => {
  it('never submits an input twice, and the model sees each tested input and its twin once', async () => {
    const model = sexOnlyModel();
    const ctl = new RunController({ seed: 2 });
    const counted = new CountingClassifier(model);
    const checker = new SpyChecker(gridSchema, counted, ctl);
    const neighbours = new Neighbours(gridSchema, 100);
    const tested = new TestedSet(gridSchema);
    const queue = new RowQueue(4);
    // 1000 draws over 600 points: the global phase meets many repeats.
    const global = await runGlobalPhase(gridSchema, checker, ctl, ctl.rng.fork('g'), tested, queue, 1000, 64);
    expect(global.repeats).toBeGreaterThan(0);
    expect(global.tested + global.repeats).toBe(1000);
    const local = await runLocalPhase(neighbours, checker, ctl, tested, queue, {
      limit: 1_000_000,
      unit: 'evaluations',
      batchSize: 64,
    });
    // Every input is discriminatory, so the walk covers the whole grid.
    expect(checker.tsn).toBe(600);
    expect(checker.dsn).toBe(600);
    expect(checker.submitted.length).toBe(600);
    expect(new Set(checker.submitted).size).toBe(600);
    expect(global.tested + local.tested).toBe(600);
    // Each point was reached from each in-domain neighbour; all but the first arrival were skipped.
    // Directed edges of the 20 x 10 x 3 grid: 2 x (19 x 10 x 3 + 20 x 9 x 3 + 20 x 10 x 2).
    const edges = 2 * (19 * 10 * 3 + 20 * 9 * 3 + 20 * 10 * 2);
    expect(local.tested + local.duplicatesSkipped).toBe(edges);
    expect(local.expanded).toBe(600);
    expect(model.rowsSeen).toBe(2 * 600);
    expect(counted.queryStats.queries).toBe(2 * 600);
  });
});

describe('continuous attributes without step', () => {
  // x on [0, 100] without step: the checker's key resolution is 10^(2 - 3) = 0.1, so a tested sample is
  // a cell round(x / 0.1); KOSEI walks the lattice 0, 1, ..., 100 (continuousSteps 100).
  const schema = defineSchema({
    attributes: [
      { name: 'sex', kind: 'categorical', protected: true, categories: ['f', 'm'] },
      { name: 'x', kind: 'continuous', protected: false, min: 0, max: 100 },
    ],
    outcome: { name: 'y', labels: ['no', 'yes'], favorable: 1 },
  });
  /** Decides by sex up to x = 2.5, refuses above. */
  const lowModel = () => new RowModel('low-x', 2, (r) => (r[1]! <= 2.5 ? r[0]! : 0));

  it('keys tested inputs on the cells the checker keys them on', () => {
    const tested = new TestedSet(schema);
    const claim = (x: number) => tested.claim(Float64Array.of(0, x), 0);
    expect(claim(0.10001)).toBe(true);
    // Cell 1 again (0.10002 / 0.1 = 1.0002 and 0.14 / 0.1 = 1.4 round to 1), whatever the sex.
    expect(claim(0.10002)).toBe(false);
    expect(tested.claim(Float64Array.of(1, 0.14), 0)).toBe(false);
    expect(claim(0.16)).toBe(true); // cell 2
    expect(claim(1)).toBe(true); // cell 10
    expect(tested.size).toBe(3);
  });

  it('counts each cell once in the phases, as the checker does (hand count)', async () => {
    const ctl = new RunController({ seed: 1 });
    const checker = new CounterfactualChecker(schema, new CountingClassifier(lowModel()), ctl);
    const tested = new TestedSet(schema);
    const queue = new RowQueue(2);
    // Scripted draws: sex code 0, then these values of x. Cells 1, 1, 1, 2, 500, 500.
    const xs = [0.10001, 0.10002, 0.14, 0.16, 50, 50.04];
    let next = 0;
    const rng = { int: () => 0, uniform: () => xs[next++]! } as unknown as Rng;
    const global = await runGlobalPhase(schema, checker, ctl, rng, tested, queue, xs.length, 4);
    // Three cells tested (0.10001, 0.16, 50), three draws repeat one; 0.10001 and 0.16 discriminate.
    expect(global).toEqual({ tested: 3, discriminatory: 2, repeats: 3, exhausted: false });
    expect(checker.tsn).toBe(3);
    const local = await runLocalPhase(new Neighbours(schema, 100), checker, ctl, tested, queue, {
      limit: 1000,
      unit: 'evaluations',
      batchSize: 1,
    });
    // 0.10001 -> 0 and 1 (new); 0.16 -> 0 and 1 (tested); 0 -> below min, 1 (tested);
    // 1 -> 0 (tested), 2 (new); 2 -> 1 (tested), 3 (new, x > 2.5: fair, not queued).
    expect(local).toEqual({
      tested: 4,
      discriminatory: 3,
      expanded: 5,
      duplicatesSkipped: 5,
      outOfDomain: 1,
    });
    expect(checker.tsn).toBe(7);
    expect(checker.dsn).toBe(5);
    expect(global.tested + local.tested).toBe(checker.tsn);
    expect(tested.size).toBe(checker.tsn);
  });

  it("reports in its extras the metrics' tested count on random reals", async () => {
    // x on [0, 1]: cells of 0.001, 1,001 of them; 3,000 uniform draws repeat many cells.
    const unit = defineSchema({
      attributes: [
        { name: 'sex', kind: 'categorical', protected: true, categories: ['f', 'm'] },
        { name: 'x', kind: 'continuous', protected: false, min: 0, max: 1 },
      ],
      outcome: { name: 'y', labels: ['no', 'yes'], favorable: 1 },
    });
    const model = new RowModel('low-x', 2, (r) => (r[1]! <= 0.2 ? r[0]! : 0));
    const result = await kosei.run(
      { dataset: labelledSample(model, 50, unit), model },
      { globalIterations: 3000, localLimit: 10 },
      { seed: 3 },
    );
    const e = extrasOf(result);
    expect(e.globalRepeats).toBeGreaterThan(0);
    expect(e.globalTested + e.globalRepeats).toBe(3000);
    expect(e.globalTested).toBeLessThanOrEqual(1001);
    expect(e.localTested).toBeGreaterThan(0);
    expect(e.globalTested + e.localTested).toBe(result.metrics.tsn);
    expect(e.globalDiscriminatory + e.localDiscriminatory).toBe(result.metrics.dsn);
  });
});

describe('local limit', () => {
  const model = sexOnlyModel();
  const dataset = labelledSample(model, 100, gridSchema);

  it('counts evaluations and is checked before each expansion (original code)', async () => {
    const result = await kosei.run({ dataset, model }, { globalIterations: 1, localLimit: 1 }, { seed: 5 });
    const e = extrasOf(result);
    expect(e.globalDiscriminatory).toBe(1);
    expect(e.localLimit).toBe(1);
    // Only the first item is expanded, and all its in-domain neighbours are evaluated.
    expect(e.expanded).toBe(1);
    expect(e.localTested + e.outOfDomain).toBe(6);
    expect(result.metrics.tsn).toBe(1 + e.localTested);
  });

  it('counts expanded items in the paper mode', async () => {
    const result = await kosei.run(
      { dataset, model },
      { globalIterations: 2, localLimit: 3, localLimitUnit: 'expansions' },
      { seed: 5 },
    );
    const e = extrasOf(result);
    expect(e.globalDiscriminatory).toBe(2);
    expect(e.expanded).toBe(6);
  });

  it('runs the global phase only with localLimit 0', async () => {
    const result = await kosei.run({ dataset, model }, { globalIterations: 50, localLimit: 0 }, { seed: 5 });
    expect(extrasOf(result).expanded).toBe(0);
    expect(result.metrics.tsn).toBe(extrasOf(result).globalTested);
  });

  it('stops at the tested-sample budget mid-walk', async () => {
    const result = await kosei.run(
      { dataset, model },
      { globalIterations: 10 },
      { seed: 5, budget: { maxTested: 40 } },
    );
    expect(result.metrics.tsn).toBe(40);
    expect(result.run.stopReason).toBe('tested-budget');
  });
});

describe('options', () => {
  it('documents the original defaults and rejects unknown options', () => {
    expect(kosei.resolveOptions()).toEqual({
      globalIterations: 2000,
      localLimit: 2000,
      localLimitUnit: 'evaluations',
      continuousSteps: 100,
      batchSize: 512,
      variantMode: 'all-combinations',
      gamma: 0,
    });
    expect(() => kosei.resolveOptions({ samples: 5 } as never)).toThrow(OptionsError);
    expect(() => kosei.resolveOptions({ localLimitUnit: 'pops' } as never)).toThrow(OptionsError);
  });
});

describe('discrimination threshold gamma', () => {
  // Sex moves the approval probability by 0.1 on every grid point, but it stays below 0.5.
  const shift = probabilityModel('sex-shift', (r) => 0.2 + 0.01 * r[1]! + 0.1 * r[0]!, 4);
  const dataset = labelledSample(shift, 100, gridSchema);
  const run = (gamma?: number) =>
    kosei.run(
      { dataset, model: shift },
      { globalIterations: 200, localLimit: 10_000, ...(gamma === undefined ? {} : { gamma }) },
      { seed: 5 },
    );

  it("finds nothing at the seed's 0 (no decision changes) and the whole grid at gamma 0.05", async () => {
    const flips = await run();
    expect(flips.method.options.gamma).toBe(0);
    expect(flips.metrics.dsn).toBe(0);
    // Every point is discriminatory at 0.05, so the walk spreads over the whole connected grid.
    const gaps = await run(0.05);
    expect([gaps.metrics.tsn, gaps.metrics.dsn]).toEqual([600, 600]);
    expect((await run(0.2)).metrics.dsn).toBe(0);
  });
});
