import type { ValidateFunction } from 'ajv';
import { describeErrors, makeAjv } from './ajv.js';
import { OptionsError } from './errors.js';
import { accepts, walkable } from './options-accept.js';

/** A JSON Schema for a detector's options: an object whose properties all carry a `default`. */
export interface OptionsSchema {
  type: 'object';
  properties: Record<string, Record<string, unknown> & { description: string; default?: unknown }>;
  additionalProperties?: false;
  required?: string[];
  [key: string]: unknown;
}

/** Any array of numbers a caller may hold: a plain array or a typed array. */
export type NumberArray =
  | readonly number[]
  | Float64Array
  | Float32Array
  | Int32Array
  | Uint32Array
  | Int16Array
  | Uint16Array
  | Int8Array
  | Uint8Array
  | Uint8ClampedArray;

type LooseNumbers<V> = V extends number[] ? NumberArray : V extends number[][] ? readonly NumberArray[] : V;

/**
 * What a caller may pass for options `O`: any subset, with a typed array (or a readonly array) wherever
 * `O` has an array of numbers. `resolveOptions` turns typed arrays into plain ones (JSON in the result).
 */
export type OptionsInput<O> = Partial<O> | { [P in keyof O]?: LooseNumbers<O[P]> };

const ajv = makeAjv(true);
const cache = new WeakMap<object, ValidateFunction>();
const closedSchemas = new WeakMap<object, OptionsSchema>();

/** The schema with no options besides its own (one object per schema, so that caches keyed by it hit). */
function closedSchema(schema: OptionsSchema): OptionsSchema {
  let c = closedSchemas.get(schema);
  if (!c) {
    c = { ...schema, additionalProperties: false };
    closedSchemas.set(schema, c);
  }
  return c;
}

/**
 * Validate `options` against `schema`, filling documented defaults. Unknown options are rejected
 * (typo protection), as are ill-typed ones; the error names the option.
 */
export function resolveOptions<T>(schema: OptionsSchema, options: unknown): T {
  if (options !== undefined && (options === null || typeof options !== 'object' || Array.isArray(options))) {
    throw new OptionsError('OPTIONS_INVALID', 'options must be an object');
  }
  // structuredClone keeps the caller's object untouched while ajv writes defaults; it refuses
  // functions and symbols, which no option takes.
  let copy: Record<string, unknown>;
  try {
    copy = structuredClone(options ?? {}) as Record<string, unknown>;
  } catch {
    const at = uncloneable(options, '');
    throw new OptionsError('OPTIONS_INVALID', `option ${at || '/'} is a function or symbol, not data`, {
      option: at || '/',
    });
  }
  plainArrays(copy);
  const full = closedSchema(schema);
  // Most options are valid: accepted by a walk of the schema, without compiling it (see options-accept).
  if (walkable(full) && accepts(full, copy)) return copy as T;
  let validate = cache.get(schema);
  if (!validate) {
    validate = ajv.compile(full);
    cache.set(schema, validate);
  }
  if (!validate(copy)) {
    const errors = validate.errors ?? [];
    const unknown = errors.find((e) => e.keyword === 'additionalProperties');
    if (unknown) {
      const name = (unknown.params as { additionalProperty: string }).additionalProperty;
      const known = Object.keys(schema.properties).join(', ');
      throw new OptionsError('OPTIONS_UNKNOWN', `unknown option "${name}" (known: ${known})`, {
        option: `/${name}`,
      });
    }
    const first = errors[0];
    throw new OptionsError('OPTIONS_INVALID', `invalid options: ${describeErrors(errors)}`, {
      option: first?.instancePath || '/',
    });
  }
  return copy as T;
}

/** Replaces typed arrays inside `value` (a fresh clone) by plain arrays, which JSON Schema and JSON know. */
function plainArrays(value: Record<string, unknown> | unknown[]): void {
  for (const [k, v] of Object.entries(value)) {
    if (
      ArrayBuffer.isView(v) &&
      !(v instanceof DataView) &&
      !(v instanceof BigInt64Array || v instanceof BigUint64Array)
    )
      (value as Record<string, unknown>)[k] = Array.from(v as Float64Array);
    else if (v !== null && typeof v === 'object') plainArrays(v as Record<string, unknown>);
  }
}

/** JSON pointer of the first function or symbol inside `value` ('' when none is found). */
function uncloneable(value: unknown, at: string, seen = new Set<object>()): string {
  if (typeof value === 'function' || typeof value === 'symbol') return at;
  if (value === null || typeof value !== 'object' || seen.has(value)) return '';
  seen.add(value);
  for (const [k, v] of Object.entries(value)) {
    const found = uncloneable(v, `${at}/${k}`, seen);
    if (found) return found;
  }
  return '';
}
