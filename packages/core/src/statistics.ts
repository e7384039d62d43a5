/**
 * Distribution tails shared by every package that reports a p-value. Upper tails are computed
 * directly (never as 1 − CDF), so small p-values keep their relative accuracy instead of rounding
 * to 0, and Student's t stays accurate at millions of degrees of freedom, where a fixed-length
 * continued fraction stops converging.
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

/** P(Z > z) for a standard normal Z, accurate in relative terms far into the upper tail. */
export function normalUpperTail(z: number): number {
  if (Number.isNaN(z)) return Number.NaN;
  if (z === Number.POSITIVE_INFINITY) return 0;
  if (z === Number.NEGATIVE_INFINITY) return 1;
  // erfc(x) = Q(1/2, x²) for x ≥ 0.
  const upper = 0.5 * upperIncompleteGamma(0.5, (z * z) / 2);
  return z >= 0 ? upper : 1 - upper;
}

/**
 * ln P(Z > z) for a standard normal Z: finite for every finite z up to about 1.9e154 (where z²/2
 * overflows), so that a tail far below the smallest double (P(Z > 40) ≈ 3.7e−350) keeps its value as a
 * logarithm (−804.6) instead of rounding to 0.
 */
export function logNormalUpperTail(z: number): number {
  if (Number.isNaN(z)) return Number.NaN;
  if (z === Number.POSITIVE_INFINITY) return Number.NEGATIVE_INFINITY;
  if (z <= 0) return Math.log(normalUpperTail(z));
  return Math.log(0.5) + logUpperIncompleteGamma(0.5, (z * z) / 2);
}

/** Standard normal density. */
export function normalDensity(z: number): number {
  return Math.exp(-0.5 * z * z) / Math.sqrt(2 * Math.PI);
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
