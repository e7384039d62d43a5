import { describe, expect, it } from 'vitest';
import {
  attributeColumns,
  CountingClassifier,
  createDataset,
  favourableProbabilities,
  ModelError,
  namedAttributeIndices,
  OptionsError,
} from '../src/index.js';
import { AGE, auditSchema, expectError, INCOME, rowsOf, SpyModel } from './helpers.js';

const dataset = createDataset({
  schema: auditSchema,
  x: rowsOf([
    [0, 1, 2, 40],
    [1, 3, 0, 75.5],
  ]),
  y: [0, 1],
});

describe('namedAttributeIndices', () => {
  it('maps names to schema indices in the order given', () => {
    expect(namedAttributeIndices(auditSchema, ['income', 'sex'], 'groupAttributes')).toEqual([INCOME, 0]);
  });

  it('refuses an unknown name with an OptionsError naming the option', () => {
    const err = expectError(
      () => namedAttributeIndices(auditSchema, ['age', 'height'], 'auditAttributes'),
      OptionsError,
      'OPTIONS_INVALID',
      { option: '/auditAttributes', attribute: 'height' },
    );
    expect(err.message).toBe('auditAttributes: "height" is not an attribute of the schema');
  });
});

describe('attributeColumns', () => {
  it('keeps the chosen columns in order, every one marked protected', () => {
    const { schema, x } = attributeColumns(dataset, [INCOME, AGE]);
    expect(Array.from(x)).toEqual([40, 1, 75.5, 3]);
    expect(schema.attributes.map((a) => [a.name, a.protected])).toEqual([
      ['income', true],
      ['age', true],
    ]);
    expect(schema.outcome).toEqual(auditSchema.outcome);
  });
});

describe('favourableProbabilities', () => {
  it("reads the favourable class's column of predictProba", () => {
    const model = new CountingClassifier({
      nFeatures: 4,
      nClasses: 2,
      predict: (x) => new Int32Array(x.length / 4),
      // P(approved) = income / 100.
      predictProba: (x) => {
        const out = new Float64Array(x.length / 2);
        for (let i = 0; i < x.length / 4; i++) {
          out[2 * i] = 1 - x[4 * i + INCOME]! / 100;
          out[2 * i + 1] = x[4 * i + INCOME]! / 100;
        }
        return out;
      },
    });
    expect(Array.from(favourableProbabilities(model, dataset, 'unused'))).toEqual([0.4, 0.755]);
  });

  it('refuses a model without predictProba with the given message', () => {
    const model = new CountingClassifier(new SpyModel(4, () => 0));
    const err = expectError(
      () => favourableProbabilities(model, dataset, 'needs probabilities'),
      ModelError,
      'MODEL_MISMATCH',
    );
    expect(err.message).toBe('needs probabilities');
  });
});
