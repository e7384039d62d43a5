/**
 * Reference values of the standard normal CDF from exact integer arithmetic (BigInt fixed point
 * with 60 decimal digits), independent of the double-precision code under test:
 *   |x| <= 3:  Φ(x) = 1/2 + φ(x) Σ_n x^(2n+1) / (2n+1)!!   (the series has only positive terms)
 *   x < -3:    Φ(x) = φ(x) R(-x), R the Mills ratio by its continued fraction
 *              R(t) = 1 / (t + 1 / (t + 2 / (t + 3 / (t + ...)))).
 */
const DIGITS = 60n;
const S = 10n ** DIGITS;
const PI = '3.1415926535897932384626433832795028841971693993751058209749445923078';
const PI_S = (BigInt(PI.replace('.', '')) * S) / 10n ** BigInt(PI.length - 2);

function sqrtFixed(v: bigint): bigint {
  // Integer square root of v·S, i.e. sqrt(v) in fixed point.
  const target = v * S;
  let r = 1n << BigInt(Math.ceil(target.toString(2).length / 2));
  for (;;) {
    const next = (r + target / r) / 2n;
    if (next >= r) return r;
    r = next;
  }
}

/** exp(h) in fixed point, h >= 0 in fixed point. */
function expFixed(h: bigint): bigint {
  let term = S;
  let sum = S;
  for (let n = 1n; term !== 0n; n++) {
    term = (term * h) / S / n;
    sum += term;
  }
  return sum;
}

/** The exact value of a double in fixed point. */
function fixed(x: number): bigint {
  let m = Math.abs(x);
  let e = 0;
  while (!Number.isInteger(m)) {
    m *= 2;
    e++;
  }
  const v = (BigInt(m) * S) / 2n ** BigInt(e);
  return x < 0 ? -v : v;
}

/** num / den (both positive) as the nearest double, through a 30-digit decimal string. */
function ratio(num: bigint, den: bigint): number {
  const k = Math.max(0, 30 - (num.toString().length - den.toString().length));
  return Number(`${(num * 10n ** BigInt(k)) / den}e-${k}`);
}

/** Φ(x) for x <= 0. */
export function lowerCdf(x: number): number {
  if (x > 0) throw new Error('lowerCdf takes x <= 0');
  const t = -fixed(x);
  const eh = expFixed((t * t) / S / 2n); // exp(t²/2)
  const root = sqrtFixed(2n * PI_S); // sqrt(2π)
  if (t <= 3n * S) {
    // Φ(x) = 1/2 - Σ / (sqrt(2π) exp(t²/2)), Σ = Σ_n t^(2n+1) / (2n+1)!!
    let term = t;
    let sum = t;
    for (let n = 1n; term !== 0n; n++) {
      term = (((term * t) / S) * t) / S / (2n * n + 1n);
      sum += term;
    }
    const den = (root * eh) / S;
    return ratio(den * S - 2n * sum * S, 2n * den * S);
  }
  let f = t;
  for (let k = 4000n; k >= 1n; k--) f = t + (k * S * S) / f;
  // Φ = R / (sqrt(2π) exp(t²/2)), R = 1 / f.
  return ratio(S ** 3n, f * root * eh);
}
