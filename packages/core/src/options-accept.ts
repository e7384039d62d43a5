/**
 * Accepting options without compiling a validator. ajv compiles each options schema into code the first
 * time a process resolves options against it: 5-7 ms per schema on the 2-core machine, and about 60 ms
 * for the first schema of a process, a large share of a model's first fit (a depth-10 tree on Adult fits
 * in about 50 ms). Options are small, so walking the schema over them costs microseconds. This walk only
 * ever accepts: an option value it rejects, or a schema or value outside the subset it knows, goes to
 * ajv, which decides and words the error. It must therefore never accept what ajv rejects, nor fill a
 * default ajv would not (tested against ajv on generated schemas and values, in options-accept.test.ts).
 */

/** A value or schema the walk does not decide: ajv does. */
const UNSURE = Symbol('unsure');

type Schema = Record<string, unknown>;

/** Keywords the walk knows (annotations included). Any other keyword sends the schema to ajv. */
const KNOWN = new Set([
  'type',
  'enum',
  'const',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minLength',
  'maxLength',
  'properties',
  'additionalProperties',
  'required',
  'items',
  'minItems',
  'maxItems',
  'uniqueItems',
  'anyOf',
  'oneOf',
  'default',
  'description',
  'title',
  'examples',
]);

const known = new WeakMap<object, boolean>();

/**
 * Whether the walk knows every keyword of `schema`, at any depth, and defaults sit only where ajv fills
 * them: in `properties` reached through `properties` alone (ajv ignores a default under `anyOf`, `oneOf`
 * or `items`).
 */
export function walkable(schema: Schema): boolean {
  let ok = known.get(schema);
  if (ok === undefined) {
    ok = knows(schema, true);
    known.set(schema, ok);
  }
  return ok;
}

function knows(schema: unknown, defaultsFilled: boolean): boolean {
  if (schema === true || schema === false) return true;
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) return false;
  const s = schema as Schema;
  for (const key of Object.keys(s)) if (!KNOWN.has(key)) return false;
  if ('default' in s && !defaultsFilled) return false;
  if (s.type !== undefined) {
    const types = Array.isArray(s.type) ? s.type : [s.type];
    if (!types.every((t) => typeof t === 'string' && TYPES.has(t))) return false;
  }
  for (const key of ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum']) {
    if (s[key] !== undefined && !Number.isFinite(s[key])) return false;
  }
  for (const key of ['minLength', 'maxLength', 'minItems', 'maxItems']) {
    if (s[key] !== undefined && !Number.isInteger(s[key])) return false;
  }
  if (s.uniqueItems !== undefined && typeof s.uniqueItems !== 'boolean') return false;
  if (s.enum !== undefined && !(Array.isArray(s.enum) && s.enum.every(isPrimitive))) return false;
  if (s.const !== undefined && !isPrimitive(s.const)) return false;
  if (
    s.required !== undefined &&
    !(Array.isArray(s.required) && s.required.every((r) => typeof r === 'string'))
  )
    return false;
  if (s.properties !== undefined) {
    if (s.properties === null || typeof s.properties !== 'object') return false;
    for (const p of Object.values(s.properties as Schema)) if (!knows(p, defaultsFilled)) return false;
  }
  if (s.additionalProperties !== undefined && !knows(s.additionalProperties, false)) return false;
  if (s.items !== undefined && !knows(s.items, false)) return false;
  for (const key of ['anyOf', 'oneOf']) {
    const branches = s[key];
    if (branches === undefined) continue;
    if (!Array.isArray(branches) || branches.length === 0) return false;
    if (!branches.every((b) => knows(b, false))) return false;
  }
  return true;
}

const TYPES = new Set(['null', 'boolean', 'string', 'number', 'integer', 'object', 'array']);

function isPrimitive(v: unknown): boolean {
  return v === null || typeof v === 'string' || typeof v === 'boolean' || Number.isFinite(v);
}

/**
 * Whether `value` is valid under `schema` (a walkable one), filling missing properties' defaults as ajv's
 * `useDefaults` does (a fresh copy each). False when it is invalid or when the walk cannot tell: the
 * caller then asks ajv. Defaults filled before a rejection are the ones ajv fills too.
 */
export function accepts(schema: Schema, value: unknown): boolean {
  try {
    return valid(schema, value);
  } catch (e) {
    if (e === UNSURE) return false;
    throw e;
  }
}

function valid(schema: unknown, value: unknown): boolean {
  if (schema === true) return true;
  if (schema === false) return false;
  const s = schema as Schema;
  const kind = kindOf(value);
  if (s.type !== undefined) {
    const types = Array.isArray(s.type) ? (s.type as string[]) : [s.type as string];
    if (!types.some((t) => t === kind || (t === 'number' && kind === 'integer'))) return false;
  }
  if (s.enum !== undefined && !(s.enum as unknown[]).some((e) => e === value)) return false;
  if (s.const !== undefined && s.const !== value) return false;
  if (typeof value === 'number') {
    if (s.minimum !== undefined && !(value >= (s.minimum as number))) return false;
    if (s.maximum !== undefined && !(value <= (s.maximum as number))) return false;
    if (s.exclusiveMinimum !== undefined && !(value > (s.exclusiveMinimum as number))) return false;
    if (s.exclusiveMaximum !== undefined && !(value < (s.exclusiveMaximum as number))) return false;
  }
  if (typeof value === 'string') {
    // Lengths in code points, as ajv counts them.
    const length = [...value].length;
    if (s.minLength !== undefined && length < (s.minLength as number)) return false;
    if (s.maxLength !== undefined && length > (s.maxLength as number)) return false;
  }
  if (Array.isArray(value)) {
    if (s.minItems !== undefined && value.length < (s.minItems as number)) return false;
    if (s.maxItems !== undefined && value.length > (s.maxItems as number)) return false;
    if (s.items !== undefined && !value.every((v) => valid(s.items, v))) return false;
    if (s.uniqueItems === true) {
      if (!value.every(isPrimitive)) throw UNSURE;
      if (new Set(value).size !== value.length) return false;
    }
  }
  if (kind === 'object') {
    const o = value as Record<string, unknown>;
    const props = (s.properties ?? {}) as Record<string, Schema>;
    for (const [name, p] of Object.entries(props)) {
      if (o[name] === undefined && p !== null && typeof p === 'object' && 'default' in p) {
        o[name] = structuredClone(p.default);
      }
    }
    for (const name of (s.required ?? []) as string[]) if (o[name] === undefined) return false;
    for (const [name, v] of Object.entries(o)) {
      const p = Object.hasOwn(props, name) ? props[name] : s.additionalProperties;
      if (p !== undefined && !valid(p, v)) return false;
    }
  }
  if (s.anyOf !== undefined && !(s.anyOf as unknown[]).some((b) => valid(b, value))) return false;
  if (s.oneOf !== undefined && (s.oneOf as unknown[]).filter((b) => valid(b, value)).length !== 1)
    return false;
  return true;
}

/**
 * The JSON type of a value as the walk knows it; anything else (non-finite numbers, objects other than
 * plain objects and arrays, `undefined` inside arrays) is for ajv to judge.
 */
function kindOf(value: unknown): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'boolean':
      return 'boolean';
    case 'string':
      return 'string';
    case 'number':
      if (!Number.isFinite(value)) throw UNSURE;
      return Number.isInteger(value) ? 'integer' : 'number';
    case 'object': {
      if (Array.isArray(value)) return 'array';
      const proto = Object.getPrototypeOf(value);
      if (proto === Object.prototype || proto === null) return 'object';
      throw UNSURE;
    }
    default:
      throw UNSURE;
  }
}
