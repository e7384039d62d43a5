import { type Classifier, createDataset, defineSchema } from '@fb/core';
import { describe, expect, it } from 'vitest';
import { kosei as detector } from '../src/index.js';

const schema = defineSchema({
  attributes: [
    { name: 'sex', kind: 'categorical', protected: true, categories: ['male', 'female'] },
    { name: 'income', kind: 'continuous', protected: false, min: 0, max: 100 },
  ],
  outcome: { name: 'approved', labels: ['no', 'yes'], favorable: 1 },
});
const dataset = createDataset({ schema, x: [0, 10, 1, 90, 0, 50, 1, 20], y: [0, 1, 1, 0] });

/** A model approving a row when `rule(sex, income)` holds. */
function modelOf(rule: (sex: number, income: number) => boolean): Classifier {
  return {
    nFeatures: 2,
    nClasses: 2,
    predict(x) {
      const out = new Int32Array(x.length / 2);
      for (let i = 0; i < out.length; i++) out[i] = rule(x[2 * i]!, x[2 * i + 1]!) ? 1 : 0;
      return out;
    },
  };
}

describe('kosei', () => {
  it('flags exactly the inputs whose decision depends on sex, at the rate uniform sampling implies', async () => {
    const samples = 4000;
    // Women earning under 40 are refused: an input is discriminatory exactly when income < 40.
    const biased = modelOf((sex, income) => !(sex === 1 && income < 40));
    const result = await detector.run({ dataset, model: biased }, { samples }, { seed: 3 });
    if (result.findings.kind !== 'individual') throw new Error('expected individual findings');
    // Income is continuous, so every draw is a distinct tested sample.
    expect(result.metrics.tsn).toBe(samples);
    expect(result.findings.pairs.every((p) => p.sample[1]! < 40)).toBe(true);
    // P(income < 40) = 0.4 under uniform draws on [0, 100]; allow four standard errors.
    const se = Math.sqrt((0.4 * 0.6) / samples);
    expect(Math.abs(result.metrics.sur - 0.4)).toBeLessThan(4 * se);

    const blind = modelOf((_sex, income) => income >= 40);
    const fair = await detector.run({ dataset, model: blind }, { samples }, { seed: 3 });
    expect(fair.metrics.tsn).toBe(samples);
    expect(fair.metrics.dsn).toBe(0);
  });
});
