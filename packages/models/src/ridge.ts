import { DataError, OptionsError } from '@fb/core';
import { choleskySolveInPlace } from './cholesky.js';

export interface RidgeOptions {
  /** L2 penalty on the weights (the intercept is never penalised), as scikit-learn's `Ridge(alpha)`. */
  alpha: number;
  /**
   * Penalty floor as a fraction of the mean diagonal of the centred Gram matrix (default 0): the penalty
   * used is max(alpha, relativeAlpha · trace / d). A tiny floor with alpha = 0 gives, to rounding, the
   * minimum-norm least-squares solution (scikit-learn's `LinearRegression`) when columns are collinear.
   */
  relativeAlpha?: number;
  /** One non-negative weight per row of `x` (default 1 each). */
  sampleWeight?: Float64Array;
  /** The rows of `x` the regression is fitted on (default all); targets stay indexed by row of `x`. */
  rows?: Int32Array;
}

/** A fitted linear function: intercept + x·weights. */
export interface RidgeFit {
  weights: Float64Array;
  intercept: number;
}

/**
 * The ridge system of one design, centred and factorised: what `RidgeSolver` fits targets with. From
 * `factorRidge`, which can be stopped part way.
 */
export interface RidgeFactor {
  /** Number of design columns. */
  readonly d: number;
  /** Weighted column means over the fitted rows. */
  readonly means: Float64Array;
  readonly weightSum: number;
  /** d x d, lower triangle: the Cholesky factor of Xcᵀ W Xc + λ I. */
  readonly factor: Float64Array;
  /** 1 for the columns whose weight is fixed at 0 (undetermined without a penalty). */
  readonly dropped: Uint8Array;
}

/** Multiply-adds of the Gram accumulation between two polls of `shouldStop` (about a millisecond). */
const POLL_WORK = 1 << 20;

/**
 * Centre the design and factorise its ridge system (see `RidgeSolver`). `shouldStop` is polled every
 * `POLL_WORK` multiply-adds of the Gram matrix and every column of the factorisation; the function returns
 * null as soon as it says stop. Without a stop, the factor is the one `new RidgeSolver(x, d, options)` uses.
 */
export function factorRidge(
  x: Float64Array,
  d: number,
  options: RidgeOptions,
  shouldStop?: () => boolean,
): RidgeFactor | null {
  const { alpha, relativeAlpha = 0, sampleWeight, rows = null } = options;
  if (!(alpha >= 0) || !Number.isFinite(alpha)) {
    throw new OptionsError('OPTIONS_INVALID', `alpha must be a finite number >= 0, got ${alpha}`, {
      option: '/alpha',
    });
  }
  if (!(relativeAlpha >= 0) || !Number.isFinite(relativeAlpha)) {
    throw new OptionsError(
      'OPTIONS_INVALID',
      `relativeAlpha must be a finite number >= 0, got ${relativeAlpha}`,
      { option: '/relativeAlpha' },
    );
  }
  if (!Number.isInteger(d) || d < 1 || x.length % d !== 0) {
    throw new DataError(
      'DATA_SHAPE',
      `a design of ${x.length} values is not a whole number of rows of width ${d}`,
    );
  }
  const n = x.length / d;
  if (sampleWeight && sampleWeight.length !== n) {
    throw new DataError(
      'DATA_SHAPE',
      `sampleWeight holds ${sampleWeight.length} values, the design ${n} rows`,
    );
  }
  const m = rows ? rows.length : n;

  const means = new Float64Array(d);
  let weightSum = 0;
  for (let r = 0; r < m; r++) {
    const i = rows ? rows[r]! : r;
    const wi = sampleWeight ? sampleWeight[i]! : 1;
    weightSum += wi;
    const off = i * d;
    for (let j = 0; j < d; j++) means[j]! += wi * x[off + j]!;
  }
  if (weightSum > 0) for (let j = 0; j < d; j++) means[j]! /= weightSum;

  // Lower triangle of Xcᵀ W Xc.
  const a = new Float64Array(d * d);
  const c = new Float64Array(d);
  const rowsPerPoll = Math.max(1, Math.floor(POLL_WORK / ((d * (d + 1)) / 2)));
  for (let r = 0; r < m; r++) {
    if (shouldStop && r % rowsPerPoll === 0 && shouldStop()) return null;
    const i = rows ? rows[r]! : r;
    const wi = sampleWeight ? sampleWeight[i]! : 1;
    if (wi === 0) continue;
    const off = i * d;
    for (let j = 0; j < d; j++) c[j] = x[off + j]! - means[j]!;
    for (let j = 0; j < d; j++) {
      const v = wi * c[j]!;
      if (v === 0) continue;
      for (let k = 0; k <= j; k++) a[j * d + k]! += v * c[k]!;
    }
  }
  let trace = 0;
  for (let j = 0; j < d; j++) trace += a[j * d + j]!;
  const lambda = Math.max(alpha, (relativeAlpha * trace) / d);
  let scale = 0;
  for (let j = 0; j < d; j++) {
    a[j * d + j]! += lambda;
    scale = Math.max(scale, a[j * d + j]!);
  }
  const dropped = new Uint8Array(d);
  if (!factorise(a, d, dropped, lambda > 0 ? 0 : 1e-12 * scale, shouldStop)) return null;
  return { d, means, weightSum, factor: a, dropped };
}

/**
 * Cholesky factor of `a` in place; a pivot at most `tol` drops its column (unit diagonal, zero row and
 * column). False when `shouldStop` (polled every column) stopped it.
 */
function factorise(
  a: Float64Array,
  d: number,
  dropped: Uint8Array,
  tol: number,
  shouldStop: (() => boolean) | undefined,
): boolean {
  for (let j = 0; j < d; j++) {
    if (shouldStop?.()) return false;
    const rj = j * d;
    let diag = a[rj + j]!;
    for (let k = 0; k < j; k++) diag -= a[rj + k]! * a[rj + k]!;
    if (!(diag > tol)) {
      dropped[j] = 1;
      a.fill(0, rj, rj + j);
      a[rj + j] = 1;
      for (let i = j + 1; i < d; i++) a[i * d + j] = 0;
      continue;
    }
    const ljj = Math.sqrt(diag);
    a[rj + j] = ljj;
    for (let i = j + 1; i < d; i++) {
      const ri = i * d;
      let s = a[ri + j]!;
      for (let k = 0; k < j; k++) s -= a[ri + k]! * a[rj + k]!;
      a[ri + j] = s / ljj;
    }
  }
  return true;
}

/**
 * Weighted ridge regression with an unpenalised intercept, as scikit-learn's `Ridge(alpha)` fits it: centre
 * the columns and the target on their weighted means over the fitted rows, solve
 * (Xcᵀ W Xc + λ I) w = Xcᵀ W yc and set intercept = ȳ − x̄ᵀw. The design is factorised (Cholesky) once, so
 * any number of targets can be fitted on it.
 *
 * A positive penalty makes the system positive definite. Without one (λ = 0), a direction the fitted rows
 * leave undetermined (a pivot at most 1e-12 of the largest diagonal, e.g. a constant column) gets weight 0.
 */
export class RidgeSolver {
  /** Number of design columns. */
  readonly d: number;
  private readonly rows: Int32Array | null;
  private readonly weight: Float64Array | undefined;
  private readonly n: number;
  private readonly x: Float64Array;
  private readonly means: Float64Array;
  private readonly weightSum: number;
  private readonly factor: Float64Array;
  /** 1 for the columns whose weight is fixed at 0 (undetermined without a penalty). */
  private readonly dropped: Uint8Array;

  /**
   * `x` is n x d row-major. `factored`: the system `factorRidge` factorised for the same `x`, `d` and
   * `options` (e.g. under a time budget); by default it is factorised here.
   */
  constructor(x: Float64Array, d: number, options: RidgeOptions, factored?: RidgeFactor) {
    const f = factored ?? factorRidge(x, d, options)!;
    if (f.d !== d || f.factor.length !== d * d || x.length % d !== 0) {
      throw new DataError(
        'DATA_SHAPE',
        `a factor of width ${f.d} does not fit a design of ${x.length} values of width ${d}`,
      );
    }
    this.d = d;
    this.n = x.length / d;
    this.x = x;
    this.rows = options.rows ?? null;
    this.weight = options.sampleWeight;
    this.means = f.means;
    this.weightSum = f.weightSum;
    this.factor = f.factor;
    this.dropped = f.dropped;
  }

  /** Fit the target `y` (one value per row of `x`; only the fitted rows are read). */
  fit(y: Float64Array): RidgeFit {
    const { d, n, x, rows, weight, means } = this;
    if (y.length !== n)
      throw new DataError('DATA_SHAPE', `the target holds ${y.length} values, the design ${n} rows`);
    const m = rows ? rows.length : n;
    let mean = 0;
    for (let r = 0; r < m; r++) {
      const i = rows ? rows[r]! : r;
      mean += (weight ? weight[i]! : 1) * y[i]!;
    }
    if (this.weightSum > 0) mean /= this.weightSum;
    const w = new Float64Array(d);
    for (let r = 0; r < m; r++) {
      const i = rows ? rows[r]! : r;
      const wi = weight ? weight[i]! : 1;
      const t = y[i]! - mean;
      if (wi === 0 || t === 0) continue;
      const off = i * d;
      for (let j = 0; j < d; j++) w[j]! += wi * (x[off + j]! - means[j]!) * t;
    }
    for (let j = 0; j < d; j++) if (this.dropped[j]) w[j] = 0;
    choleskySolveInPlace(this.factor, d, w);
    let intercept = mean;
    for (let j = 0; j < d; j++) intercept -= w[j]! * means[j]!;
    return { weights: w, intercept };
  }
}

/** Fit one weighted ridge regression of `y` on the n x d design `x` (see `RidgeSolver`). */
export function fitRidge(x: Float64Array, d: number, y: Float64Array, options: RidgeOptions): RidgeFit {
  return new RidgeSolver(x, d, options).fit(y);
}

/** The fitted function's value intercept + x_row·weights at one row of the n x d design `x`. */
export function linearValue(fit: RidgeFit, x: Float64Array, d: number, row: number): number {
  let s = fit.intercept;
  const off = row * d;
  for (let j = 0; j < d; j++) s += x[off + j]! * fit.weights[j]!;
  return s;
}
