/**
 * Mutual information (nats) between two discrete variables given as codes 0..ka-1 and 0..kb-1,
 * from their empirical joint distribution.
 */
export function mutualInformation(a: Int32Array, ka: number, b: Int32Array, kb: number): number {
  const n = a.length;
  if (n === 0) return 0;
  const joint = new Float64Array(ka * kb);
  const pa = new Float64Array(ka);
  const pb = new Float64Array(kb);
  for (let i = 0; i < n; i++) {
    joint[a[i]! * kb + b[i]!]!++;
    pa[a[i]!]!++;
    pb[b[i]!]!++;
  }
  let mi = 0;
  for (let u = 0; u < ka; u++) {
    for (let v = 0; v < kb; v++) {
      const c = joint[u * kb + v]!;
      if (c > 0) mi += (c / n) * Math.log((c * n) / (pa[u]! * pb[v]!));
    }
  }
  return Math.max(0, mi);
}
