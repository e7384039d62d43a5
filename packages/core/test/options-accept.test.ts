import { describe, expect, it } from 'vitest';
import { makeAjv } from '../src/ajv.js';
import { accepts, walkable } from '../src/options-accept.js';
import { createRng, type Rng } from '../src/rng.js';

type Schema = Record<string, unknown>;

// Schemas that use every keyword the walk knows, shaped like the packages' options schemas (the first is
// the decision tree's), each closed as `resolveOptions` closes it.
const schemas: Schema[] = [
  {
    type: 'object',
    properties: {
      criterion: { type: 'string', enum: ['gini', 'entropy'], default: 'gini' },
      maxDepth: { type: ['integer', 'null'], minimum: 1, default: null },
      minSamplesLeaf: { type: 'integer', minimum: 1, default: 1 },
      maxFeatures: {
        anyOf: [
          { type: 'string', enum: ['sqrt', 'log2', 'all'] },
          { type: 'integer', minimum: 1 },
          { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1 },
        ],
        default: 'all',
      },
      classWeight: {
        anyOf: [
          { type: 'null' },
          { type: 'string', enum: ['balanced'] },
          { type: 'object', additionalProperties: { type: 'number', minimum: 0 } },
        ],
        default: null,
      },
      maxBins: { type: 'integer', minimum: 2, maximum: 256, default: 256 },
      seed: { anyOf: [{ type: 'integer', minimum: 0 }, { type: 'string' }], default: 0 },
    },
  },
  {
    type: 'object',
    required: ['name'],
    properties: {
      name: { type: 'string', minLength: 2, maxLength: 3 },
      weights: { type: 'array', items: { type: 'number' }, minItems: 1, maxItems: 3, default: [1, 2] },
      tags: { type: 'array', items: { type: 'string' }, uniqueItems: true, default: [] },
      mode: { oneOf: [{ type: 'integer' }, { type: 'number', minimum: 2 }], default: 1 },
      flag: { type: 'boolean', default: false },
      fixed: { const: 'x' },
      inner: {
        type: 'object',
        default: {},
        properties: { a: { type: 'integer', default: 1 }, b: { enum: [1, 'b', null] } },
        additionalProperties: false,
      },
    },
  },
].map((s) => ({ ...s, additionalProperties: false }));

const leaves: unknown[] = [
  null,
  true,
  false,
  0,
  1,
  -1,
  2,
  3,
  256,
  257,
  0.5,
  1.5,
  2.5,
  1e9,
  '',
  'x',
  'ab',
  'abc',
  'abcd',
  '😀x',
  '😀😀😀😀',
  'gini',
  'entropy',
  'sqrt',
  'balanced',
  'b',
];

/** A random option value: a leaf, or an array or object of them (objects on the schema's names). */
function value(rng: Rng, props: Schema, depth: number): unknown {
  const pick = rng.int(0, 9);
  if (depth > 0 && pick === 0)
    return Array.from({ length: rng.int(0, 3) }, () => value(rng, props, depth - 1));
  if (depth > 0 && pick === 1) return options(rng, props, [], depth - 1);
  return leaves[rng.int(0, leaves.length - 1)];
}

/**
 * Random options for properties `props`: each present or not, often its default (so that many sets of
 * options are valid), else a random value; required ones mostly present; now and then an unknown name.
 */
function options(
  rng: Rng,
  props: Schema,
  required: readonly string[],
  depth: number,
): Record<string, unknown> {
  const o: Record<string, unknown> = {};
  for (const [name, p] of Object.entries(props)) {
    if (rng.next() > (required.includes(name) ? 0.9 : 0.4)) continue;
    const d = (p as Schema).default;
    o[name] = d !== undefined && rng.next() < 0.4 ? structuredClone(d) : value(rng, props, depth);
  }
  for (const name of ['extra', 'a', 'b']) if (rng.next() < 0.05) o[name] = value(rng, props, depth);
  return o;
}

describe('accepting options by walking the schema', () => {
  it('accepts exactly what ajv accepts on plain values, and fills the same defaults', () => {
    const ajv = makeAjv(true);
    const rng = createRng('options-accept');
    for (const schema of schemas) {
      expect(walkable(schema)).toBe(true);
      const validate = ajv.compile(schema);
      const props = schema.properties as Schema;
      const required = (schema.required ?? []) as string[];
      let accepted = 0;
      for (let k = 0; k < 8000; k++) {
        const given = k === 0 ? {} : options(rng, props, required, 2);
        const ours = structuredClone(given);
        const theirs = structuredClone(given);
        const ok = accepts(schema, ours);
        expect(ok, JSON.stringify(given)).toBe(validate(theirs));
        if (ok) {
          expect(ours).toEqual(theirs);
          // A filled default is a copy: the caller may change it without changing the schema.
          for (const [name, p] of Object.entries(props)) {
            const d = (p as Schema).default;
            if (d !== null && typeof d === 'object') expect(ours[name]).not.toBe(d);
          }
          accepted++;
        }
      }
      // Enough valid options drawn for the comparison to say something.
      expect(accepted, `accepted ${accepted} of 8000`).toBeGreaterThan(40);
    }
  });

  it('leaves to ajv what it does not know: other keywords, defaults ajv does not fill, odd values', () => {
    expect(walkable({ type: 'object', properties: { p: { type: 'string', pattern: '^a' } } })).toBe(false);
    expect(walkable({ type: 'object', properties: { p: { $ref: '#/$defs/x' } } })).toBe(false);
    expect(walkable({ anyOf: [{ type: 'object', properties: { a: { default: 1 } } }] })).toBe(false);
    expect(walkable({ type: 'array', items: { type: 'integer', default: 0 } })).toBe(false);
    const schema = { type: 'object', properties: { n: { type: 'number' }, d: { type: 'object' } } };
    expect(walkable(schema)).toBe(true);
    for (const odd of [Number.NaN, Number.POSITIVE_INFINITY, undefined, new Date(0), new Map()]) {
      expect(accepts(schema, { n: odd })).toBe(false);
      expect(accepts(schema, { d: odd })).toBe(false);
    }
    expect(accepts(schema, { n: 1, d: {} })).toBe(true);
  });
});
