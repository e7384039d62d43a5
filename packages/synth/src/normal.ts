import { logNormalCdf, normalCdf, normalDensity, normalQuantile, type Rng } from '@fb/core';

// The normal distribution's functions live in @fb/core (one home for the statistics every package
// uses); the generator's names for them are kept here.
export { logNormalCdf, normalCdf, normalDensity as normalPdf, normalQuantile };

/** log P(a < Z < b) for a standard normal Z and a < b (either may be infinite), for any a and b. */
export function logNormalMass(a: number, b: number): number {
  // Work on the lower side, where Φ keeps its relative precision.
  if (a >= 0) return logNormalMass(-b, -a);
  if (b <= 0) {
    const lb = logNormalCdf(b);
    return lb + Math.log1p(-Math.exp(logNormalCdf(a) - lb));
  }
  return Math.log1p(-normalCdf(a) - normalCdf(-b));
}

/** Logistic function. */
export function sigmoid(z: number): number {
  return 1 / (1 + Math.exp(-z));
}

/**
 * One draw of a standard normal truncated to [a, b] (a < b, either may be infinite). Inverse-CDF
 * on the side of the interval nearer the mode keeps full precision; intervals beyond the reach of
 * the CDF (|z| > 37) use exact rejection samplers whose acceptance stays high there (Robert 1995's
 * exponential proposal for a half-line, a uniform proposal for a narrow interval). With `logMass`,
 * log P(a < Z < b) is written to logMass[0] (from the same CDF values, at no extra cost).
 */
export function truncatedNormal(rng: Rng, a: number, b: number, logMass?: Float64Array): number {
  // The lines of `truncatedInterval`, without its object: this is the sampler's hot path.
  // Mirror an interval on the upper side to the lower one: probabilities come from the lower tail.
  const flip = a >= 0;
  const lo = flip ? -b : a;
  const hi = flip ? -a : b;
  const pa = lo === Number.NEGATIVE_INFINITY ? 0 : normalCdf(lo);
  const pb = hi === Number.POSITIVE_INFINITY ? 1 : normalCdf(hi);
  return drawBetween(rng, flip, lo, hi, pa, pb, logMass);
}

/** The interval [a, b] of `truncatedNormal`, mirrored to the lower side, with its CDF values. */
export interface TruncatedInterval {
  readonly flip: boolean;
  readonly lo: number;
  readonly hi: number;
  readonly pa: number;
  readonly pb: number;
}

/** [a, b] prepared for many draws of `drawTruncated`: the same draws as `truncatedNormal(rng, a, b)`. */
export function truncatedInterval(a: number, b: number): TruncatedInterval {
  // Mirror an interval on the upper side to the lower one: probabilities come from the lower tail.
  const flip = a >= 0;
  const lo = flip ? -b : a;
  const hi = flip ? -a : b;
  const pa = lo === Number.NEGATIVE_INFINITY ? 0 : normalCdf(lo);
  const pb = hi === Number.POSITIVE_INFINITY ? 1 : normalCdf(hi);
  return { flip, lo, hi, pa, pb };
}

/** One draw of `truncatedNormal` on a prepared interval. */
export function drawTruncated(rng: Rng, t: TruncatedInterval, logMass?: Float64Array): number {
  return drawBetween(rng, t.flip, t.lo, t.hi, t.pa, t.pb, logMass);
}

function drawBetween(
  rng: Rng,
  flip: boolean,
  lo: number,
  hi: number,
  pa: number,
  pb: number,
  logMass: Float64Array | undefined,
): number {
  let z: number;
  if (pb - pa > 1e-280) {
    z = Math.min(Math.max(normalQuantile(pa + (pb - pa) * rng.next()), lo), hi);
    if (logMass) logMass[0] = Math.log(pb - pa);
  } else {
    // Far lower tail: mirror to [-hi, -lo] with 37 < -hi, sample there, mirror back.
    z = -farTail(rng, -hi, -lo);
    if (logMass) logMass[0] = logNormalMass(lo, hi);
  }
  return flip ? -z : z;
}

/** Exact draw on [lo, hi] with lo > 37. */
function farTail(rng: Rng, lo: number, hi: number): number {
  if ((hi - lo) * lo < 1) {
    // Narrow: uniform proposal, acceptance >= e^{-1}.
    for (;;) {
      const z = lo + (hi - lo) * rng.next();
      if (rng.next() <= Math.exp(0.5 * (lo * lo - z * z))) return z;
    }
  }
  const lambda = 0.5 * (lo + Math.sqrt(lo * lo + 4));
  for (;;) {
    const z = lo - Math.log(1 - rng.next()) / lambda;
    if (z <= hi && rng.next() <= Math.exp(-0.5 * (z - lambda) * (z - lambda))) return z;
  }
}
