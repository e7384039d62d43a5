/**
 * Weighted ridge regression with an unpenalised intercept, as scikit-learn's `Ridge(alpha)` fits it
 * with sample weights: centre X and y on their weighted means, then solve
 * (Xcᵀ W Xc + alpha I) beta = Xcᵀ W yc. `x` is n x p row-major. Returns the p coefficients and the
 * intercept. A direction the data leave undetermined (zero pivot, alpha 0) gets coefficient 0.
 */
export function weightedRidge(
  x: Float64Array,
  y: Float64Array,
  w: Float64Array,
  p: number,
  alpha: number,
): { coef: Float64Array; intercept: number } {
  const n = y.length;
  let wSum = 0;
  const xMean = new Float64Array(p);
  let yMean = 0;
  for (let i = 0; i < n; i++) {
    const wi = w[i]!;
    wSum += wi;
    yMean += wi * y[i]!;
    for (let j = 0; j < p; j++) xMean[j]! += wi * x[i * p + j]!;
  }
  yMean /= wSum;
  for (let j = 0; j < p; j++) xMean[j]! /= wSum;
  // Augmented normal equations [A | b], p x (p + 1).
  const m = p + 1;
  const a = new Float64Array(p * m);
  const row = new Float64Array(p);
  for (let i = 0; i < n; i++) {
    const wi = w[i]!;
    if (wi === 0) continue;
    for (let j = 0; j < p; j++) row[j] = x[i * p + j]! - xMean[j]!;
    const yc = y[i]! - yMean;
    for (let j = 0; j < p; j++) {
      const v = wi * row[j]!;
      for (let k = j; k < p; k++) a[j * m + k]! += v * row[k]!;
      a[j * m + p]! += v * yc;
    }
  }
  for (let j = 0; j < p; j++) {
    for (let k = 0; k < j; k++) a[j * m + k] = a[k * m + j]!;
    a[j * m + j]! += alpha;
  }
  const coef = solveAugmented(a, p);
  let intercept = yMean;
  for (let j = 0; j < p; j++) intercept -= coef[j]! * xMean[j]!;
  return { coef, intercept };
}

/** Gaussian elimination with partial pivoting on a p x (p + 1) augmented system, in place. */
function solveAugmented(a: Float64Array, p: number): Float64Array {
  const m = p + 1;
  let scale = 0;
  for (let j = 0; j < p; j++) scale = Math.max(scale, Math.abs(a[j * m + j]!));
  const tiny = 1e-12 * (scale || 1);
  const pivotOf = new Int32Array(p).fill(-1);
  let r = 0;
  for (let c = 0; c < p && r < p; c++) {
    let best = r;
    for (let i = r + 1; i < p; i++) if (Math.abs(a[i * m + c]!) > Math.abs(a[best * m + c]!)) best = i;
    if (Math.abs(a[best * m + c]!) <= tiny) continue;
    if (best !== r) {
      for (let k = 0; k < m; k++) {
        const t = a[r * m + k]!;
        a[r * m + k] = a[best * m + k]!;
        a[best * m + k] = t;
      }
    }
    for (let i = 0; i < p; i++) {
      if (i === r) continue;
      const f = a[i * m + c]! / a[r * m + c]!;
      if (f === 0) continue;
      for (let k = c; k < m; k++) a[i * m + k]! -= f * a[r * m + k]!;
    }
    pivotOf[c] = r++;
  }
  const out = new Float64Array(p);
  for (let c = 0; c < p; c++) {
    const pr = pivotOf[c]!;
    if (pr >= 0) out[c] = a[pr * m + p]! / a[pr * m + c]!;
  }
  return out;
}
