import { DataError, defineSchema, InteropError, OptionsError, type Schema } from '@fb/core';
import { checkWeights } from './weights.js';

export type CategoricalEncoding = 'one-hot' | 'ordinal';

export interface EncoderOptions {
  /** How categorical attributes are encoded: one 0/1 column per category, or their code standardised. */
  categorical?: CategoricalEncoding;
  /** Training-row weights for the mean and standard deviation (default: all 1). */
  weights?: Float64Array;
}

/** How one raw attribute maps to encoded columns. */
export type AttributeEncoding =
  | { readonly name: string; readonly encoding: 'one-hot'; readonly categories: readonly string[] }
  | { readonly name: string; readonly encoding: 'standard'; readonly mean: number; readonly sd: number };

export interface EncoderJSON {
  readonly categorical: CategoricalEncoding;
  readonly attributes: readonly AttributeEncoding[];
}

/**
 * Every encoded row as exactly one (column, value) entry per raw attribute: the active one-hot column
 * with value 1, or the standardised column with its value. `index` and `value` are n x d, row-major.
 */
export interface SparseRows {
  readonly index: Int32Array;
  readonly value: Float64Array;
}

/**
 * Maps raw rows (schema attribute order) to model inputs: categorical attributes one-hot (or their code
 * standardised), ordinal and continuous attributes standardised with the training mean and standard
 * deviation (population form; a constant column gets sd 1). Each encoded column depends on exactly one
 * raw attribute, so input gradients follow by a per-attribute slope.
 */
export class FeatureEncoder {
  readonly categorical: CategoricalEncoding;
  readonly attributes: readonly AttributeEncoding[];
  /** Number of raw attributes (d). */
  readonly nFeatures: number;
  /** Number of encoded columns. */
  readonly encodedWidth: number;
  /** First encoded column of each raw attribute. */
  readonly offset: Int32Array;
  /** d(encoded column)/d(raw value) per attribute: 1/sd when standardised, 0 for one-hot. */
  readonly slope: Float64Array;
  /** Readable name of each encoded column, e.g. `sex=Male` or `age`. */
  readonly columnNames: readonly string[];
  // Per attribute: one-hot level count, or 0 for a standardised column.
  private readonly levels: Int32Array;
  private readonly mean: Float64Array;

  private constructor(json: EncoderJSON) {
    const d = json.attributes.length;
    this.categorical = json.categorical;
    this.attributes = Object.freeze(
      json.attributes.map((a) =>
        Object.freeze(
          a.encoding === 'one-hot' ? { ...a, categories: Object.freeze([...a.categories]) } : { ...a },
        ),
      ),
    );
    this.nFeatures = d;
    this.offset = new Int32Array(d);
    this.slope = new Float64Array(d);
    this.levels = new Int32Array(d);
    this.mean = new Float64Array(d);
    const names: string[] = [];
    let width = 0;
    for (let j = 0; j < d; j++) {
      const a = json.attributes[j]!;
      this.offset[j] = width;
      if (a.encoding === 'one-hot') {
        this.levels[j] = a.categories.length;
        for (const c of a.categories) names.push(`${a.name}=${c}`);
        width += a.categories.length;
      } else {
        this.mean[j] = a.mean;
        this.slope[j] = 1 / a.sd;
        names.push(a.name);
        width += 1;
      }
    }
    this.encodedWidth = width;
    this.columnNames = Object.freeze(names);
  }

  /** Learn the encoding from n training rows `x` (n x d, row-major) over `schema`. */
  static fit(schema: Schema, x: Float64Array, n: number, options: EncoderOptions = {}): FeatureEncoder {
    const s = defineSchema(schema);
    const categorical = options.categorical ?? 'one-hot';
    if (categorical !== 'one-hot' && categorical !== 'ordinal') {
      throw new OptionsError(
        'OPTIONS_INVALID',
        `categorical must be "one-hot" or "ordinal", got ${String(categorical)}`,
        {
          option: '/categorical',
        },
      );
    }
    const d = s.attributes.length;
    if (!Number.isInteger(n) || n < 1)
      throw new DataError('DATA_EMPTY', 'the encoder needs at least one training row');
    if (x.length !== n * d) {
      throw new DataError(
        'DATA_SHAPE',
        `expected ${n} rows of width ${d} (${n * d} values), got ${x.length}`,
      );
    }
    const w = options.weights;
    if (w !== undefined) checkWeights(w, n);
    const attributes: AttributeEncoding[] = s.attributes.map((a, j) => {
      if (a.kind === 'categorical' && categorical === 'one-hot') {
        return { name: a.name, encoding: 'one-hot', categories: a.categories! };
      }
      const { mean, sd } = weightedMoments(x, n, d, j, w, a.name);
      return { name: a.name, encoding: 'standard', mean, sd };
    });
    return new FeatureEncoder({ categorical, attributes });
  }

  /** Rebuild an encoder from `toJSON()` output. */
  static fromJSON(json: unknown): FeatureEncoder {
    const bad = (msg: string): never => {
      throw new InteropError('INTEROP_PARSE', `stored encoder: ${msg}`);
    };
    const j = json as Partial<EncoderJSON> | null;
    if (j === null || typeof j !== 'object') bad('not an object');
    if (j!.categorical !== 'one-hot' && j!.categorical !== 'ordinal')
      bad('categorical must be "one-hot" or "ordinal"');
    if (!Array.isArray(j!.attributes) || j!.attributes.length === 0)
      bad('attributes must be a non-empty array');
    const attributes = j!.attributes!.map((a, i): AttributeEncoding => {
      if (a === null || typeof a !== 'object' || typeof a.name !== 'string')
        bad(`attribute #${i} has no name`);
      if (a.encoding === 'one-hot') {
        const cats = a.categories as unknown;
        if (!Array.isArray(cats) || cats.length === 0 || !cats.every((c) => typeof c === 'string')) {
          bad(`attribute "${a.name}": categories must be a non-empty array of labels`);
        }
        return { name: a.name, encoding: 'one-hot', categories: cats as string[] };
      }
      if (a.encoding === 'standard') {
        if (!Number.isFinite(a.mean) || !(a.sd > 0) || !Number.isFinite(a.sd)) {
          bad(`attribute "${a.name}": needs a finite mean and a positive sd`);
        }
        return { name: a.name, encoding: 'standard', mean: a.mean, sd: a.sd };
      }
      return bad(`attribute #${i}: encoding must be "one-hot" or "standard"`);
    });
    return new FeatureEncoder({ categorical: j!.categorical!, attributes });
  }

  toJSON(): EncoderJSON {
    return {
      categorical: this.categorical,
      attributes: this.attributes.map((a) =>
        a.encoding === 'one-hot' ? { ...a, categories: [...a.categories] } : { ...a },
      ),
    };
  }

  /** Check a batch's width and return its row count. */
  rows(x: Float64Array): number {
    const d = this.nFeatures;
    if (x.length % d !== 0) {
      throw new DataError(
        'DATA_SHAPE',
        `a batch of ${x.length} values is not a whole number of rows of width ${d}`,
      );
    }
    return x.length / d;
  }

  /** Encode n rows into a dense n x encodedWidth matrix (row-major); `out` is reused when given. */
  encode(x: Float64Array, n: number, out?: Float64Array): Float64Array {
    this.checkBatch(x, n);
    const d = this.nFeatures;
    const p = this.encodedWidth;
    const z = out ?? new Float64Array(n * p);
    if (z.length !== n * p)
      throw new DataError('DATA_SHAPE', `output buffer holds ${z.length} values, need ${n * p}`);
    if (out) z.fill(0);
    for (let i = 0; i < n; i++) {
      const row = i * p;
      for (let j = 0; j < d; j++) {
        const v = x[i * d + j]!;
        if (this.levels[j]! > 0) z[row + this.offset[j]! + this.code(v, j, i)] = 1;
        else z[row + this.offset[j]!] = this.standardise(v, j, i);
      }
    }
    return z;
  }

  /** Encode n rows as one (column, value) entry per attribute: the form linear models iterate over. */
  encodeSparse(x: Float64Array, n: number): SparseRows {
    this.checkBatch(x, n);
    const d = this.nFeatures;
    const index = new Int32Array(n * d);
    const value = new Float64Array(n * d);
    for (let i = 0; i < n; i++) this.encodeRow(x, i, index, value, i * d);
    return { index, value };
  }

  /** Row i of x as its d (column, value) entries, into `index` and `value` from position `at`. */
  private encodeRow(x: Float64Array, i: number, index: Int32Array, value: Float64Array, at: number): void {
    const d = this.nFeatures;
    for (let j = 0; j < d; j++) {
      const v = x[i * d + j]!;
      if (this.levels[j]! > 0) {
        index[at + j] = this.offset[j]! + this.code(v, j, i);
        value[at + j] = 1;
      } else {
        index[at + j] = this.offset[j]!;
        value[at + j] = this.standardise(v, j, i);
      }
    }
  }

  /**
   * Linear scores of n rows without building their encoding: `out[i*R + r] = bias[r] + Σ_j
   * weights[r*encodedWidth + column_ij] * value_ij`, summed over attributes in order, the same bits as
   * the sum over `encodeSparse`'s entries. A batch of a million rows would otherwise allocate 240 MB
   * of entries, and filling fresh memory costs more than the arithmetic.
   */
  linearScores(x: Float64Array, n: number, weights: Float64Array, bias: Float64Array): Float64Array {
    this.checkBatch(x, n);
    const d = this.nFeatures;
    const p = this.encodedWidth;
    const R = bias.length;
    if (weights.length !== R * p) {
      throw new DataError(
        'DATA_SHAPE',
        `expected ${R} x ${p} weights (one row per intercept), got ${weights.length} values`,
      );
    }
    const index = new Int32Array(d);
    const value = new Float64Array(d);
    const out = new Float64Array(n * R);
    for (let i = 0; i < n; i++) {
      this.encodeRow(x, i, index, value, 0);
      for (let r = 0; r < R; r++) {
        let s = bias[r]!;
        for (let j = 0; j < d; j++) s += weights[r * p + index[j]!]! * value[j]!;
        out[i * R + r] = s;
      }
    }
    return out;
  }

  /**
   * Chain rule back through the encoding: from the gradient w.r.t. the n x encodedWidth encoded input to
   * the gradient w.r.t. the n x d raw input. One-hot attributes get 0 (the encoding is piecewise
   * constant in the code).
   */
  backpropagate(gradEncoded: Float64Array, n: number, out?: Float64Array): Float64Array {
    const d = this.nFeatures;
    const p = this.encodedWidth;
    if (gradEncoded.length !== n * p) {
      throw new DataError(
        'DATA_SHAPE',
        `expected ${n} x ${p} encoded gradients, got ${gradEncoded.length} values`,
      );
    }
    const g = out ?? new Float64Array(n * d);
    if (g.length !== n * d)
      throw new DataError('DATA_SHAPE', `output buffer holds ${g.length} values, need ${n * d}`);
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < d; j++) g[i * d + j] = gradEncoded[i * p + this.offset[j]!]! * this.slope[j]!;
    }
    return g;
  }

  private checkBatch(x: Float64Array, n: number): void {
    if (x.length !== n * this.nFeatures) {
      throw new DataError(
        'DATA_SHAPE',
        `expected ${n} rows of width ${this.nFeatures} (${n * this.nFeatures} values), got ${x.length}`,
      );
    }
  }

  private standardise(v: number, j: number, row: number): number {
    if (!Number.isFinite(v)) this.notFinite(v, j, row);
    return (v - this.mean[j]!) * this.slope[j]!;
  }

  // Category codes are rounded to the nearest level, so the encoding is piecewise constant in the code.
  private code(v: number, j: number, row: number): number {
    const c = Math.round(v);
    if (c >= 0 && c < this.levels[j]!) return c;
    if (!Number.isFinite(v)) this.notFinite(v, j, row);
    const name = this.attributes[j]!.name;
    throw new DataError(
      'DATA_OUT_OF_DOMAIN',
      `row ${row}, attribute "${name}": code ${v} is not one of 0..${this.levels[j]! - 1}`,
      { attribute: name, row },
    );
  }

  private notFinite(v: number, j: number, row: number): never {
    const name = this.attributes[j]!.name;
    throw new DataError(
      'DATA_NOT_FINITE',
      `row ${row}, attribute "${name}": value ${v} is not a finite number`,
      {
        attribute: name,
        row,
      },
    );
  }
}

function weightedMoments(
  x: Float64Array,
  n: number,
  d: number,
  j: number,
  w: Float64Array | undefined,
  name: string,
): { mean: number; sd: number } {
  let total = 0;
  let sum = 0;
  for (let i = 0; i < n; i++) {
    const v = x[i * d + j]!;
    if (!Number.isFinite(v)) {
      throw new DataError(
        'DATA_NOT_FINITE',
        `row ${i}, attribute "${name}": value ${v} is not a finite number`,
        {
          attribute: name,
          row: i,
        },
      );
    }
    const wi = w ? w[i]! : 1;
    total += wi;
    sum += wi * v;
  }
  const mean = sum / total;
  let ss = 0;
  for (let i = 0; i < n; i++) {
    const dv = x[i * d + j]! - mean;
    ss += (w ? w[i]! : 1) * dv * dv;
  }
  const sd = Math.sqrt(ss / total);
  // A (numerically) constant column would divide by ~0: it keeps its centring and gets sd 1.
  const constant = !(sd > 1e-12 * Math.max(1, Math.abs(mean)));
  return { mean, sd: constant ? 1 : sd };
}
