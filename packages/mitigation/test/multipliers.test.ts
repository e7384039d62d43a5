import { ModelError, OptionsError, Rng } from '@fb/core';
import { modelStatisticalParity, subgroupsOf } from '@fb/metrics';
import { fitLogisticRegression } from '@fb/models';
import { describe, expect, it } from 'vitest';
import { ModelBiasMitigator, paretoFront, selectFromFront, type TradeoffPoint } from '../src/index.js';
import { accuracy, plantedBias } from './planted.js';

const dominates = (a: TradeoffPoint, b: TradeoffPoint) =>
  a.fairness <= b.fairness &&
  a.accuracy >= b.accuracy &&
  (a.fairness < b.fairness || a.accuracy > b.accuracy);

describe('Pareto front', () => {
  it('keeps exactly the non-dominated points (brute force over random clouds)', () => {
    const rng = Rng.create(3);
    for (let round = 0; round < 20; round++) {
      // Coarse values so that ties and duplicates occur.
      const points = Array.from({ length: 60 }, () => ({
        fairness: rng.int(0, 15) / 20,
        accuracy: rng.int(0, 15) / 20,
        penalty: rng.uniform(0, 1),
      }));
      const front = paretoFront(points);
      const inFront = new Set(front);
      points.forEach((p, i) => {
        const dominated = points.some((q) => dominates(q, p));
        if (inFront.has(i)) expect(dominated).toBe(false);
        else
          expect(
            dominated ||
              front.some((f) => points[f]!.fairness === p.fairness && points[f]!.accuracy === p.accuracy),
          ).toBe(true);
      });
      // Ordered fairest first, accuracy rising, no duplicate points.
      for (let k = 1; k < front.length; k++) {
        expect(points[front[k]!]!.fairness).toBeGreaterThan(points[front[k - 1]!]!.fairness);
        expect(points[front[k]!]!.accuracy).toBeGreaterThan(points[front[k - 1]!]!.accuracy);
      }
    }
  });

  it('of identical points keeps the one with the smallest penalty', () => {
    const front = paretoFront([
      { fairness: 0.1, accuracy: 0.8, penalty: 0.5 },
      { fairness: 0.1, accuracy: 0.8, penalty: 0.2 },
      { fairness: Number.POSITIVE_INFINITY, accuracy: 0.99, penalty: 0 },
    ]);
    expect(front).toEqual([1]);
  });
});

describe('default selection (hand-built front)', () => {
  const front: TradeoffPoint[] = [
    { fairness: 0.02, accuracy: 0.7, penalty: 1 },
    { fairness: 0.05, accuracy: 0.78, penalty: 1 },
    { fairness: 0.1, accuracy: 0.8, penalty: 1 },
    { fairness: 0.2, accuracy: 0.82, penalty: 0 },
  ];
  const rule = { regularization: 0 } as const;

  it('relative accuracy: fairest model within 5 % of the best accuracy (0.82 x 0.95 = 0.779)', () => {
    const s = selectFromFront(front, { ...rule, target: 'accuracy', type: 'relative', value: 0.05 });
    expect(s.criterion).toBeCloseTo(0.779, 12);
    expect(s.admissibleMask).toEqual([false, true, true, true]);
    expect(s.index).toBe(1);
    expect(s.admissible).toBe(true);
  });

  it('absolute accuracy, relative and absolute fairness', () => {
    expect(selectFromFront(front, { ...rule, target: 'accuracy', type: 'absolute', value: 0.81 }).index).toBe(
      3,
    );
    expect(selectFromFront(front, { ...rule, target: 'fairness', type: 'absolute', value: 0.06 }).index).toBe(
      1,
    );
    // Best fairness 0.02, relative 1.0: fairness <= 0.04.
    expect(selectFromFront(front, { ...rule, target: 'fairness', type: 'relative', value: 1 }).index).toBe(0);
  });

  it('an unmet absolute constraint falls back to the model best on the constrained metric', () => {
    const s = selectFromFront(front, { ...rule, target: 'accuracy', type: 'absolute', value: 0.9 });
    expect(s).toMatchObject({ index: 3, admissible: false });
    const f = selectFromFront(front, { ...rule, target: 'fairness', type: 'absolute', value: 0.01 });
    expect(f).toMatchObject({ index: 0, admissible: false });
  });

  it('regularisation prefers the smaller change when the metric difference is below it', () => {
    const close: TradeoffPoint[] = [
      { fairness: 0.05, accuracy: 0.78, penalty: 2 },
      { fairness: 0.051, accuracy: 0.79, penalty: 0 },
    ];
    const pick = (regularization: number) =>
      selectFromFront(close, { target: 'accuracy', type: 'relative', value: 0.05, regularization }).index;
    expect(pick(0)).toBe(0);
    expect(pick(0.001)).toBe(1);
  });
});

describe('ModelBiasMitigator on planted label bias', () => {
  const train = plantedBias(3000, 0.6, 1);
  const validation = plantedBias(3000, 0.6, 2);
  const test = plantedBias(3000, 0.6, 3);
  const model = fitLogisticRegression(train);

  it('searches seeded trials, builds a non-dominated front and reduces the disparity on unseen data', async () => {
    const options = { nTrialsPerGroup: 60, seed: 7, constraintValue: 0.1 };
    const mitigator = await new ModelBiasMitigator(model, options).fit(validation);
    const groups = subgroupsOf(validation);
    expect(mitigator.trials).toHaveLength(120);
    // Trial 0 is the unmitigated model, scored independently here.
    const basePred = model.predict(validation.x);
    expect(mitigator.trials[0]!.fairness).toBeCloseTo(
      modelStatisticalParity(null, basePred, groups) as number,
      12,
    );
    expect(mitigator.trials[0]!.accuracy).toBeCloseTo(accuracy(validation.y, basePred), 12);
    for (const e of mitigator.tradeoff) for (const t of mitigator.trials) expect(dominates(t, e)).toBe(false);
    // Each front model, rebuilt by selectModel, reproduces its recorded scores.
    for (let i = 0; i < mitigator.tradeoff.length; i += 3) {
      const pred = mitigator.selectModel(i).predict(validation.x);
      expect(modelStatisticalParity(null, pred, groups) as number).toBeCloseTo(
        mitigator.tradeoff[i]!.fairness,
        12,
      );
    }
    // Default rule: fairest model within 10 % of the best front accuracy.
    const fresh = await new ModelBiasMitigator(model, options).fit(validation);
    const chosen = fresh.tradeoff[fresh.selectedIndex]!;
    const bestAcc = Math.max(...fresh.tradeoff.map((e) => e.accuracy));
    expect(chosen.accuracy).toBeGreaterThanOrEqual(bestAcc * 0.9 - 1e-12);
    for (const e of fresh.tradeoff)
      if (e.accuracy >= bestAcc * 0.9 - 1e-12) expect(e.fairness).toBeGreaterThanOrEqual(chosen.fairness);
    expect(fresh.tradeoff.map((e) => e.multipliers)).toEqual(mitigator.tradeoff.map((e) => e.multipliers));

    const before = model.predict(test.x);
    const after = fresh.predict(test.x);
    const tg = subgroupsOf(test);
    const spBefore = modelStatisticalParity(null, before, tg) as number;
    const spAfter = modelStatisticalParity(null, after, tg) as number;
    const cost = accuracy(test.y, before) - accuracy(test.y, after);
    console.info(
      `multipliers SP: parity gap ${spBefore.toFixed(3)} -> ${spAfter.toFixed(3)}, accuracy cost ${cost.toFixed(3)} (test data), multipliers ${JSON.stringify(fresh.selectedMultipliers)}`,
    );
    expect(spAfter).toBeLessThan(spBefore * 0.5);
    expect(fresh.constraint).toMatchObject({ metric: 'accuracy', met: true });
  });

  it('equalized odds with an absolute fairness constraint, and an SVG of the front', async () => {
    const m = await new ModelBiasMitigator(model, {
      fairnessMetric: 'equalized_odds',
      constraintTarget: 'fairness',
      constraintType: 'absolute',
      constraintValue: 0.15,
      nTrialsPerGroup: 40,
    }).fit(validation);
    const chosen = m.tradeoff[m.selectedIndex]!;
    expect(chosen.fairness).toBeLessThanOrEqual(0.15);
    expect(m.trials[0]!.fairness).toBeGreaterThan(0.15);
    for (const e of m.tradeoff)
      if (e.fairness <= 0.15) expect(e.accuracy).toBeLessThanOrEqual(chosen.accuracy);
    console.info(
      `multipliers EO (absolute 0.15): EO gap ${m.trials[0]!.fairness.toFixed(3)} -> ${chosen.fairness.toFixed(3)}, accuracy ${m.trials[0]!.accuracy.toFixed(3)} -> ${chosen.accuracy.toFixed(3)} (fit data)`,
    );
    const svg = m.tradeoffSvg();
    expect(svg.startsWith('<svg')).toBe(true);
    expect(svg.match(/<circle/g)).toHaveLength(m.trials.length + m.tradeoff.length);
    expect(svg.match(/<title>/g)).toHaveLength(m.tradeoff.length);
    const hidden = m.tradeoffSvg({ hideInadmissible: true }).match(/<title>/g)!.length;
    expect(hidden).toBe(m.tradeoff.filter((e, i) => e.admissible || i === m.selectedIndex).length);
  });

  it('stops the search on abort, keeping the unmitigated trial', async () => {
    const abort = new AbortController();
    abort.abort();
    const m = await new ModelBiasMitigator(model).fit(validation, { signal: abort.signal });
    expect(m.trials).toHaveLength(1);
    expect(m.tradeoff).toHaveLength(1);
  });

  it('rejects bad input with typed errors', async () => {
    expect(() => new ModelBiasMitigator(model, { nTrials: 3 } as never)).toThrow(OptionsError);
    expect(() => new ModelBiasMitigator({ nFeatures: 3, nClasses: 2, predict: model.predict })).toThrow(
      ModelError,
    );
    const m = new ModelBiasMitigator(model);
    expect(() => m.tradeoff).toThrow(ModelError);
    await m.fit(validation);
    expect(() => m.selectModel(m.tradeoff.length)).toThrow(OptionsError);
  });
});
