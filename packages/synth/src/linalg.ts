/** Dense symmetric-matrix helpers on row-major Float64Arrays (d x d). */
import { symmetricEigen } from '@fb/core';

/** Lower Cholesky factor of A, or null when A is not (numerically) positive definite. */
export function cholesky(a: Float64Array, d: number): Float64Array | null {
  const l = new Float64Array(d * d);
  for (let i = 0; i < d; i++) {
    for (let j = 0; j <= i; j++) {
      let s = a[i * d + j]!;
      for (let k = 0; k < j; k++) s -= l[i * d + k]! * l[j * d + k]!;
      if (i === j) {
        if (!(s > 1e-12)) return null;
        l[i * d + i] = Math.sqrt(s);
      } else l[i * d + j] = s / l[j * d + j]!;
    }
  }
  return l;
}

/** Inverse of a symmetric positive definite matrix from its Cholesky factor. */
export function inverseFromCholesky(l: Float64Array, d: number): Float64Array {
  // Invert L (lower triangular), then A^-1 = L^-T L^-1.
  const li = new Float64Array(d * d);
  for (let i = 0; i < d; i++) {
    li[i * d + i] = 1 / l[i * d + i]!;
    for (let j = 0; j < i; j++) {
      let s = 0;
      for (let k = j; k < i; k++) s += l[i * d + k]! * li[k * d + j]!;
      li[i * d + j] = -s / l[i * d + i]!;
    }
  }
  const inv = new Float64Array(d * d);
  for (let i = 0; i < d; i++) {
    for (let j = 0; j <= i; j++) {
      let s = 0;
      for (let k = i; k < d; k++) s += li[k * d + i]! * li[k * d + j]!;
      inv[i * d + j] = s;
      inv[j * d + i] = s;
    }
  }
  return inv;
}

/** V^T diag(max(values, floor)) V, with the eigenvectors as the rows of V. */
function clipEigen(a: Float64Array, d: number, floor: number): Float64Array {
  const { values, vectors } = symmetricEigen(a, d);
  const out = new Float64Array(d * d);
  for (let k = 0; k < d; k++) {
    const lam = Math.max(values[k]!, floor);
    for (let i = 0; i < d; i++) {
      const vi = vectors[k * d + i]! * lam;
      for (let j = 0; j < d; j++) out[i * d + j] += vi * vectors[k * d + j]!;
    }
  }
  return out;
}

/**
 * The nearest correlation matrix to a symmetric A in the Frobenius norm (Higham 2002: alternating
 * projections onto the PSD cone and the unit-diagonal set, with Dykstra's correction), finished by
 * flooring eigenvalues at `minEigen` and restoring the unit diagonal so the result is strictly
 * positive definite. The projections converge linearly; after `maxIterations` the last iterate is
 * finished the same way, which still yields a valid correlation matrix.
 */
export function nearestCorrelation(
  a: Float64Array,
  d: number,
  minEigen = 1e-6,
  maxIterations = 500,
  tolerance = 1e-9,
): Float64Array {
  let y = Float64Array.from(a);
  const ds = new Float64Array(d * d);
  for (let it = 0; it < maxIterations; it++) {
    const r = new Float64Array(d * d);
    for (let k = 0; k < d * d; k++) r[k] = y[k]! - ds[k]!;
    const x = clipEigen(r, d, 0);
    for (let k = 0; k < d * d; k++) ds[k] = x[k]! - r[k]!;
    const next = Float64Array.from(x);
    for (let i = 0; i < d; i++) next[i * d + i] = 1;
    let diff = 0;
    let norm = 0;
    for (let k = 0; k < d * d; k++) {
      diff += (next[k]! - y[k]!) ** 2;
      norm += next[k]! ** 2;
    }
    y = next;
    if (Math.sqrt(diff) <= tolerance * Math.sqrt(norm)) break;
  }
  const clipped = clipEigen(y, d, minEigen);
  const out = new Float64Array(d * d);
  for (let i = 0; i < d; i++) {
    for (let j = 0; j < d; j++) {
      out[i * d + j] =
        i === j ? 1 : clipped[i * d + j]! / Math.sqrt(clipped[i * d + i]! * clipped[j * d + j]!);
    }
  }
  return out;
}

/**
 * The solution of A x = b (A n x n, row-major) by Gaussian elimination with partial pivoting, or null
 * when A is singular to working precision. A and b are left unchanged.
 */
export function solveLinear(a: Float64Array, b: Float64Array, n: number): Float64Array | null {
  const m = Float64Array.from(a);
  const x = Float64Array.from(b);
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(m[r * n + c]!) > Math.abs(m[p * n + c]!)) p = r;
    const pivot = m[p * n + c]!;
    if (!(Math.abs(pivot) > 1e-300)) return null;
    if (p !== c) {
      for (let k = c; k < n; k++) {
        const t = m[c * n + k]!;
        m[c * n + k] = m[p * n + k]!;
        m[p * n + k] = t;
      }
      const t = x[c]!;
      x[c] = x[p]!;
      x[p] = t;
    }
    for (let r = c + 1; r < n; r++) {
      const f = m[r * n + c]! / pivot;
      if (f === 0) continue;
      for (let k = c; k < n; k++) m[r * n + k]! -= f * m[c * n + k]!;
      x[r]! -= f * x[c]!;
    }
  }
  for (let c = n - 1; c >= 0; c--) {
    let s = x[c]!;
    for (let k = c + 1; k < n; k++) s -= m[c * n + k]! * x[k]!;
    x[c] = s / m[c * n + c]!;
  }
  return x;
}

/**
 * out[outOff + order[a]] = Σ_{b ≤ a} l[a·d + b] · e[eOff + b] for every a (order null: out[outOff + a]),
 * l lower triangular d × d, each sum taken from b = 0 up as a plain loop would. Four rows at a time, so
 * that four sums' additions overlap rather than each waiting on the one before; from the last row down,
 * so that the product may overwrite e in place (a row block reads only e[0..a] and writes e[a-3..a]).
 */
export function lowerTimes(
  l: Float64Array,
  d: number,
  e: Float64Array,
  eOff: number,
  out: Float64Array,
  outOff: number,
  order: Int32Array | null,
): void {
  let a = d - 1;
  for (; a >= 3; a -= 4) {
    const r0 = (a - 3) * d;
    const r1 = r0 + d;
    const r2 = r1 + d;
    const r3 = r2 + d;
    let s0 = 0;
    let s1 = 0;
    let s2 = 0;
    let s3 = 0;
    for (let b = 0; b <= a - 3; b++) {
      const v = e[eOff + b]!;
      s0 += l[r0 + b]! * v;
      s1 += l[r1 + b]! * v;
      s2 += l[r2 + b]! * v;
      s3 += l[r3 + b]! * v;
    }
    const v1 = e[eOff + a - 2]!;
    const v2 = e[eOff + a - 1]!;
    const v3 = e[eOff + a]!;
    s1 += l[r1 + a - 2]! * v1;
    s2 += l[r2 + a - 2]! * v1;
    s2 += l[r2 + a - 1]! * v2;
    s3 += l[r3 + a - 2]! * v1;
    s3 += l[r3 + a - 1]! * v2;
    s3 += l[r3 + a]! * v3;
    if (order) {
      out[outOff + order[a - 3]!] = s0;
      out[outOff + order[a - 2]!] = s1;
      out[outOff + order[a - 1]!] = s2;
      out[outOff + order[a]!] = s3;
    } else {
      out[outOff + a - 3] = s0;
      out[outOff + a - 2] = s1;
      out[outOff + a - 1] = s2;
      out[outOff + a] = s3;
    }
  }
  for (; a >= 0; a--) {
    let s = 0;
    for (let b = 0; b <= a; b++) s += l[a * d + b]! * e[eOff + b]!;
    out[outOff + (order ? order[a]! : a)] = s;
  }
}
