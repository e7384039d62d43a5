/**
 * The distributions the packages share: normal (density, CDF, tails and their logs, quantile),
 * Student's t (tail, CDF, quantile), beta (incomplete beta, quantile) and gamma (ln Γ, upper
 * incomplete gamma). Upper tails are computed directly (never as 1 − CDF), so small p-values keep
 * their relative accuracy instead of rounding to 0, and Student's t stays accurate at millions of
 * degrees of freedom, where a fixed-length continued fraction stops converging.
 */

const LANCZOS = [
  0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
  12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
];

/** ln Γ(x) for x > 0 (Lanczos, g = 7; relative error about 1e-15). */
export function logGamma(x: number): number {
  if (x < 0.5) return Math.log(Math.PI / Math.abs(Math.sin(Math.PI * x))) - logGamma(1 - x);
  const z = x - 1;
  let a = LANCZOS[0]!;
  const t = z + 7.5;
  for (let i = 1; i < 9; i++) a += LANCZOS[i]! / (z + i);
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(a);
}

const EPS = 1e-16;
const TINY = 1e-300;
const MAX_ITER = 100_000;

/** Continued fraction of the incomplete beta function (modified Lentz). */
function betaFraction(x: number, a: number, b: number): number {
  const qab = a + b;
  const qap = a + 1;
  const qam = a - 1;
  let c = 1;
  let d = 1 - (qab * x) / qap;
  if (Math.abs(d) < TINY) d = TINY;
  d = 1 / d;
  let h = d;
  for (let m = 1; m <= MAX_ITER; m++) {
    const m2 = 2 * m;
    let aa = (m * (b - m) * x) / ((qam + m2) * (a + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < TINY) d = TINY;
    c = 1 + aa / c;
    if (Math.abs(c) < TINY) c = TINY;
    d = 1 / d;
    h *= d * c;
    aa = (-(a + m) * (qab + m) * x) / ((a + m2) * (qap + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < TINY) d = TINY;
    c = 1 + aa / c;
    if (Math.abs(c) < TINY) c = TINY;
    d = 1 / d;
    const del = d * c;
    h *= del;
    if (Math.abs(del - 1) < EPS) break;
  }
  return h;
}

/** Stirling's series remainder of ln Γ(x) (accurate to about 1e-16 for x ≥ 10). */
function stirlingRemainder(x: number): number {
  const x2 = x * x;
  return (1 / 12 - (1 / 360 - 1 / (1260 * x2)) / x2) / x;
}

/**
 * ln Γ(a + b) − ln Γ(a), computed without the cancellation of two large logarithms when a is large
 * (at a = 1e9 the plain difference keeps only about seven digits).
 */
function logGammaShift(a: number, b: number): number {
  if (a < 10) return logGamma(a + b) - logGamma(a);
  return (
    (a - 0.5) * Math.log1p(b / a) + b * Math.log(a + b) - b + stirlingRemainder(a + b) - stirlingRemainder(a)
  );
}

/** ln B(a, b), with the larger argument's Γ taken by difference. */
function logBeta(a: number, b: number): number {
  const [big, small] = a >= b ? [a, b] : [b, a];
  return logGamma(small) - logGammaShift(big, small);
}

/** I_x(a, b) given both x and y = 1 − x, so that x close to 1 keeps its precision. */
function incompleteBetaXY(x: number, y: number, a: number, b: number): number {
  if (x <= 0) return 0;
  if (y <= 0) return 1;
  const logX = x > 0.5 ? Math.log1p(-y) : Math.log(x);
  const logY = y > 0.5 ? Math.log1p(-x) : Math.log(y);
  const front = Math.exp(a * logX + b * logY - logBeta(a, b));
  return x < (a + 1) / (a + b + 2)
    ? (front * betaFraction(x, a, b)) / a
    : 1 - (front * betaFraction(y, b, a)) / b;
}

/** Regularized incomplete beta function I_x(a, b), for 0 ≤ x ≤ 1 and a, b > 0. */
export function incompleteBeta(x: number, a: number, b: number): number {
  return incompleteBetaXY(x, 1 - x, a, b);
}

/** Regularized upper incomplete gamma Q(a, x) = Γ(a, x)/Γ(a), for a > 0 and x ≥ 0. */
export function upperIncompleteGamma(a: number, x: number): number {
  if (x <= 0) return 1;
  const front = Math.exp(-x + a * Math.log(x) - logGamma(a));
  if (x < a + 1) {
    // Series for the lower function P(a, x), then Q = 1 − P.
    let ap = a;
    let sum = 1 / a;
    let del = sum;
    for (let n = 0; n < MAX_ITER; n++) {
      ap += 1;
      del *= x / ap;
      sum += del;
      if (Math.abs(del) < Math.abs(sum) * EPS) break;
    }
    return 1 - sum * front;
  }
  return front * gammaFraction(a, x);
}

/** Continued fraction of Q(a, x)·Γ(a)·e^x·x^−a, for x ≥ a + 1 (modified Lentz). */
function gammaFraction(a: number, x: number): number {
  let b = x + 1 - a;
  let c = 1 / TINY;
  let d = 1 / b;
  let h = d;
  for (let i = 1; i <= MAX_ITER; i++) {
    const an = -i * (i - a);
    b += 2;
    d = an * d + b;
    if (Math.abs(d) < TINY) d = TINY;
    c = b + an / c;
    if (Math.abs(c) < TINY) c = TINY;
    d = 1 / d;
    const del = d * c;
    h *= del;
    if (Math.abs(del - 1) < EPS) break;
  }
  return h;
}

/**
 * ln Q(a, x), the log of the regularized upper incomplete gamma, finite wherever ln Q is a finite
 * double: far in the tail, where Q itself underflows to 0 (x beyond about 700 + a·ln x), the
 * continued fraction's prefactor is kept as its logarithm.
 */
export function logUpperIncompleteGamma(a: number, x: number): number {
  if (x <= 0) return 0;
  if (x < a + 1) return Math.log(upperIncompleteGamma(a, x));
  return -x + a * Math.log(x) - logGamma(a) + Math.log(gammaFraction(a, x));
}

// The standard normal distribution: one CDF, fast enough for the generator's samplers (a rational
// function, no loop below 7 sd) and accurate in relative terms in both tails, for p-values.

const SQRT_2PI = 2.5066282746310002;
const LOG_SQRT_2PI = 0.9189385332046728;

/** Standard normal density. */
export function normalDensity(z: number): number {
  return Math.exp(-0.5 * z * z) / SQRT_2PI;
}

/** Φ(x) − 1/2 = x Σ_n C[n] (x²/2)^n, C[n] = (−1)^n / (n! (2n + 1) √(2π)): 11 terms suffice for |x| < 1/2. */
const TAYLOR = Float64Array.from({ length: 11 }, (_, n) => {
  let f = 1;
  for (let k = 2; k <= n; k++) f *= k;
  return (n % 2 ? -1 : 1) / (f * (2 * n + 1) * SQRT_2PI);
});

/** φ(x) / Φ(−x) for x ≥ 7: the Mills ratio's continued fraction, 16 levels (~4e−16 relative there). */
function millsDenominator(ax: number): number {
  let b = ax;
  for (let k = 16; k >= 1; k--) b = ax + k / b;
  return b;
}

// The one-value scratch of `normalCdf` and `normalQuantile`: each passes its number to its in-place form.
const scalar = new Float64Array(1);

/**
 * Standard normal CDF Φ(x) with small relative error in the lower tail, so that tail probabilities
 * down to ~1e−300 keep their digits: the Taylor series near 0 (no exponential; Estrin's scheme),
 * Hart's rational approximation as given by West 2005 up to 7.07 sd, the Mills ratio's continued
 * fraction beyond, 0 beyond 37 sd. Relative error against exact values (mpmath at 40 digits): ~5e−16
 * below 1.5 sd, ~1e−13 up to 3.5 sd, growing to ~3e−9 at 7 sd (Hart's: 6e−12 at 4 sd, 2e−10 at 5,
 * 1.3e−9 at 6), ~1e−15 beyond. The upper side is 1 − Φ(−x), to double precision.
 */
export function normalCdf(x: number): number {
  scalar[0] = x;
  normalCdfInPlace(scalar, 0);
  return scalar[0]!;
}

/**
 * `normalCdf` of values[at], written over it: the same bits. For hot loops: V8 does not inline a function
 * this large, and a call it does not inline takes and returns each number in a heap box of its own,
 * which at millions of calls is most of the time. A call with an array and an index allocates nothing
 * (`normalCdf` itself is small enough to inline, and calls this).
 */
export function normalCdfInPlace(values: Float64Array, at: number): void {
  const x = values[at]!;
  const ax = Math.abs(x);
  if (ax < 0.5) {
    const C = TAYLOR;
    const t = 0.5 * x * x;
    const t2 = t * t;
    const t4 = t2 * t2;
    const low =
      C[0]! + C[1]! * t + (C[2]! + C[3]! * t) * t2 + (C[4]! + C[5]! * t + (C[6]! + C[7]! * t) * t2) * t4;
    values[at] = 0.5 + x * (low + (C[8]! + C[9]! * t + C[10]! * t2) * t4 * t4);
    return;
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
  } else if (Number.isNaN(x)) c = Number.NaN;
  else {
    // exp(−x²/2) with x² split so that its rounding stays out of the exponent.
    const xh = Math.trunc(ax * 16) / 16;
    const e = Math.exp(-0.5 * xh * xh) * Math.exp(-0.5 * (ax - xh) * (ax + xh));
    c = e / millsDenominator(ax) / SQRT_2PI;
  }
  values[at] = x > 0 ? 1 - c : c;
}

/**
 * P(Z > z) = Φ(−z) for a standard normal Z (`normalCdf`'s lower side: relative error below 1e−13 up to
 * 3.5 sd, ~3e−9 at worst up to 7.07 sd, ~1e−15 beyond, 0 beyond 37 sd, where `logNormalUpperTail`
 * keeps the value).
 */
export function normalUpperTail(z: number): number {
  return normalCdf(-z);
}

/** ln Φ(x), with full relative precision however far into the lower tail x lies. */
export function logNormalCdf(x: number): number {
  if (x === Number.NEGATIVE_INFINITY) return x;
  if (Number.isNaN(x)) return Number.NaN;
  if (x > -7.07106781186547) return x > 0 ? Math.log1p(-normalCdf(-x)) : Math.log(normalCdf(x));
  return -0.5 * x * x - Math.log(millsDenominator(-x)) - LOG_SQRT_2PI;
}

/**
 * ln P(Z > z) = ln Φ(−z) for a standard normal Z: finite for every finite z up to about 1.9e154
 * (where z²/2 overflows), so that a tail far below the smallest double (P(Z > 40) ≈ 3.7e−350) keeps
 * its value as a logarithm (−804.6) instead of rounding to 0.
 */
export function logNormalUpperTail(z: number): number {
  return logNormalCdf(-z);
}

/**
 * Inverse standard normal CDF Φ⁻¹(p) (Wichura 1988, AS 241, ~1e−16 relative). Returns −∞ at p ≤ 0
 * and +∞ at p ≥ 1.
 */
export function normalQuantile(p: number): number {
  scalar[0] = p;
  normalQuantileInPlace(scalar, 0);
  return scalar[0]!;
}

/** `normalQuantile` of values[at], written over it: the same bits (see `normalCdfInPlace` for why). */
export function normalQuantileInPlace(values: Float64Array, at: number): void {
  const p = values[at]!;
  if (p <= 0) {
    values[at] = Number.NEGATIVE_INFINITY;
    return;
  }
  if (p >= 1) {
    values[at] = Number.POSITIVE_INFINITY;
    return;
  }
  const q = p - 0.5;
  if (Math.abs(q) <= 0.425) {
    const r = 0.180625 - q * q;
    values[at] =
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
        1);
    return;
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
  values[at] = q < 0 ? -v : v;
}

/**
 * P(T > t) for Student's t with `df` degrees of freedom (df > 0, not necessarily an integer, as
 * Welch–Satterthwaite gives): 0.5·I_{ν/(ν+t²)}(ν/2, 1/2) by continued fraction, with 1 − x passed
 * as t²/(ν + t²) so that it stays exact when ν is in the millions; above 1e8 degrees of freedom
 * the normal limit with its first correction. df = ∞ gives the normal tail.
 */
export function studentTUpperTail(t: number, df: number): number {
  if (Number.isNaN(t) || Number.isNaN(df) || !(df > 0)) return Number.NaN;
  if (t === Number.POSITIVE_INFINITY) return 0;
  if (t === Number.NEGATIVE_INFINITY) return 1;
  const t2 = t * t;
  // Beyond 1e8 degrees of freedom the continued fraction loses digits; the normal tail plus the
  // 1/ν term of Abramowitz and Stegun 26.7.5 is then exact to the ν⁻² remainder.
  if (df > 1e8) return normalUpperTail(t) + (normalDensity(t) * t * (t2 + 1)) / (4 * df);
  const tail = 0.5 * incompleteBetaXY(df / (df + t2), t2 / (df + t2), df / 2, 0.5);
  return t >= 0 ? tail : 1 - tail;
}

/** CDF of Student's t distribution with `df` degrees of freedom (lower tails exact in relative terms). */
export function studentTCdf(t: number, df: number): number {
  return t < 0 ? studentTUpperTail(-t, df) : 1 - studentTUpperTail(t, df);
}

/**
 * Quantile of Student's t distribution (bisection on the CDF; |error| < 1e−10). Throws a RangeError
 * unless 0 < p < 1.
 */
export function studentTQuantile(p: number, df: number): number {
  if (!(p > 0 && p < 1)) throw new RangeError(`quantile level must be in (0, 1), got ${p}`);
  let lo = -1;
  let hi = 1;
  while (studentTCdf(lo, df) > p) lo *= 2;
  while (studentTCdf(hi, df) < p) hi *= 2;
  for (let i = 0; i < 200 && hi - lo > 1e-12; i++) {
    const mid = (lo + hi) / 2;
    if (studentTCdf(mid, df) < p) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

/** Quantile of the Beta(a, b) distribution (bisection on the regularized incomplete beta; |error| < 1e−14). */
export function betaQuantile(p: number, a: number, b: number): number {
  let lo = 0;
  let hi = 1;
  for (let i = 0; i < 200 && hi - lo > 1e-14; i++) {
    const mid = (lo + hi) / 2;
    if (incompleteBeta(mid, a, b) < p) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}
