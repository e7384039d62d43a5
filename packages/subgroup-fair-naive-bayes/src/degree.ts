/**
 * Joint probabilities of a pattern under a naive Bayes model, per decision value:
 * P(d, x, y) and P(d, y) for d = 0, 1.
 */
export interface PatternMass {
  xy0: number;
  xy1: number;
  y0: number;
  y1: number;
}

/** Degree of discrimination Delta(x, y) = P(d | x, y) - P(d | y), with d the decision's positive value. */
export function degree(m: PatternMass): number {
  return m.xy1 / (m.xy0 + m.xy1) - m.y1 / (m.y0 + m.y1);
}

/**
 * The KL divergence (bits) from the model's joint distribution to the closest one in which the
 * pattern is delta-fair, moving probability mass q between (d, x, y) and (not d, x, y); 0 when the
 * pattern already is (|Delta| <= delta).
 */
export function kldScore(m: PatternMass, delta: number): number {
  const diff = degree(m);
  if (Math.abs(diff) <= delta) return 0;
  const pXY = m.xy0 + m.xy1;
  const pY = m.y0 + m.y1;
  // Moving q changes Delta by q (1/pXY - 1/pY); land exactly on the nearer edge +-delta.
  const target = diff > 0 ? delta : -delta;
  const q = (target - diff) / (1 / pXY - 1 / pY);
  return plogq(m.xy1, m.xy1 + q) + plogq(m.xy0, m.xy0 - q);
}

/**
 * g(r, t) = r t / (r t + 1 - t) - t: the degree of discrimination when observing x multiplies the
 * odds of d by r and P(d | y) = t.
 */
function gain(r: number, t: number): number {
  if (t <= 0 || t >= 1) return 0;
  if (r === Number.POSITIVE_INFINITY) return 1 - t;
  return (r * t) / (r * t + 1 - t) - t;
}

/**
 * Largest g(r, t) over t in [lo, hi] for r >= 1 (the function is unimodal in t, with its peak at
 * t* = 1 / (1 + sqrt r)); for r <= 1, the smallest. Used to bound Delta over all extensions.
 */
export function extremeGain(r: number, lo: number, hi: number): number {
  const peak = r === Number.POSITIVE_INFINITY ? 0 : 1 / (1 + Math.sqrt(r));
  const t = Math.min(hi, Math.max(lo, peak));
  if (r === Number.POSITIVE_INFINITY && lo <= 0) return 1;
  if (r === 0 && hi >= 1) return -1;
  return gain(r, t);
}

/** p log2(p / q), with 0 log 0 = 0. */
function plogq(p: number, q: number): number {
  return p > 0 ? p * Math.log2(p / q) : 0;
}
