import {
  logNormalCdf,
  normalCdf,
  normalCdfInPlace,
  normalDensity,
  normalQuantile,
  normalQuantileInPlace,
  type Rng,
} from '@fb/core';

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
  scratch[TRUNCATED_A] = a;
  scratch[TRUNCATED_B] = b;
  truncatedDraw(rng, scratch, logMass !== undefined);
  if (logMass) logMass[0] = scratch[TRUNCATED_LOG_MASS]!;
  return scratch[TRUNCATED_DRAW]!;
}

/**
 * The slots of the array `truncatedDraw` works in: the interval [a, b] in, the draw, its log mass and
 * its mass out, then the mirrored interval and its CDF values, and the quantile's argument.
 */
export const TRUNCATED_A = 0;
export const TRUNCATED_B = 1;
export const TRUNCATED_DRAW = 2;
export const TRUNCATED_LOG_MASS = 3;
/** P(a < Z < b) itself, written by every draw: 0 where it is below 1e-280 (then ask for the log). */
export const TRUNCATED_MASS = 4;
const LO = 5;
const HI = 6;
const PA = 7;
const PB = 8;
const QUANTILE = 9;
/** The length of the array `truncatedDraw` works in. */
export const TRUNCATED_SLOTS = 10;

const scratch = new Float64Array(TRUNCATED_SLOTS);

/**
 * `truncatedNormal` for hot loops, through an array of TRUNCATED_SLOTS numbers: the same draws from
 * [s[TRUNCATED_A], s[TRUNCATED_B]] into s[TRUNCATED_DRAW], and with `mass` its log mass into
 * s[TRUNCATED_LOG_MASS]. No number passes to or from a call that V8 does not inline: it would put each
 * in a heap box of its own (see `normalCdfInPlace` in @fb/core).
 */
export function truncatedDraw(rng: Rng, s: Float64Array, mass: boolean): void {
  // Mirror an interval on the upper side to the lower one: probabilities come from the lower tail.
  const a = s[TRUNCATED_A]!;
  const b = s[TRUNCATED_B]!;
  const flip = a >= 0;
  const lo = flip ? -b : a;
  const hi = flip ? -a : b;
  s[LO] = lo;
  s[HI] = hi;
  s[PA] = lo;
  s[PB] = hi;
  if (lo === Number.NEGATIVE_INFINITY) s[PA] = 0;
  else normalCdfInPlace(s, PA);
  if (hi === Number.POSITIVE_INFINITY) s[PB] = 1;
  else normalCdfInPlace(s, PB);
  drawBetween(rng, flip, s, mass);
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

/** One draw of `truncatedDraw` on a prepared interval, through the same slots. */
export function drawTruncated(rng: Rng, t: TruncatedInterval, s: Float64Array, mass: boolean): void {
  s[LO] = t.lo;
  s[HI] = t.hi;
  s[PA] = t.pa;
  s[PB] = t.pb;
  drawBetween(rng, t.flip, s, mass);
}

/** The draw on the mirrored interval s[LO..HI] with CDF values s[PA], s[PB], into s[TRUNCATED_DRAW]. */
function drawBetween(rng: Rng, flip: boolean, s: Float64Array, mass: boolean): void {
  const lo = s[LO]!;
  const hi = s[HI]!;
  const pa = s[PA]!;
  const pb = s[PB]!;
  let z: number;
  if (pb - pa > 1e-280) {
    s[QUANTILE] = pa + (pb - pa) * rng.next();
    normalQuantileInPlace(s, QUANTILE);
    z = Math.min(Math.max(s[QUANTILE]!, lo), hi);
    s[TRUNCATED_MASS] = pb - pa;
    if (mass) s[TRUNCATED_LOG_MASS] = Math.log(pb - pa);
  } else {
    // Far lower tail: mirror to [-hi, -lo] with 37 < -hi, sample there, mirror back.
    z = -farTail(rng, -hi, -lo);
    s[TRUNCATED_MASS] = 0;
    if (mass) s[TRUNCATED_LOG_MASS] = logNormalMass(lo, hi);
  }
  s[TRUNCATED_DRAW] = flip ? -z : z;
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
