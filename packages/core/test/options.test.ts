import { describe, expect, it } from 'vitest';
import { OptionsError, type OptionsInput, type OptionsSchema, resolveOptions } from '../src/index.js';
import { expectError } from './helpers.js';

interface Opts {
  iterations: number;
  strategy: 'random' | 'directed';
  rate: number;
  weights: number[];
}

const schema: OptionsSchema = {
  type: 'object',
  properties: {
    iterations: { type: 'integer', minimum: 1, default: 100, description: 'Number of iterations.' },
    strategy: { enum: ['random', 'directed'], default: 'random', description: 'Search strategy.' },
    rate: { type: 'number', exclusiveMinimum: 0, maximum: 1, default: 0.5, description: 'A rate.' },
    weights: { type: 'array', items: { type: 'number' }, default: [1, 2], description: 'Weights.' },
  },
};

describe('resolveOptions', () => {
  it('fills every default when no options are given', () => {
    const expected = { iterations: 100, strategy: 'random', rate: 0.5, weights: [1, 2] };
    expect(resolveOptions<Opts>(schema, undefined)).toEqual(expected);
    expect(resolveOptions<Opts>(schema, {})).toEqual(expected);
  });

  it('keeps given options, fills the rest, and leaves the caller object untouched', () => {
    const given = Object.freeze({ iterations: 5, weights: Object.freeze([3]) });
    const out = resolveOptions<Opts>(schema, given);
    expect(out).toEqual({ iterations: 5, strategy: 'random', rate: 0.5, weights: [3] });
    expect(out).not.toBe(given);
    expect(given).toEqual({ iterations: 5, weights: [3] });
    expect(Object.keys(given)).toEqual(['iterations', 'weights']);
    out.weights.push(4);
    expect(given.weights).toEqual([3]);
  });

  it('takes typed arrays wherever numbers are, and resolves them to plain arrays', () => {
    const given: OptionsInput<Opts> = { weights: new Float64Array([0.5, 3]) };
    const out = resolveOptions<Opts>(schema, given);
    expect(Array.isArray(out.weights)).toBe(true);
    expect(out.weights).toEqual([0.5, 3]);
    expect(JSON.parse(JSON.stringify(out)).weights).toEqual([0.5, 3]);
  });

  it('does not share default objects between calls', () => {
    const a = resolveOptions<Opts>(schema, {});
    a.weights.push(99);
    expect(resolveOptions<Opts>(schema, {}).weights).toEqual([1, 2]);
    expect(schema.properties['weights']!.default).toEqual([1, 2]);
  });

  it('rejects an unknown option with OPTIONS_UNKNOWN naming it', () => {
    const e = expectError(() => resolveOptions(schema, { iteratons: 5 }), OptionsError, 'OPTIONS_UNKNOWN', {
      option: '/iteratons',
    });
    expect(e.message).toContain('"iteratons"');
    expect(e.message).toContain('iterations');
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['a string for an integer', { iterations: 'many' }, '/iterations'],
    ['a fraction for an integer', { iterations: 2.5 }, '/iterations'],
    ['below the minimum', { iterations: 0 }, '/iterations'],
    ['outside the enum', { strategy: 'greedy' }, '/strategy'],
    ['above the maximum', { rate: 2 }, '/rate'],
    ['a wrong item type', { weights: [1, 'x'] }, '/weights/1'],
  ])('rejects %s with OPTIONS_INVALID and the option pointer', (_, options, pointer) => {
    const e = expectError(() => resolveOptions(schema, options), OptionsError, 'OPTIONS_INVALID', {
      option: pointer,
    });
    expect(e.message).toContain(pointer);
  });

  it('rejects options that are not an object', () => {
    for (const bad of [null, 5, 'x', [1]])
      expectError(() => resolveOptions(schema, bad), OptionsError, 'OPTIONS_INVALID');
  });
});
