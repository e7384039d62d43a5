import type { ValidateFunction } from 'ajv';
import { describeErrors, makeAjv } from './ajv.js';
import { OptionsError } from './errors.js';

/** A JSON Schema for a detector's options: an object whose properties all carry a `default`. */
export interface OptionsSchema {
  type: 'object';
  properties: Record<string, Record<string, unknown> & { description: string; default?: unknown }>;
  additionalProperties?: false;
  required?: string[];
  [key: string]: unknown;
}

const ajv = makeAjv(true);
const cache = new WeakMap<object, ValidateFunction>();

/**
 * Validate `options` against `schema`, filling documented defaults. Unknown options are rejected
 * (typo protection), as are ill-typed ones; the error names the option.
 */
export function resolveOptions<T>(schema: OptionsSchema, options: unknown): T {
  let validate = cache.get(schema);
  if (!validate) {
    validate = ajv.compile({ ...schema, additionalProperties: false });
    cache.set(schema, validate);
  }
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
