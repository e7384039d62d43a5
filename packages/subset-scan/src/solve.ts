import type { ScanDirection } from './data.js';
import type { Kernel } from './kernels.js';

/** The direction-constrained maximum of F for the kernel's selection. */
export interface Fit {
  /** argmax of F over t ≥ 0 (positive) or t ≤ 0 (negative); 0 when F has no positive value there. */
  t: number;
  /** F(t), ≥ 0. */
  f: number;
  /** F″(t), used to start the root search. */
  curvature: number;
}

/** Maximise F over the side of t = 0 that `direction` allows (F(0) = 0, so the maximum is ≥ 0). */
export function fitDirection(k: Kernel, direction: ScanDirection): Fit {
  if (k.size === 0) return { t: 0, f: 0, curvature: 0 };
  // When the maximum surely lies on the other side, it is not searched for (the same answer as below).
  if (k.mleOpposes(direction === 'positive' ? 1 : -1)) return { t: 0, f: 0, curvature: 0 };
  const t = k.mle();
  if ((direction === 'positive' && t <= 0) || (direction === 'negative' && t >= 0)) {
    return { t: 0, f: 0, curvature: 0 };
  }
  k.eval(t, true);
  return { t, f: k.f, curvature: k.d2 };
}

const ROOT_TOLERANCE = 1e-10;
const ROOT_MAX_STEPS = 100;

/**
 * The root of g(t) = F(t) − level between `inside` (g > 0) and `outside` (g ≤ 0), by Newton steps
 * from the outside (monotone for a concave F) kept inside the bracket.
 */
function rootBetween(k: Kernel, level: number, inside: number, outside: number, gOutside: number): number {
  let a = inside;
  let b = outside;
  let t = outside;
  let g = gOutside;
  let slope = k.d1;
  for (let step = 0; step < ROOT_MAX_STEPS; step++) {
    let next = slope !== 0 ? t - g / slope : Number.NaN;
    if (!((next - a) * (next - b) < 0)) next = (a + b) / 2;
    k.eval(next, true);
    const gn = k.f - level;
    if (gn > 0) a = next;
    else b = next;
    if (Math.abs(next - t) < ROOT_TOLERANCE || Math.abs(b - a) < ROOT_TOLERANCE) return next;
    t = next;
    g = gn;
    slope = k.d1;
  }
  return (a + b) / 2;
}

/**
 * The root of F(t) = level on the far side of the maximum t̂ (away from 0), or the kernel's bound
 * when F stays above level up to it. Starts from the quadratic approximation of F at t̂, which is
 * exact for the Gaussian mean shift.
 */
function farRoot(k: Kernel, level: number, fit: Fit, sign: number): number {
  const bound = sign * k.bound;
  const width = fit.curvature < 0 ? Math.sqrt((2 * (fit.f - level)) / -fit.curvature) : k.bound;
  let start = fit.t + sign * width;
  if (sign * (start - bound) > 0) start = bound;
  k.eval(start, true);
  if (k.f - level <= 0) return rootBetween(k, level, fit.t, start, k.f - level);
  if (start === bound || !Number.isFinite(bound)) return start;
  k.eval(bound, true);
  if (k.f - level > 0) return bound;
  return rootBetween(k, level, start, bound, k.f - level);
}

/** The interval of t on which F(t) > level, clipped to the scanned direction's side of 0. */
export interface PositiveInterval {
  lo: number;
  hi: number;
}

/**
 * Where the kernel's selection scores above `level` (≥ 0) on the direction's side of t = 0, given
 * its direction-constrained fit; null when it never does. F(0) = 0 ≤ level, so the root nearer to 0
 * lies between 0 and t̂ (and is 0 itself when level = 0).
 */
export function positiveInterval(
  k: Kernel,
  level: number,
  fit: Fit,
  direction: ScanDirection,
): PositiveInterval | null {
  if (!(fit.f > level) || fit.t === 0) return null;
  const far = farRoot(k, level, fit, direction === 'positive' ? 1 : -1);
  let near = 0;
  if (level > 0) {
    k.eval(0, true);
    near = rootBetween(k, level, fit.t, 0, -level);
  }
  return direction === 'positive' ? { lo: near, hi: far } : { lo: far, hi: near };
}
