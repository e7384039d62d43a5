import { ModelError } from './errors.js';
import { GrowableArray, RowIndex } from './row-index.js';

/**
 * A model under audit. Every call takes a batch: `x` holds n rows of `nFeatures` values, row-major,
 * in the schema's attribute order. The batch is the caller's, valid during the call only: a model
 * reads it and neither changes nor keeps it (a counting wrapper reuses its buffer for the next batch).
 */
export interface Classifier {
  readonly nFeatures: number;
  /** Number of outcome classes; predictions are codes 0..nClasses-1. */
  readonly nClasses: number;
  /** Predicted class code of each row. */
  predict(x: Float64Array): Int32Array;
  /** Class probabilities, n x nClasses row-major. Optional: black-box models may not expose them. */
  predictProba?(x: Float64Array): Float64Array;
  /** A short description, recorded in results (e.g. `logistic-regression(l2=1)`). */
  readonly description?: string;
}

/** A classifier that also gives input gradients of its decision score (white-box methods). */
export interface DifferentiableClassifier extends Classifier {
  /**
   * Decision score of each row (the probability of class 1 for binary models) and its gradient with
   * respect to the n x d input, row-major.
   */
  scoreGradient(x: Float64Array): { score: Float64Array; gradient: Float64Array };
}

export function isDifferentiable(model: Classifier): model is DifferentiableClassifier {
  return typeof (model as Partial<DifferentiableClassifier>).scoreGradient === 'function';
}

/**
 * A model wrapper that can use the row index of the `CountingClassifier` in front of it instead of
 * hashing every row again (a query clock, for one). The counter offers its index once, when it is
 * built, before any query; the wrapper returns false to decline and keep its own. Every row the
 * counter adds to its index is forwarded to the wrapper in the same call, so the index's ids are the
 * wrapper's distinct rows in order of first query.
 */
export interface RowIndexSharing {
  adoptRowIndex(index: RowIndex): boolean;
}

export function sharesRowIndex(model: Classifier): model is Classifier & RowIndexSharing {
  return typeof (model as Partial<RowIndexSharing>).adoptRowIndex === 'function';
}

export interface QueryStats {
  /** Rows asked for, repeats included. */
  queries: number;
  /** Distinct rows actually sent to the model. */
  distinctQueries: number;
  /** Model calls made (batches). */
  batches: number;
}

/**
 * Wraps a model so that every query is counted and no identical row is sent twice: labels and
 * probabilities are cached per distinct row, and each batch forwards only its unseen rows, once.
 * One row index serves both caches: each row of a batch is hashed once, and a row counts as a
 * distinct query the first time it is sent for either.
 */
export class CountingClassifier implements Classifier {
  readonly nFeatures: number;
  readonly nClasses: number;
  readonly description?: string;
  readonly inner: Classifier;
  private readonly index: RowIndex;
  /** Per row id: its label, -1 while not asked. */
  private readonly labels = new GrowableArray((n) => new Int32Array(n).fill(-1));
  /** Per row id: nClasses probabilities, NaN while not asked. */
  private readonly probas = new GrowableArray((n) => new Float64Array(n).fill(Number.NaN));
  private readonly stats: QueryStats = { queries: 0, distinctQueries: 0, batches: 0 };
  private ids = new Int32Array(0);
  private pending = new Int32Array(0);
  /** The unseen rows of a batch, gathered for the model; reused from batch to batch. */
  private gathered = new Float64Array(0);

  constructor(inner: Classifier) {
    if (!inner || typeof inner.predict !== 'function') {
      throw new ModelError('MODEL_MISSING', 'a model with a predict(x) method is required');
    }
    if (!Number.isInteger(inner.nFeatures) || inner.nFeatures <= 0) {
      throw new ModelError(
        'MODEL_MISMATCH',
        `model.nFeatures must be a positive integer, got ${inner.nFeatures}`,
      );
    }
    if (!Number.isInteger(inner.nClasses) || inner.nClasses < 2) {
      throw new ModelError('MODEL_MISMATCH', `model.nClasses must be an integer >= 2, got ${inner.nClasses}`);
    }
    this.inner = inner;
    this.nFeatures = inner.nFeatures;
    this.nClasses = inner.nClasses;
    if (inner.description !== undefined) this.description = inner.description;
    this.index = new RowIndex(inner.nFeatures);
    if (sharesRowIndex(inner)) inner.adoptRowIndex(this.index);
  }

  /** Counts so far. */
  get queryStats(): Readonly<QueryStats> {
    return { ...this.stats };
  }

  /** Distinct rows sent to the model so far (allocation-free, for budget checks in hot loops). */
  get distinctQueries(): number {
    return this.stats.distinctQueries;
  }

  get hasProba(): boolean {
    return typeof this.inner.predictProba === 'function';
  }

  private rows(x: Float64Array): number {
    const d = this.nFeatures;
    if (x.length % d !== 0) {
      throw new ModelError('MODEL_MISMATCH', `a batch of ${x.length} values is not whole rows of width ${d}`);
    }
    return x.length / d;
  }

  /**
   * Index the batch's rows (their ids in `this.ids`) and collect each row whose cached value (at
   * `id * stride` in `cache`) is unset, once, in order of first occurrence, into one batch for the
   * model. Their positions in x go to `this.pending[0 .. fresh)`; they are marked ASKED until answered.
   */
  private unseen<T extends Int32Array | Float64Array>(
    x: Float64Array,
    n: number,
    cache: GrowableArray<T>,
    stride: number,
  ): Float64Array {
    const d = this.nFeatures;
    if (this.ids.length < n) {
      this.ids = new Int32Array(n);
      this.pending = new Int32Array(n);
    }
    const ids = this.ids;
    const pending = this.pending;
    this.stats.queries += n;
    this.stats.distinctQueries += this.index.getOrAddAll(x, n, ids);
    const store = cache.ensure(this.index.size * stride);
    let fresh = 0;
    for (let i = 0; i < n; i++) {
      const at = ids[i]! * stride;
      const v = store[at]!;
      if (v === UNSET || Number.isNaN(v)) {
        store[at] = ASKED;
        pending[fresh++] = i;
      }
    }
    if (fresh > 0) this.stats.batches++;
    // Every row new and none repeated: the model gets the batch as it came.
    if (fresh === n) return x;
    if (this.gathered.length < fresh * d) {
      const grown = new Float64Array(fresh * d);
      // Kept for the next batches up to a bound, so that one huge batch does not pin its memory.
      if (grown.byteLength > GATHER_KEEP_BYTES) return this.fill(grown, x, fresh);
      this.gathered = grown;
    }
    return this.fill(this.gathered.subarray(0, fresh * d), x, fresh);
  }

  /** Copy the `fresh` rows of x at `this.pending` into batch, in order. */
  private fill(batch: Float64Array, x: Float64Array, fresh: number): Float64Array {
    const d = this.nFeatures;
    const pending = this.pending;
    for (let k = 0; k < fresh; k++) {
      const from = pending[k]! * d;
      for (let j = 0; j < d; j++) batch[k * d + j] = x[from + j]!;
    }
    return batch;
  }

  /** Unmark rows collected by `unseen` when the model failed to answer them. */
  private release<T extends Int32Array | Float64Array>(
    cache: GrowableArray<T>,
    stride: number,
    fresh: number,
    unset: number,
  ): void {
    const store = cache.array;
    for (let k = 0; k < fresh; k++) store[this.ids[this.pending[k]!]! * stride] = unset;
  }

  predict(x: Float64Array): Int32Array {
    const n = this.rows(x);
    const batch = this.unseen(x, n, this.labels, 1);
    const fresh = batch.length / this.nFeatures;
    if (fresh > 0) {
      try {
        const out = this.inner.predict(batch);
        if (!out || out.length !== fresh) {
          throw new ModelError(
            'MODEL_OUTPUT',
            `model.predict returned ${out?.length} labels for ${fresh} rows`,
          );
        }
        for (let k = 0; k < fresh; k++) {
          const v = out[k]!;
          if (!Number.isInteger(v) || v < 0 || v >= this.nClasses) {
            throw new ModelError(
              'MODEL_OUTPUT',
              `model.predict returned ${v}, not a class code 0..${this.nClasses - 1}`,
            );
          }
        }
        const store = this.labels.array;
        for (let k = 0; k < fresh; k++) store[this.ids[this.pending[k]!]!] = out[k]!;
      } catch (e) {
        this.release(this.labels, 1, fresh, UNSET);
        throw e;
      }
    }
    const store = this.labels.array;
    const ids = this.ids;
    const result = new Int32Array(n);
    for (let i = 0; i < n; i++) result[i] = store[ids[i]!]!;
    return result;
  }

  predictProba(x: Float64Array): Float64Array {
    if (!this.inner.predictProba) {
      throw new ModelError(
        'MODEL_MISMATCH',
        'this method needs class probabilities, but the model has no predictProba',
      );
    }
    const n = this.rows(x);
    const c = this.nClasses;
    const batch = this.unseen(x, n, this.probas, c);
    const fresh = batch.length / this.nFeatures;
    if (fresh > 0) {
      try {
        const out = this.inner.predictProba(batch);
        if (!out || out.length !== fresh * c) {
          throw new ModelError(
            'MODEL_OUTPUT',
            `model.predictProba returned ${out?.length} values for ${fresh} rows x ${c}`,
          );
        }
        for (let r = 0; r < fresh; r++) {
          let sum = 0;
          for (let k = r * c; k < (r + 1) * c; k++) {
            const p = out[k]!;
            if (!(p >= 0 && p <= 1))
              throw new ModelError('MODEL_OUTPUT', `model.predictProba returned ${p}, not in [0, 1]`);
            sum += p;
          }
          // Rounding in a softmax or a forest's vote leaves ~1e-12; a row off by more is not a distribution.
          if (!(Math.abs(sum - 1) <= 1e-6)) {
            throw new ModelError(
              'MODEL_OUTPUT',
              `model.predictProba returned a row of probabilities summing to ${sum}, not 1`,
              { row: r },
            );
          }
        }
        const store = this.probas.array;
        for (let k = 0; k < fresh; k++) {
          const at = this.ids[this.pending[k]!]! * c;
          for (let m = 0; m < c; m++) store[at + m] = out[k * c + m]!;
        }
      } catch (e) {
        this.release(this.probas, c, fresh, Number.NaN);
        throw e;
      }
    }
    const store = this.probas.array;
    const ids = this.ids;
    const result = new Float64Array(n * c);
    for (let i = 0; i < n; i++) {
      const base = ids[i]! * c;
      for (let k = 0; k < c; k++) result[i * c + k] = store[base + k]!;
    }
    return result;
  }
}

/** The largest gather buffer a counting wrapper keeps between batches (64 MB). */
const GATHER_KEEP_BYTES = 64 * 2 ** 20;

/** Cache markers: a label not yet asked (probabilities use NaN), and a value asked in this batch. */
const UNSET = -1;
const ASKED = -2;
