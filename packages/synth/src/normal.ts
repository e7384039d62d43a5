import type { Rng } from '@fb/core';

const SQRT_2PI = 2.5066282746310002;

/** Standard normal density. */
export function normalPdf(z: number): number {
  return Math.exp(-0.5 * z * z) / SQRT_2PI;
}

/** Φ(x) - 1/2 = x Σ_n C[n] (x²/2)^n, C[n] = (-1)^n / (n! (2n + 1) √(2π)): 11 terms suffice for |x| < 1/2. */
const C = Float64Array.from({ length: 11 }, (_, n) => {
  let f = 1;
  for (let k = 2; k <= n; k++) f *= k;
  return (n % 2 ? -1 : 1) / (f * (2 * n + 1) * SQRT_2PI);
});

/**
 * Standard normal CDF with small relative error in the lower tail, so that tail probabilities down
 * to ~1e-300 keep their digits: the Taylor series near 0 (no exponential; Estrin's scheme), Hart's
 * rational approximation as given by West 2005 up to 7.07 sd, a continued fraction beyond. Relative
 * error against exact values (test/normal-accuracy.test.ts): ~1e-16 below 0.5 sd, ~1e-14 up to 3 sd,
 * ~3e-9 at worst between 3 and 7.07 sd (Hart's), ~1e-15 beyond.
 */
export function normalCdf(x: number): number {
  const ax = Math.abs(x);
  if (ax < 0.5) {
    const t = 0.5 * x * x;
    const t2 = t * t;
    const t4 = t2 * t2;
    const low =
      C[0]! + C[1]! * t + (C[2]! + C[3]! * t) * t2 + (C[4]! + C[5]! * t + (C[6]! + C[7]! * t) * t2) * t4;
    return 0.5 + x * (low + (C[8]! + C[9]! * t + C[10]! * t2) * t4 * t4);
  }
  let c: number;
  if (ax > 37) c = 0;
  else if (ax < 7.07106781186547) {
    const e = Math.exp(-0.5 * ax * ax);
    let b = 0.0352624965998911 * ax + 0.700383064443688;
    b = b * ax + 6.37396220353165;
    b = b * ax + 33.912866078383;
    b = b * ax + 112.079291497871;
    b = b * ax + 221.213596169931;
    b = b * ax + 220.206867912376;
    c = e * b;
    b = 0.0883883476483184 * ax + 1.75566716318264;
    b = b * ax + 16.064177579207;
    b = b * ax + 86.7807322029461;
    b = b * ax + 296.564248779674;
    b = b * ax + 637.333633378831;
    b = b * ax + 793.826512519948;
    b = b * ax + 440.413735824752;
    c /= b;
  } else {
    // exp(-x²/2) with x² split so that its rounding stays out of the exponent.
    const xh = Math.trunc(ax * 16) / 16;
    const e = Math.exp(-0.5 * xh * xh) * Math.exp(-0.5 * (ax - xh) * (ax + xh));
    c = e / millsDenominator(ax) / SQRT_2PI;
  }
  return x > 0 ? 1 - c : c;
}

/**
 * φ(x) / Φ(-x) for x >= 7: the Mills ratio's continued fraction, 16 levels (~4e-16 relative there).
 */
function millsDenominator(ax: number): number {
  let b = ax;
  for (let k = 16; k >= 1; k--) b = ax + k / b;
  return b;
}

const LOG_SQRT_2PI = 0.9189385332046728;

/** log Φ(x), with full relative precision however far into the lower tail x lies. */
export function logNormalCdf(x: number): number {
  if (x === Number.NEGATIVE_INFINITY) return x;
  if (x > -7.07106781186547) return x > 0 ? Math.log1p(-normalCdf(-x)) : Math.log(normalCdf(x));
  return -0.5 * x * x - Math.log(millsDenominator(-x)) - LOG_SQRT_2PI;
}

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

/** Inverse standard normal CDF (Wichura 1988, AS 241, ~1e-16 relative). Returns ±Infinity at 0 and 1. */
export function normalQuantile(p: number): number {
  if (p <= 0) return Number.NEGATIVE_INFINITY;
  if (p >= 1) return Number.POSITIVE_INFINITY;
  const q = p - 0.5;
  if (Math.abs(q) <= 0.425) {
    const r = 0.180625 - q * q;
    return (
      (q *
        (((((((2509.0809287301227 * r + 33430.57558358813) * r + 67265.7709270087) * r + 45921.95393154987) *
          r +
          13731.69376550946) *
          r +
          1971.5909503065513) *
          r +
          133.14166789178438) *
          r +
          3.3871328727963665)) /
      (((((((5226.495278852546 * r + 28729.085735721943) * r + 39307.89580009271) * r + 21213.794301586597) *
        r +
        5394.196021424751) *
        r +
        687.1870074920579) *
        r +
        42.31333070160091) *
        r +
        1)
    );
  }
  let r = Math.sqrt(-Math.log(q < 0 ? p : 1 - p));
  let v: number;
  if (r <= 5) {
    r -= 1.6;
    v =
      (((((((0.0007745450142783414 * r + 0.022723844989269184) * r + 0.2417807251774506) * r +
        1.2704582524523684) *
        r +
        3.6478483247632045) *
        r +
        5.769497221460691) *
        r +
        4.630337846156546) *
        r +
        1.4234371107496835) /
      (((((((1.0507500716444169e-9 * r + 0.0005475938084995345) * r + 0.015198666563616457) * r +
        0.14810397642748008) *
        r +
        0.6897673349851) *
        r +
        1.6763848301838038) *
        r +
        2.053191626637759) *
        r +
        1);
  } else {
    r -= 5;
    v =
      (((((((2.0103343992922881e-7 * r + 2.7115555687434876e-5) * r + 0.0012426609473880784) * r +
        0.026532189526576124) *
        r +
        0.29656057182850487) *
        r +
        1.7848265399172913) *
        r +
        5.463784911164114) *
        r +
        6.657904643501103) /
      (((((((2.0442631033899397e-15 * r + 1.421511758316446e-7) * r + 1.8463183175100548e-5) * r +
        0.0007868691311456133) *
        r +
        0.014875361290850615) *
        r +
        0.1369298809227358) *
        r +
        0.599832206555888) *
        r +
        1);
  }
  return q < 0 ? -v : v;
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
  // Mirror an interval on the upper side to the lower one: probabilities come from the lower tail.
  const flip = a >= 0;
  const lo = flip ? -b : a;
  const hi = flip ? -a : b;
  const pa = lo === Number.NEGATIVE_INFINITY ? 0 : normalCdf(lo);
  const pb = hi === Number.POSITIVE_INFINITY ? 1 : normalCdf(hi);
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
