/**
 * SliceLine's score of a slice with ss rows and total error se, in a dataset of n rows with mean
 * error eAvg: sc = α·((se/ss)/ē − 1) − (1 − α)·(n/ss − 1). An empty slice scores −∞.
 */
export function score(ss: number, se: number, eAvg: number, alpha: number, n: number): number {
  const sc = alpha * (se / ss / eAvg - 1) - (1 - alpha) * (n / ss - 1);
  return Number.isNaN(sc) ? Number.NEGATIVE_INFINITY : sc;
}

/**
 * Upper bound on the score of any slice with size at most ssUb, total error at most seUb and maximum
 * error at most smUb (and size at least minSup). The bound sc(s) = α·((min(s·sm, se)/s)/ē − 1) −
 * (1 − α)·(n/s − 1) is monotone on [minSup, se/sm] and on [se/sm, ssUb], so its maximum is at one of
 * the probes minSup, max(se/sm, minSup), ssUb.
 */
export function scoreUpperBound(
  ssUb: number,
  seUb: number,
  smUb: number,
  eAvg: number,
  minSup: number,
  alpha: number,
  n: number,
): number {
  let best = Number.NEGATIVE_INFINITY;
  const probe = (s: number) => {
    const sc = alpha * (Math.min(s * smUb, seUb) / s / eAvg - 1) - (1 - alpha) * (n / s - 1);
    if (sc > best) best = sc;
  };
  probe(minSup);
  probe(Math.max(seUb / smUb, minSup));
  probe(ssUb);
  return best;
}
