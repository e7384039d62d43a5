/**
 * Ridge regression with an unpenalised intercept (scikit-learn's `Ridge(alpha)`: columns and target centred
 * over the training rows, (XᵀX + alpha·I) w = Xᵀy, intercept = ȳ − x̄ᵀw) on a fixed set of training rows of a
 * fixed design. The Cholesky factor is computed once; each boosting round only solves for a new target.
 */
export class Ridge {
  private readonly design: Float64Array;
  private readonly p: number;
  private readonly rows: Int32Array;
  private readonly means: Float64Array;
  private readonly factor: Float64Array;

  /** `design` is n x p row-major over every row; `rows` are the training rows. */
  constructor(design: Float64Array, p: number, rows: Int32Array, alpha: number) {
    this.design = design;
    this.p = p;
    this.rows = rows;
    const m = rows.length;
    const means = new Float64Array(p);
    for (const i of rows) for (let j = 0; j < p; j++) means[j]! += design[i * p + j]!;
    for (let j = 0; j < p; j++) means[j]! /= m;
    const a = new Float64Array(p * p);
    const c = new Float64Array(p);
    for (const i of rows) {
      for (let j = 0; j < p; j++) c[j] = design[i * p + j]! - means[j]!;
      for (let j = 0; j < p; j++) {
        if (c[j] === 0) continue;
        for (let k = 0; k <= j; k++) a[j * p + k]! += c[j]! * c[k]!;
      }
    }
    // A floor keeps alpha = 0 solvable when one-hot columns are collinear (then close to minimum norm).
    let trace = 0;
    for (let j = 0; j < p; j++) trace += a[j * p + j]!;
    const diagonal = Math.max(alpha, (1e-12 * trace) / p, 1e-300);
    for (let j = 0; j < p; j++) a[j * p + j]! += diagonal;
    for (let j = 0; j < p; j++) {
      let d = a[j * p + j]!;
      for (let k = 0; k < j; k++) d -= a[j * p + k]! ** 2;
      const l = Math.sqrt(d);
      a[j * p + j] = l;
      for (let i = j + 1; i < p; i++) {
        let s = a[i * p + j]!;
        for (let k = 0; k < j; k++) s -= a[i * p + k]! * a[j * p + k]!;
        a[i * p + j] = s / l;
      }
    }
    this.means = means;
    this.factor = a;
  }

  /** Fit to `target` (indexed by row of the design) and return the fitted function's weights. */
  fit(target: Float64Array): { weights: Float64Array; intercept: number } {
    const { p, rows, design, means, factor } = this;
    let mean = 0;
    for (const i of rows) mean += target[i]!;
    mean /= rows.length;
    const w = new Float64Array(p);
    for (const i of rows) {
      const t = target[i]! - mean;
      for (let j = 0; j < p; j++) w[j]! += (design[i * p + j]! - means[j]!) * t;
    }
    for (let i = 0; i < p; i++) {
      let s = w[i]!;
      for (let k = 0; k < i; k++) s -= factor[i * p + k]! * w[k]!;
      w[i] = s / factor[i * p + i]!;
    }
    for (let i = p - 1; i >= 0; i--) {
      let s = w[i]!;
      for (let k = i + 1; k < p; k++) s -= factor[k * p + i]! * w[k]!;
      w[i] = s / factor[i * p + i]!;
    }
    let intercept = mean;
    for (let j = 0; j < p; j++) intercept -= w[j]! * means[j]!;
    return { weights: w, intercept };
  }

  /** The fitted function at row i of the design. */
  valueAt(fit: { weights: Float64Array; intercept: number }, i: number): number {
    let s = fit.intercept;
    const off = i * this.p;
    for (let j = 0; j < this.p; j++) s += this.design[off + j]! * fit.weights[j]!;
    return s;
  }
}
