import { SchemaError } from './errors.js';

export type AttributeKind = 'categorical' | 'ordinal' | 'continuous';

/**
 * One input attribute. Values are always numbers:
 * - categorical: integer codes 0..k-1 naming `categories[code]`;
 * - ordinal: integer codes 0..k-1 of ordered `categories`, or an integer grid `min..max` by `step`;
 * - continuous: a real in [min, max].
 */
export interface Attribute {
  readonly name: string;
  readonly kind: AttributeKind;
  readonly protected: boolean;
  readonly categories?: readonly string[];
  readonly min?: number;
  readonly max?: number;
  readonly step?: number;
}

/** The outcome: class labels with integer codes 0..k-1 and the favourable one. */
export interface Outcome {
  readonly name: string;
  readonly labels: readonly string[];
  /** Code of the favourable outcome (e.g. `>50K` = 1 for Adult). */
  readonly favorable: number;
}

export interface Schema {
  readonly attributes: readonly Attribute[];
  readonly outcome: Outcome;
}

/** Names that would collide with object internals if ever used as keys. */
const RESERVED_NAMES = new Set(['__proto__', 'constructor', 'prototype']);

function checkName(name: unknown, where: string): string {
  if (typeof name !== 'string' || name.length === 0) {
    throw new SchemaError('SCHEMA_INVALID', `${where}: a name must be a non-empty string`);
  }
  if (RESERVED_NAMES.has(name)) {
    throw new SchemaError(
      'SCHEMA_RESERVED_NAME',
      `${where}: the name "${name}" is reserved; rename the column`,
      {
        attribute: name,
      },
    );
  }
  return name;
}

function checkAttribute(a: Attribute, index: number): Attribute {
  const name = checkName(a?.name, `attribute #${index}`);
  const bad = (msg: string): never => {
    throw new SchemaError('SCHEMA_BAD_DOMAIN', `attribute "${name}": ${msg}`, { attribute: name });
  };
  if (a.kind !== 'categorical' && a.kind !== 'ordinal' && a.kind !== 'continuous') {
    throw new SchemaError(
      'SCHEMA_INVALID',
      `attribute "${name}": kind must be categorical, ordinal or continuous, got ${String(a.kind)}`,
      { attribute: name },
    );
  }
  if (typeof a.protected !== 'boolean') {
    throw new SchemaError('SCHEMA_INVALID', `attribute "${name}": "protected" must be a boolean`, {
      attribute: name,
    });
  }
  if (a.categories !== undefined) {
    if (a.kind === 'continuous') bad('a continuous attribute cannot have categories');
    if (!Array.isArray(a.categories) || a.categories.length < 1) bad('categories must be a non-empty array');
    const seen = new Set<string>();
    for (const c of a.categories!) {
      if (typeof c !== 'string') bad('category labels must be strings');
      if (seen.has(c)) bad(`category "${c}" is listed twice`);
      seen.add(c);
    }
    if (a.min !== undefined || a.max !== undefined) bad('give either categories or min/max, not both');
    return Object.freeze({
      name,
      kind: a.kind,
      protected: a.protected,
      categories: Object.freeze([...a.categories!]),
    });
  }
  if (a.kind === 'categorical') bad('a categorical attribute needs its category labels');
  if (!Number.isFinite(a.min) || !Number.isFinite(a.max)) bad('needs finite min and max (or categories)');
  if (a.min! > a.max!) bad(`min ${a.min} is greater than max ${a.max}`);
  const checkStep = (step: number): void => {
    if (!(step > 0) || !Number.isFinite(step)) bad(`step must be positive, got ${step}`);
    const count = (a.max! - a.min!) / step;
    if (Math.abs(count - Math.round(count)) > 1e-9) bad(`(max - min) must be a multiple of step ${step}`);
    // Beyond 2^53 grid points neither the count nor the points are exact doubles.
    if (!(Math.round(count) < Number.MAX_SAFE_INTEGER)) {
      bad(`${count} + 1 grid points is more than a number can count exactly (2^53); make it continuous`);
    }
  };
  if (a.kind === 'ordinal') {
    const step = a.step ?? 1;
    checkStep(step);
    return Object.freeze({ name, kind: a.kind, protected: a.protected, min: a.min!, max: a.max!, step });
  }
  // A continuous attribute with a step is a grid too: its last point must be max.
  if (a.step !== undefined) checkStep(a.step);
  return Object.freeze({
    name,
    kind: a.kind,
    protected: a.protected,
    min: a.min!,
    max: a.max!,
    ...(a.step !== undefined ? { step: a.step } : {}),
  });
}

/**
 * Validate and freeze a schema. Throws `SchemaError` naming the offending attribute for duplicate or
 * reserved names, bad domains, or a schema with no protected attribute.
 */
export function defineSchema(spec: Schema): Schema {
  if (spec === null || typeof spec !== 'object' || !Array.isArray(spec.attributes)) {
    throw new SchemaError('SCHEMA_INVALID', 'a schema needs an "attributes" array and an "outcome"');
  }
  if (spec.attributes.length === 0)
    throw new SchemaError('SCHEMA_INVALID', 'a schema needs at least one attribute');
  const attributes = spec.attributes.map(checkAttribute);
  const names = new Set<string>();
  for (const a of attributes) {
    if (names.has(a.name)) {
      throw new SchemaError('SCHEMA_DUPLICATE_ATTRIBUTE', `attribute "${a.name}" appears twice`, {
        attribute: a.name,
      });
    }
    names.add(a.name);
  }
  if (!attributes.some((a) => a.protected)) {
    throw new SchemaError(
      'SCHEMA_NO_PROTECTED',
      'no attribute is marked protected: mark at least one (e.g. sex or race) with protected: true',
    );
  }
  const o = spec.outcome;
  if (o === null || typeof o !== 'object')
    throw new SchemaError('SCHEMA_INVALID', 'the schema needs an outcome');
  const outcomeName = checkName(o.name, 'outcome');
  if (names.has(outcomeName)) {
    throw new SchemaError(
      'SCHEMA_DUPLICATE_ATTRIBUTE',
      `outcome "${outcomeName}" is also an attribute name`,
      {
        attribute: outcomeName,
      },
    );
  }
  if (!Array.isArray(o.labels) || o.labels.length < 2 || new Set(o.labels).size !== o.labels.length) {
    throw new SchemaError('SCHEMA_INVALID', `outcome "${outcomeName}" needs at least two distinct labels`, {
      attribute: outcomeName,
    });
  }
  if (!Number.isInteger(o.favorable) || o.favorable < 0 || o.favorable >= o.labels.length) {
    throw new SchemaError('SCHEMA_INVALID', `outcome "${outcomeName}": favorable must be a label code`, {
      attribute: outcomeName,
    });
  }
  return Object.freeze({
    attributes: Object.freeze(attributes),
    outcome: Object.freeze({
      name: outcomeName,
      labels: Object.freeze([...o.labels]),
      favorable: o.favorable,
    }),
  });
}

/** True when the attribute takes finitely many values (categories or an integer grid). */
export function isDiscrete(a: Attribute): boolean {
  return a.kind !== 'continuous' || a.step !== undefined;
}

/** Smallest and largest admissible value. */
export function bounds(a: Attribute): [number, number] {
  if (a.categories) return [0, a.categories.length - 1];
  return [a.min!, a.max!];
}

/** Number of values of a discrete attribute (Infinity for a continuous one without step). */
export function cardinality(a: Attribute): number {
  if (a.categories) return a.categories.length;
  if (a.step === undefined) return Number.POSITIVE_INFINITY;
  return Math.round((a.max! - a.min!) / a.step) + 1;
}

/** Most values `domainValues` lists (2^24): a longer list is a schema that wants a continuous attribute. */
export const MAX_LISTED_VALUES = 16_777_216;

/** All values of a discrete attribute, in order. Throws for a continuous attribute without step. */
export function domainValues(a: Attribute): Float64Array {
  const k = cardinality(a);
  if (!Number.isFinite(k)) {
    throw new SchemaError(
      'SCHEMA_BAD_DOMAIN',
      `attribute "${a.name}" is continuous: it has no finite domain`,
      {
        attribute: a.name,
      },
    );
  }
  if (k > MAX_LISTED_VALUES) {
    throw new SchemaError(
      'SCHEMA_BAD_DOMAIN',
      `attribute "${a.name}" has ${k} values, too many to list (at most ${MAX_LISTED_VALUES})`,
      { attribute: a.name },
    );
  }
  const out = new Float64Array(k);
  if (a.categories) for (let i = 0; i < k; i++) out[i] = i;
  else for (let i = 0; i < k; i++) out[i] = a.min! + i * a.step!;
  return out;
}

/** Whether `v` is an admissible value of `a`. */
export function inDomain(a: Attribute, v: number): boolean {
  if (!Number.isFinite(v)) return false;
  const [lo, hi] = bounds(a);
  if (v < lo || v > hi) return false;
  if (a.categories) return Number.isInteger(v);
  if (a.step !== undefined) {
    const q = (v - a.min!) / a.step;
    return Math.abs(q - Math.round(q)) < 1e-9;
  }
  return true;
}

/** Snap a value onto the attribute's domain: clip to bounds, round to the grid. */
export function clampToDomain(a: Attribute, v: number): number {
  const [lo, hi] = bounds(a);
  let x = Math.min(Math.max(v, lo), hi);
  if (a.categories) x = Math.round(x);
  else if (a.step !== undefined) x = a.min! + Math.round((x - a.min!) / a.step) * a.step;
  return x;
}

/** Label of a value for display: the category label or the number. */
export function valueLabel(a: Attribute, v: number): string {
  if (a.categories && Number.isInteger(v) && v >= 0 && v < a.categories.length) return a.categories[v]!;
  return String(v);
}

export function protectedIndices(schema: Schema): number[] {
  const out: number[] = [];
  schema.attributes.forEach((a, i) => {
    if (a.protected) out.push(i);
  });
  return out;
}

export function attributeIndex(schema: Schema, name: string): number {
  const i = schema.attributes.findIndex((a) => a.name === name);
  if (i < 0) {
    throw new SchemaError('SCHEMA_INVALID', `no attribute named "${name}" in the schema`, {
      attribute: name,
    });
  }
  return i;
}
