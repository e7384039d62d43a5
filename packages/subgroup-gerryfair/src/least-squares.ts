/**
 * Least-squares linear regression with an intercept on a fixed design, factorised once and solved for
 * any number of targets (the auditor's cost vectors, then each permutation's).
 *
 * The columns are centred over the fitted rows and the Gram matrix gets a ridge of `ridge` times its
 * mean diagonal. With the tiny default the solution is, to rounding, the minimum-norm least-squares
 * solution that scikit-learn's `LinearRegression` returns when one-hot columns are collinear.
 */
export class LinearLeastSquares {
  /** Number of design columns. */
  readonly p: number;
  private readonly design: Float64Array;
  private readonly rows: Int32Array;
  private readonly means: Float64Array;
  private readonly factor: Float64Array;

  /**
   * @param design n x p row-major matrix of every row.
   * @param rows the rows the regression is fitted on.
   */
  constructor(design: Float64Array, p: number, rows: Int32Array, ridge = 1e-9) {
    this.p = p;
    this.design = design;
    this.rows = rows;
    const m = rows.length;
    const means = new Float64Array(p);
    for (let r = 0; r < m; r++) {
      const off = rows[r]! * p;
      for (let j = 0; j < p; j++) means[j]! += design[off + j]!;
    }
    if (m > 0) for (let j = 0; j < p; j++) means[j]! /= m;
    const gram = new Float64Array(p * p);
    const centred = new Float64Array(p);
    for (let r = 0; r < m; r++) {
      const off = rows[r]! * p;
      for (let j = 0; j < p; j++) centred[j] = design[off + j]! - means[j]!;
      for (let j = 0; j < p; j++) {
        const cj = centred[j]!;
        if (cj === 0) continue;
        for (let k = 0; k <= j; k++) gram[j * p + k]! += cj * centred[k]!;
      }
    }
    let trace = 0;
    for (let j = 0; j < p; j++) trace += gram[j * p + j]!;
    const lambda = Math.max((ridge * trace) / Math.max(p, 1), 1e-300);
    for (let j = 0; j < p; j++) gram[j * p + j]! += lambda;
    cholesky(gram, p);
    this.means = means;
    this.factor = gram;
  }

  /** Coefficients and intercept for one target value per fitted row (in `rows` order). */
  solve(target: Float64Array): { weights: Float64Array; intercept: number } {
    const { p, rows, design, means } = this;
    const m = rows.length;
    let mean = 0;
    for (let r = 0; r < m; r++) mean += target[r]!;
    if (m > 0) mean /= m;
    const rhs = new Float64Array(p);
    for (let r = 0; r < m; r++) {
      const t = target[r]! - mean;
      if (t === 0) continue;
      const off = rows[r]! * p;
      for (let j = 0; j < p; j++) rhs[j]! += (design[off + j]! - means[j]!) * t;
    }
    choleskySolve(this.factor, p, rhs);
    let intercept = mean;
    for (let j = 0; j < p; j++) intercept -= rhs[j]! * means[j]!;
    return { weights: rhs, intercept };
  }
}

/** In-place lower Cholesky factor of a symmetric positive-definite p x p matrix (lower triangle read). */
function cholesky(a: Float64Array, p: number): void {
  for (let j = 0; j < p; j++) {
    let d = a[j * p + j]!;
    for (let k = 0; k < j; k++) d -= a[j * p + k]! ** 2;
    const l = Math.sqrt(Math.max(d, 1e-300));
    a[j * p + j] = l;
    for (let i = j + 1; i < p; i++) {
      let s = a[i * p + j]!;
      for (let k = 0; k < j; k++) s -= a[i * p + k]! * a[j * p + k]!;
      a[i * p + j] = s / l;
    }
  }
}

/** Solve L Lᵀ x = b in place, with L from `cholesky`. */
function choleskySolve(l: Float64Array, p: number, b: Float64Array): void {
  for (let i = 0; i < p; i++) {
    let s = b[i]!;
    for (let k = 0; k < i; k++) s -= l[i * p + k]! * b[k]!;
    b[i] = s / l[i * p + i]!;
  }
  for (let i = p - 1; i >= 0; i--) {
    let s = b[i]!;
    for (let k = i + 1; k < p; k++) s -= l[k * p + i]! * b[k]!;
    b[i] = s / l[i * p + i]!;
  }
}

/** Linear function values intercept + design·weights for every row of an n x p design. */
export function linearValues(
  design: Float64Array,
  p: number,
  weights: Float64Array,
  intercept: number,
): Float64Array {
  const n = design.length / p;
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let s = intercept;
    const off = i * p;
    for (let j = 0; j < p; j++) s += design[off + j]! * weights[j]!;
    out[i] = s;
  }
  return out;
}
