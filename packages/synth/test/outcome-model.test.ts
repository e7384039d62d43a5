import { createRng, defineSchema } from '@fb/core';
import { describe, expect, it } from 'vitest';
import { buildCopula, sampleCopula } from '../src/copula.js';
import { discreteMarginal, domainIndex } from '../src/marginal.js';
import { logitsOf, type OutcomeModel } from '../src/outcome-model.js';

// Categorical, ordinal (a grid not starting at 0) and protected attributes, with hand-made models.
const schema = defineSchema({
  attributes: [
    { name: 'colour', kind: 'categorical', categories: ['r', 'g', 'b'], protected: false },
    { name: 'sex', kind: 'categorical', categories: ['f', 'm'], protected: true },
    { name: 'grade', kind: 'ordinal', min: 2, max: 8, step: 2, protected: false },
  ],
  outcome: { name: 'y', labels: ['0', '1'], favorable: 1 },
});
const copula = buildCopula(
  schema,
  schema.attributes.map((a) =>
    discreteMarginal(
      a,
      Float64Array.from({ length: a.categories ? a.categories.length : 4 }, () => 1),
    ),
  ),
  Float64Array.from([1, 0.3, -0.2, 0.3, 1, 0.1, -0.2, 0.1, 1]),
);
const model = (scale: number): OutcomeModel => ({
  intercept: -0.25 * scale,
  tables: [Float64Array.of(0.5, -1.25, 2).map((w) => w * scale), null, Float64Array.of(0.1, 0.2, 0.4, 0.8)],
  slopes: new Float64Array(3),
  centres: new Float64Array(3),
});

describe('logitsOf', () => {
  it('adds the intercept and each attribute’s table entry, one model or several', () => {
    const n = 500;
    const x = sampleCopula(copula, n, createRng(4));
    const one = logitsOf(schema, [model(1)], x, n)[0]!;
    const both = logitsOf(schema, [model(1), model(3)], x, n);
    for (let i = 0; i < n; i++) {
      const [colour, , grade] = [x[3 * i]!, x[3 * i + 1]!, x[3 * i + 2]!];
      for (const [k, scale] of [
        [0, 1],
        [1, 3],
      ] as const) {
        const m = model(scale);
        // By hand, in the order of the attributes.
        const expected =
          m.intercept +
          m.tables[0]![domainIndex(schema.attributes[0]!, colour)]! +
          m.tables[2]![(grade - 2) / 2]!;
        expect(both[k]![i]).toBe(expected);
      }
      expect(one[i]).toBe(both[0]![i]);
    }
  });
});
