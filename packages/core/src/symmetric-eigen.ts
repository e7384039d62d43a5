/**
 * Eigen-decomposition of a symmetric p x p matrix (row-major) by cyclic Jacobi rotations, A = V^T diag(values) V.
 * Returns the eigenvalues in decreasing order and the matching unit eigenvectors as the rows of
 * `vectors`. Sweeps stop when the off-diagonal mass falls below 1e-22 of the matrix's (scale-free).
 */
export function symmetricEigen(
  matrix: Float64Array,
  p: number,
): { values: Float64Array; vectors: Float64Array } {
  const a = matrix.slice();
  const v = new Float64Array(p * p);
  for (let i = 0; i < p; i++) v[i * p + i] = 1;
  let scale = 0;
  for (let k = 0; k < a.length; k++) scale += a[k]! * a[k]!;
  const threshold = 1e-22 * scale;
  for (let sweep = 0; sweep < 100; sweep++) {
    let off = 0;
    for (let i = 0; i < p; i++) for (let j = i + 1; j < p; j++) off += a[i * p + j]! ** 2;
    if (off <= threshold) break;
    for (let i = 0; i < p; i++) {
      for (let j = i + 1; j < p; j++) {
        const aij = a[i * p + j]!;
        if (aij === 0) continue;
        const theta = (a[j * p + j]! - a[i * p + i]!) / (2 * aij);
        const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1);
        const s = t * c;
        for (let k = 0; k < p; k++) {
          const aki = a[k * p + i]!;
          const akj = a[k * p + j]!;
          a[k * p + i] = c * aki - s * akj;
          a[k * p + j] = s * aki + c * akj;
        }
        for (let k = 0; k < p; k++) {
          const aik = a[i * p + k]!;
          const ajk = a[j * p + k]!;
          a[i * p + k] = c * aik - s * ajk;
          a[j * p + k] = s * aik + c * ajk;
        }
        for (let k = 0; k < p; k++) {
          const vki = v[k * p + i]!;
          const vkj = v[k * p + j]!;
          v[k * p + i] = c * vki - s * vkj;
          v[k * p + j] = s * vki + c * vkj;
        }
      }
    }
  }
  const order = Array.from({ length: p }, (_, i) => i).sort((x, y) => a[y * p + y]! - a[x * p + x]!);
  const values = Float64Array.from(order, (i) => a[i * p + i]!);
  const vectors = new Float64Array(p * p);
  order.forEach((col, r) => {
    for (let k = 0; k < p; k++) vectors[r * p + k] = v[k * p + col]!;
  });
  return { values, vectors };
}
