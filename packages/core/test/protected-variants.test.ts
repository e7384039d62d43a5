import { describe, expect, it } from 'vitest';
import { defineSchema, OptionsError, ProtectedVariants, SchemaError } from '../src/index.js';

const schema = defineSchema({
  attributes: [
    { name: 'sex', kind: 'categorical', protected: true, categories: ['m', 'f'] },
    { name: 'x', kind: 'continuous', protected: false, min: 0, max: 1 },
    { name: 'race', kind: 'categorical', protected: true, categories: ['a', 'b', 'c'] },
  ],
  outcome: { name: 'y', labels: ['0', '1'], favorable: 1 },
});

function rows(v: ProtectedVariants, input: number[]): number[][] {
  const out = new Float64Array(v.perInput * 3);
  const m = v.write(Float64Array.from(input), 0, out, 0);
  return Array.from({ length: m }, (_, i) => Array.from(out.subarray(i * 3, i * 3 + 3)));
}

describe('ProtectedVariants', () => {
  it('writes every other combination of protected values, in odometer order', () => {
    const v = new ProtectedVariants(schema, 'all-combinations');
    expect(v.perInput).toBe(5);
    expect(rows(v, [1, 0.5, 2])).toEqual([
      [0, 0.5, 0],
      [0, 0.5, 1],
      [0, 0.5, 2],
      [1, 0.5, 0],
      [1, 0.5, 1],
    ]);
  });

  it('changes one protected attribute at a time', () => {
    const v = new ProtectedVariants(schema, 'one-at-a-time');
    expect(v.perInput).toBe(3);
    expect(rows(v, [0, 0.25, 1])).toEqual([
      [1, 0.25, 1],
      [0, 0.25, 0],
      [0, 0.25, 2],
    ]);
  });

  it('rejects a continuous protected attribute and an unknown mode', () => {
    const bad = defineSchema({
      attributes: [{ name: 'age', kind: 'continuous', protected: true, min: 0, max: 90 }],
      outcome: { name: 'y', labels: ['0', '1'], favorable: 1 },
    });
    expect(() => new ProtectedVariants(bad)).toThrow(SchemaError);
    expect(() => new ProtectedVariants(schema, 'pairs' as never)).toThrow(OptionsError);
  });
});
