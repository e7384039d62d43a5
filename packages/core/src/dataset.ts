import { parseDecimal } from './decimal.js';
import { DataError } from './errors.js';
import { Hasher } from './hash.js';
import { bounds, defineSchema, inDomain, type Schema } from './schema.js';

/**
 * A table of n rows over the schema's attributes, row-major so that any batch of rows can go to a
 * model in one call. `y` holds outcome codes (0..k-1).
 */
export interface Dataset {
  readonly schema: Schema;
  readonly n: number;
  readonly d: number;
  /** n x d values, row-major. */
  readonly x: Float64Array;
  /** n outcome codes. */
  readonly y: Int32Array;
  readonly name?: string;
}

export interface DatasetInit {
  schema: Schema;
  x: Float64Array | readonly number[];
  y: Int32Array | readonly number[];
  name?: string;
}

/**
 * Build a dataset and check it against its schema: width, finiteness, every value in its
 * attribute's domain, every outcome a label code. Throws `DataError` naming the row and attribute.
 */
export function createDataset(init: DatasetInit): Dataset {
  const schema = defineSchema(init.schema);
  const d = schema.attributes.length;
  const x = init.x instanceof Float64Array ? init.x : Float64Array.from(init.x);
  const y = init.y instanceof Int32Array ? init.y : Int32Array.from(init.y);
  if (x.length % d !== 0) {
    throw new DataError(
      'DATA_SHAPE',
      `x has ${x.length} values, which is not a multiple of the ${d} schema attributes (wrong row width?)`,
    );
  }
  const n = x.length / d;
  if (y.length !== n) {
    throw new DataError('DATA_SHAPE', `x has ${n} rows but y has ${y.length} labels`);
  }
  checkRows(schema, x, n);
  const i = firstBadOutcome(init.y, n, schema.outcome.labels.length);
  if (i >= 0) {
    throw new DataError(
      'DATA_OUT_OF_DOMAIN',
      `row ${i}: outcome ${Number(init.y[i])} is not a code of [${schema.outcome.labels}]`,
      { attribute: schema.outcome.name, row: i },
    );
  }
  return Object.freeze({ schema, n, d, x, y, ...(init.name !== undefined ? { name: init.name } : {}) });
}

/**
 * The first of n outcomes that is not a label code below k, or -1. A loop with nothing after it: as part
 * of `createDataset`, the code after the loop had no type feedback when V8 optimised the running loop,
 * and every later call that entered the loop's optimised code left it there (`--trace-deopt`).
 */
function firstBadOutcome(y: Int32Array | readonly number[], n: number, k: number): number {
  for (let i = 0; i < n; i++) {
    const v = Number(y[i]);
    if (!Number.isInteger(v) || v < 0 || v >= k) return i;
  }
  return -1;
}

/** Per attribute: bounds, and how values must sit between them (see `domainChecks`). */
interface DomainChecks {
  lo: Float64Array;
  hi: Float64Array;
  /** 0: any value, 1: an integer (a category code, or on a grid of step 1), 2: on the grid `lo + k * step`. */
  kind: Uint8Array;
  step: Float64Array;
}
const checksOf = new WeakMap<Schema, DomainChecks>();

function domainChecks(schema: Schema): DomainChecks {
  let c = checksOf.get(schema);
  if (c) return c;
  const d = schema.attributes.length;
  c = {
    lo: new Float64Array(d),
    hi: new Float64Array(d),
    kind: new Uint8Array(d),
    step: new Float64Array(d),
  };
  schema.attributes.forEach((a, j) => {
    // Bounds within the finite doubles, so that the bounds check also turns away infinities.
    const [lo, hi] = bounds(a);
    c!.lo[j] = Math.max(lo, -Number.MAX_VALUE);
    c!.hi[j] = Math.min(hi, Number.MAX_VALUE);
    // An integer grid from an integer is checked as integers: a value within 1e-9 of one that is not
    // one fails here and is then accepted by the exact pass, as `inDomain` accepts it.
    if (a.categories || (a.step === 1 && Number.isInteger(a.min))) c!.kind[j] = 1;
    else if (a.step !== undefined) {
      c!.kind[j] = 2;
      c!.step[j] = a.step;
    }
  });
  checksOf.set(schema, c);
  return c;
}

/**
 * Check that n row-major rows are finite and inside their attributes' domains. Every prediction
 * checks its batch, so the check runs over typed arrays in row order; only when it finds a bad value
 * does the attribute-by-attribute pass below run, to name the first one.
 */
export function checkRows(schema: Schema, x: Float64Array, n: number): void {
  const d = schema.attributes.length;
  if (x.length !== n * d) {
    throw new DataError('DATA_SHAPE', `expected ${n} rows of width ${d} (${n * d} values), got ${x.length}`);
  }
  const { lo, hi, kind, step } = domainChecks(schema);
  if (suspectValue(x, n * d, d, lo, hi, kind, step)) throwFirstBadValue(schema, x, n);
}

/**
 * Whether a value of the first `length` of row-major x (width d) fails the fast domain checks. The loop
 * is the whole function and reads only its arguments: in a first call V8 has no type feedback yet for
 * code before a loop, and optimised code built from the loop then left for the interpreter at that code
 * in the next call (`--trace-deopt`).
 */
function suspectValue(
  x: Float64Array,
  length: number,
  d: number,
  lo: Float64Array,
  hi: Float64Array,
  kind: Uint8Array,
  step: Float64Array,
): boolean {
  for (let k = 0; k < length; k += d) {
    for (let j = 0; j < d; j++) {
      const v = x[k + j]!;
      // NaN and the infinities fail the bounds; a category code is a small integer.
      if (!(v >= lo[j]! && v <= hi[j]!)) return true;
      const c = kind[j]!;
      if (c === 1) {
        if ((v | 0) !== v) return true;
      } else if (c === 2) {
        const q = (v - lo[j]!) / step[j]!;
        if (!(Math.abs(q - Math.round(q)) < 1e-9)) return true;
      }
    }
  }
  return false;
}

function throwFirstBadValue(schema: Schema, x: Float64Array, n: number): void {
  const d = schema.attributes.length;
  for (let j = 0; j < d; j++) {
    const a = schema.attributes[j]!;
    for (let i = 0; i < n; i++) {
      const v = x[i * d + j]!;
      if (!Number.isFinite(v)) {
        throw new DataError(
          'DATA_NOT_FINITE',
          `row ${i}, attribute "${a.name}": value ${v} is not a finite number`,
          {
            attribute: a.name,
            row: i,
          },
        );
      }
      if (!inDomain(a, v)) {
        const [lo, hi] = bounds(a);
        throw new DataError(
          'DATA_OUT_OF_DOMAIN',
          `row ${i}, attribute "${a.name}": value ${v} is outside its domain [${lo}, ${hi}]${a.categories ? ' (integer codes)' : ''}`,
          { attribute: a.name, row: i },
        );
      }
    }
  }
}

/**
 * Build a dataset from plain records, e.g. parsed CSV or JSON. Every record must hold exactly the
 * schema's attributes and its outcome; categorical values may be labels or codes.
 */
export function datasetFromRecords(
  schemaSpec: Schema,
  records: readonly Record<string, unknown>[],
  name?: string,
): Dataset {
  const schema = defineSchema(schemaSpec);
  const d = schema.attributes.length;
  const n = records.length;
  const x = new Float64Array(n * d);
  const y = new Int32Array(n);
  const expected = new Set([...schema.attributes.map((a) => a.name), schema.outcome.name]);
  const outcomeCodes = new Map(schema.outcome.labels.map((l, i) => [l, i] as const));
  const codeMaps = schema.attributes.map((a) =>
    a.categories ? new Map(a.categories.map((c, i) => [c, i])) : null,
  );
  for (let i = 0; i < n; i++) {
    const rec = records[i]!;
    if (rec === null || typeof rec !== 'object') {
      throw new DataError('DATA_SHAPE', `record ${i} is not an object`, { row: i });
    }
    for (const key of Object.keys(rec)) {
      if (!expected.has(key)) {
        throw new DataError(
          'DATA_EXTRA_COLUMN',
          `record ${i} has column "${key}", which the schema does not declare`,
          {
            attribute: key,
            row: i,
          },
        );
      }
    }
    for (let j = 0; j < d; j++) {
      const a = schema.attributes[j]!;
      if (!Object.hasOwn(rec, a.name)) {
        throw new DataError('DATA_MISSING_COLUMN', `record ${i} lacks attribute "${a.name}"`, {
          attribute: a.name,
          row: i,
        });
      }
      const raw = rec[a.name];
      const codes = codeMaps[j];
      let v: number;
      if (typeof raw === 'string' && codes) {
        const code = codes.get(raw);
        if (code === undefined) {
          throw new DataError(
            'DATA_UNKNOWN_CATEGORY',
            `record ${i}, attribute "${a.name}": unknown category "${raw}" (known: ${a.categories!.join(', ')})`,
            { attribute: a.name, row: i },
          );
        }
        v = code;
      } else if (typeof raw === 'number') v = raw;
      else if (typeof raw === 'string' && !codes && Number.isFinite(parseDecimal(raw))) v = parseDecimal(raw);
      else {
        throw new DataError(
          'DATA_NOT_FINITE',
          `record ${i}, attribute "${a.name}": ${JSON.stringify(raw)} is not a value`,
          {
            attribute: a.name,
            row: i,
          },
        );
      }
      x[i * d + j] = v;
    }
    if (!Object.hasOwn(rec, schema.outcome.name)) {
      throw new DataError('DATA_MISSING_COLUMN', `record ${i} lacks the outcome "${schema.outcome.name}"`, {
        attribute: schema.outcome.name,
        row: i,
      });
    }
    const out = rec[schema.outcome.name];
    const code = typeof out === 'string' ? outcomeCodes.get(out) : out;
    if (typeof code !== 'number') {
      throw new DataError(
        'DATA_UNKNOWN_CATEGORY',
        `record ${i}: unknown outcome label ${JSON.stringify(out)}`,
        {
          attribute: schema.outcome.name,
          row: i,
        },
      );
    }
    // Checked before the Int32Array store, which would truncate 1.5 to 1 and NaN to 0.
    if (!Number.isInteger(code) || code < 0 || code >= schema.outcome.labels.length) {
      throw new DataError(
        'DATA_OUT_OF_DOMAIN',
        `record ${i}: outcome ${code} is not a code of [${schema.outcome.labels}]`,
        { attribute: schema.outcome.name, row: i },
      );
    }
    y[i] = code;
  }
  return createDataset({ schema, x, y, ...(name !== undefined ? { name } : {}) });
}

/**
 * Checks an audit needs beyond `createDataset`: at least one row, and at least two outcome classes
 * (a single-class outcome usually means the wrong column was chosen).
 */
export function assertAuditable(ds: Dataset): void {
  if (ds.n === 0) throw new DataError('DATA_EMPTY', 'the dataset has no rows');
  const first = ds.y[0]!;
  for (let i = 1; i < ds.n; i++) if (ds.y[i] !== first) return;
  throw new DataError(
    'DATA_SINGLE_CLASS',
    `every row has outcome "${ds.schema.outcome.labels[first]}": an audit needs at least two outcome classes`,
    { attribute: ds.schema.outcome.name },
  );
}

/** The rows at `indices`, as a new dataset over the same schema. */
export function subsetRows(ds: Dataset, indices: ArrayLike<number>): Dataset {
  const { d } = ds;
  const x = new Float64Array(indices.length * d);
  const y = new Int32Array(indices.length);
  for (let r = 0; r < indices.length; r++) {
    const i = indices[r]!;
    if (!(Number.isInteger(i) && i >= 0 && i < ds.n)) {
      throw new DataError('DATA_SHAPE', `row index ${i} is not an integer in [0, ${ds.n})`);
    }
    x.set(ds.x.subarray(i * d, i * d + d), r * d);
    y[r] = ds.y[i]!;
  }
  return Object.freeze({
    schema: ds.schema,
    n: indices.length,
    d,
    x,
    y,
    ...(ds.name ? { name: ds.name } : {}),
  });
}

/** Stable content fingerprint of a dataset (schema, values, labels). */
export function datasetFingerprint(ds: Dataset): string {
  const h = new Hasher().string(JSON.stringify(ds.schema));
  return h.numbers(ds.x).numbers(ds.y).digest();
}

/** Check that a model-query batch has the schema's width; returns the row count. */
export function rowCount(schema: Schema, x: Float64Array): number {
  const d = schema.attributes.length;
  if (x.length % d !== 0) {
    throw new DataError(
      'DATA_SHAPE',
      `a batch of ${x.length} values is not a whole number of rows of width ${d}`,
    );
  }
  return x.length / d;
}

/**
 * Re-validate something that claims to be a Dataset (it may have been built by hand, bypassing
 * `createDataset`) and check it is auditable. Returns a validated, frozen dataset.
 */
export function checkDataset(value: unknown): Dataset {
  if (value === null || typeof value !== 'object') {
    throw new DataError('DATA_SHAPE', 'a dataset object with schema, x and y is required');
  }
  const ds = value as Partial<Dataset>;
  if (!(ds.x instanceof Float64Array))
    throw new DataError('DATA_SHAPE', 'dataset.x must be a Float64Array (n x d, row-major)');
  if (!(ds.y instanceof Int32Array))
    throw new DataError('DATA_SHAPE', 'dataset.y must be an Int32Array of outcome codes');
  const checked = createDataset({
    schema: ds.schema as Dataset['schema'],
    x: ds.x,
    y: ds.y,
    ...(typeof ds.name === 'string' ? { name: ds.name } : {}),
  });
  if ((ds.n !== undefined && ds.n !== checked.n) || (ds.d !== undefined && ds.d !== checked.d)) {
    throw new DataError(
      'DATA_SHAPE',
      `dataset says n=${ds.n}, d=${ds.d} but its arrays hold n=${checked.n}, d=${checked.d}`,
    );
  }
  assertAuditable(checked);
  return checked;
}
