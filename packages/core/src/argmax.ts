/** Index of the largest of each row's K values (first on ties), for rows stored one after another. */
export function argmaxRows(values: Float64Array, K: number): Int32Array {
  const n = values.length / K;
  const out = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    let best = 0;
    for (let k = 1; k < K; k++) if (values[i * K + k]! > values[i * K + best]!) best = k;
    out[i] = best;
  }
  return out;
}
