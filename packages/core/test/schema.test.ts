import { describe, expect, it } from 'vitest';
import {
  type Attribute,
  attributeIndex,
  bounds,
  cardinality,
  clampToDomain,
  defineSchema,
  domainValues,
  inDomain,
  isDiscrete,
  protectedIndices,
  type Schema,
  SchemaError,
  valueLabel,
} from '../src/index.js';
import { auditSchema, expectError } from './helpers.js';

const outcome = { name: 'y', labels: ['no', 'yes'], favorable: 1 };
const sex: Attribute = { name: 'sex', kind: 'categorical', protected: true, categories: ['f', 'm'] };
const age: Attribute = { name: 'age', kind: 'ordinal', protected: false, min: 0, max: 4, step: 1 };

function schemaWith(...attributes: Attribute[]): Schema {
  return { attributes, outcome };
}

describe('defineSchema', () => {
  it('accepts a valid schema and returns a frozen copy with ordinal step defaulting to 1', () => {
    const spec = schemaWith(sex, { name: 'grade', kind: 'ordinal', protected: false, min: 1, max: 5 });
    const s = defineSchema(spec);
    expect(Object.isFrozen(s)).toBe(true);
    expect(Object.isFrozen(s.attributes)).toBe(true);
    expect(Object.isFrozen(s.attributes[0])).toBe(true);
    expect(s.attributes[1]!.step).toBe(1);
    expect(s.attributes.map((a) => a.name)).toEqual(['sex', 'grade']);
    expect(s).not.toBe(spec);
    expect(defineSchema(s)).toEqual(s);
  });

  it('rejects duplicate attribute names, naming the attribute', () => {
    const e = expectError(
      () => defineSchema(schemaWith(sex, age, { ...age })),
      SchemaError,
      'SCHEMA_DUPLICATE_ATTRIBUTE',
      {
        attribute: 'age',
      },
    );
    expect(e.message).toContain('age');
  });

  it('rejects an outcome that shares an attribute name', () => {
    expectError(
      () => defineSchema({ attributes: [sex, age], outcome: { ...outcome, name: 'age' } }),
      SchemaError,
      'SCHEMA_DUPLICATE_ATTRIBUTE',
      { attribute: 'age' },
    );
  });

  it.each(['__proto__', 'constructor', 'prototype'])('rejects the reserved name %s, naming it', (name) => {
    const e = expectError(
      () => defineSchema(schemaWith(sex, { ...age, name })),
      SchemaError,
      'SCHEMA_RESERVED_NAME',
      { attribute: name },
    );
    expect(e.message).toContain(`"${name}"`);
    expectError(
      () => defineSchema({ attributes: [sex], outcome: { ...outcome, name } }),
      SchemaError,
      'SCHEMA_RESERVED_NAME',
    );
  });

  it('rejects a schema without a protected attribute', () => {
    expectError(
      () => defineSchema(schemaWith({ ...sex, protected: false }, age)),
      SchemaError,
      'SCHEMA_NO_PROTECTED',
    );
  });

  it.each<[string, Attribute]>([
    ['min > max', { name: 'v', kind: 'ordinal', protected: false, min: 5, max: 1 }],
    ['continuous min > max', { name: 'v', kind: 'continuous', protected: false, min: 1, max: 0 }],
    ['step not dividing', { name: 'v', kind: 'ordinal', protected: false, min: 0, max: 10, step: 3 }],
    ['zero step', { name: 'v', kind: 'ordinal', protected: false, min: 0, max: 10, step: 0 }],
    ['negative step', { name: 'v', kind: 'ordinal', protected: false, min: 0, max: 10, step: -1 }],
    [
      'continuous step not dividing',
      { name: 'v', kind: 'continuous', protected: false, min: 0, max: 1, step: 0.4 },
    ],
    ['continuous zero step', { name: 'v', kind: 'continuous', protected: false, min: 0, max: 1, step: 0 }],
    ['categorical without categories', { name: 'v', kind: 'categorical', protected: false }],
    ['empty categories', { name: 'v', kind: 'categorical', protected: false, categories: [] }],
    ['repeated category', { name: 'v', kind: 'categorical', protected: false, categories: ['a', 'a'] }],
    ['continuous with categories', { name: 'v', kind: 'continuous', protected: false, categories: ['a'] }],
    [
      'categories and min/max',
      { name: 'v', kind: 'ordinal', protected: false, categories: ['a'], min: 0, max: 1 },
    ],
    ['missing max', { name: 'v', kind: 'continuous', protected: false, min: 0 }],
    [
      'infinite max',
      { name: 'v', kind: 'continuous', protected: false, min: 0, max: Number.POSITIVE_INFINITY },
    ],
  ])('rejects a bad domain: %s', (_, attr) => {
    const e = expectError(() => defineSchema(schemaWith(sex, attr)), SchemaError, 'SCHEMA_BAD_DOMAIN', {
      attribute: 'v',
    });
    expect(e.message).toContain('"v"');
  });

  it.each<[string, unknown]>([
    ['unknown kind', { name: 'v', kind: 'nominal', protected: false, categories: ['a'] }],
    ['non-boolean protected', { name: 'v', kind: 'categorical', protected: 'yes', categories: ['a'] }],
    ['empty name', { name: '', kind: 'categorical', protected: false, categories: ['a'] }],
    ['non-string name', { name: 3, kind: 'categorical', protected: false, categories: ['a'] }],
  ])('rejects an ill-formed attribute: %s', (_, attr) => {
    expectError(() => defineSchema(schemaWith(sex, attr as Attribute)), SchemaError, 'SCHEMA_INVALID');
  });

  it.each<[string, unknown]>([
    ['missing outcome', undefined],
    ['one label', { name: 'y', labels: ['only'], favorable: 0 }],
    ['repeated labels', { name: 'y', labels: ['a', 'a'], favorable: 0 }],
    ['favorable out of range', { name: 'y', labels: ['a', 'b'], favorable: 2 }],
    ['favorable not an integer', { name: 'y', labels: ['a', 'b'], favorable: 0.5 }],
    ['empty outcome name', { name: '', labels: ['a', 'b'], favorable: 1 }],
  ])('rejects an outcome problem: %s', (_, o) => {
    expectError(
      () => defineSchema({ attributes: [sex], outcome: o as Schema['outcome'] }),
      SchemaError,
      'SCHEMA_INVALID',
    );
  });

  it('rejects a non-object spec and an empty attribute list', () => {
    expectError(() => defineSchema(null as unknown as Schema), SchemaError, 'SCHEMA_INVALID');
    expectError(() => defineSchema({ attributes: [], outcome }), SchemaError, 'SCHEMA_INVALID');
  });
});

describe('domains', () => {
  const cat: Attribute = { name: 'c', kind: 'categorical', protected: false, categories: ['x', 'y', 'z'] };
  const grid: Attribute = { name: 'g', kind: 'ordinal', protected: false, min: 1, max: 3, step: 0.5 };
  const cont: Attribute = { name: 'r', kind: 'continuous', protected: false, min: 0, max: 10 };
  const contGrid: Attribute = {
    name: 'q',
    kind: 'continuous',
    protected: false,
    min: -1,
    max: 1,
    step: 0.25,
  };
  const s = defineSchema(schemaWith({ ...sex }, cat, grid, cont, contGrid));
  const [, c, g, r, q] = s.attributes as [Attribute, Attribute, Attribute, Attribute, Attribute];

  it('categorical: codes 0..k-1', () => {
    expect(Array.from(domainValues(c))).toEqual([0, 1, 2]);
    expect(cardinality(c)).toBe(3);
    expect(bounds(c)).toEqual([0, 2]);
    expect(isDiscrete(c)).toBe(true);
    expect([0, 1, 2].map((v) => inDomain(c, v))).toEqual([true, true, true]);
    expect([-1, 3, 1.5, Number.NaN, Number.POSITIVE_INFINITY].map((v) => inDomain(c, v))).toEqual([
      false,
      false,
      false,
      false,
      false,
    ]);
    expect([-5, 0.4, 0.6, 1.49, 2.7, 9].map((v) => clampToDomain(c, v))).toEqual([0, 0, 1, 1, 2, 2]);
    expect(valueLabel(c, 1)).toBe('y');
    expect(valueLabel(c, 7)).toBe('7');
  });

  it('ordinal grid with step 0.5', () => {
    expect(Array.from(domainValues(g))).toEqual([1, 1.5, 2, 2.5, 3]);
    expect(cardinality(g)).toBe(5);
    expect(isDiscrete(g)).toBe(true);
    expect([1, 1.5, 2.5, 3].map((v) => inDomain(g, v))).toEqual([true, true, true, true]);
    expect([0.5, 1.25, 2.75, 3.5].map((v) => inDomain(g, v))).toEqual([false, false, false, false]);
    expect([0, 1.2, 1.3, 2.2, 2.3, 10].map((v) => clampToDomain(g, v))).toEqual([1, 1, 1.5, 2, 2.5, 3]);
    expect(valueLabel(g, 2.5)).toBe('2.5');
  });

  it('continuous: no finite domain, any real in [min, max]', () => {
    expect(cardinality(r)).toBe(Number.POSITIVE_INFINITY);
    expect(isDiscrete(r)).toBe(false);
    expectError(() => domainValues(r), SchemaError, 'SCHEMA_BAD_DOMAIN', { attribute: 'r' });
    expect([0, Math.PI, 10].map((v) => inDomain(r, v))).toEqual([true, true, true]);
    expect([-1e-9, 10.0001, Number.NaN].map((v) => inDomain(r, v))).toEqual([false, false, false]);
    expect([-3, 3.3, 12].map((v) => clampToDomain(r, v))).toEqual([0, 3.3, 10]);
  });

  it('continuous with a step is a finite grid', () => {
    expect(Array.from(domainValues(q))).toEqual([-1, -0.75, -0.5, -0.25, 0, 0.25, 0.5, 0.75, 1]);
    expect(isDiscrete(q)).toBe(true);
    expect(inDomain(q, 0.3)).toBe(false);
    expect(clampToDomain(q, 0.3)).toBe(0.25);
  });

  it('every domain value is in the domain, and clamping lands on a domain value (invariant)', () => {
    const attrs: Attribute[] = [
      c,
      g,
      q,
      { name: 'a', kind: 'ordinal', protected: false, min: 0, max: 1, step: 0.1 },
      { name: 'b', kind: 'ordinal', protected: false, min: -7, max: 14, step: 3 },
      { name: 'e', kind: 'continuous', protected: false, min: 2, max: 3, step: 0.2 },
    ];
    for (const spec of attrs) {
      const a = defineSchema(schemaWith(sex, { ...spec, name: 'v' })).attributes[1]!;
      const dom = domainValues(a);
      expect(dom.length).toBe(cardinality(a));
      for (const v of dom) expect(inDomain(a, v)).toBe(true);
      const [lo, hi] = bounds(a);
      for (let t = -2; t <= 2; t += 0.037) {
        const v = lo + (hi - lo) * t;
        const snapped = clampToDomain(a, v);
        expect(inDomain(a, snapped)).toBe(true);
        // Snapping picks a nearest domain value.
        const nearest = Math.min(...Array.from(dom, (w) => Math.abs(w - Math.min(Math.max(v, lo), hi))));
        expect(Math.abs(snapped - Math.min(Math.max(v, lo), hi))).toBeCloseTo(nearest, 9);
      }
    }
  });

  it('protectedIndices and attributeIndex', () => {
    expect(protectedIndices(auditSchema)).toEqual([0, 2]);
    expect(attributeIndex(auditSchema, 'race')).toBe(2);
    expectError(() => attributeIndex(auditSchema, 'height'), SchemaError, 'SCHEMA_INVALID', {
      attribute: 'height',
    });
  });
});
