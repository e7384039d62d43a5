/**
 * In-place Cholesky factorisation of the symmetric m x m matrix `a` (row-major; only the lower triangle
 * is read). On success the lower triangle holds L with a = L·Lᵀ and the function returns true; it
 * returns false when a pivot is not positive (the matrix is not numerically positive definite).
 */
export function choleskyInPlace(a: Float64Array, m: number): boolean {
  for (let j = 0; j < m; j++) {
    const rj = j * m;
    let diag = a[rj + j]!;
    for (let k = 0; k < j; k++) diag -= a[rj + k]! * a[rj + k]!;
    if (!(diag > 0) || !Number.isFinite(diag)) return false;
    const ljj = Math.sqrt(diag);
    a[rj + j] = ljj;
    for (let i = j + 1; i < m; i++) {
      const ri = i * m;
      let s = a[ri + j]!;
      for (let k = 0; k < j; k++) s -= a[ri + k]! * a[rj + k]!;
      a[ri + j] = s / ljj;
    }
  }
  return true;
}

/** Solve L·Lᵀ·x = b in place (b becomes x), with L from `choleskyInPlace`. */
export function choleskySolveInPlace(l: Float64Array, m: number, b: Float64Array): void {
  for (let i = 0; i < m; i++) {
    const ri = i * m;
    let s = b[i]!;
    for (let k = 0; k < i; k++) s -= l[ri + k]! * b[k]!;
    b[i] = s / l[ri + i]!;
  }
  for (let i = m - 1; i >= 0; i--) {
    let s = b[i]!;
    for (let k = i + 1; k < m; k++) s -= l[k * m + i]! * b[k]!;
    b[i] = s / l[i * m + i]!;
  }
}
