import { inRegion, probabilityModel } from '@fb/testkit';
import type { Draws } from '../src/draws.js';

/** Decides by sex inside the region (0.2 vs 0.8), by `a > 70` outside it. */
export const regionModel = probabilityModel('region', (r) =>
  inRegion(r) ? (r[0] === 1 ? 0.8 : 0.2) : r[1]! > 70 ? 0.9 : 0.1,
);

/** Never looks at sex. */
export const blindModel = probabilityModel(
  'blind',
  (r) => 1 / (1 + Math.exp(-(r[1]! + 5 * r[2]! - 100) / 10)),
);

/**
 * Scripted draws for hand-computed operator tests: each call takes the next scripted value and
 * checks that it lies in the requested range.
 */
export function scripted(script: { next?: number[]; int?: number[]; uniform?: number[] }): Draws & {
  left(): number;
} {
  const next = [...(script.next ?? [])];
  const ints = [...(script.int ?? [])];
  const uniforms = [...(script.uniform ?? [])];
  const take = (q: number[], what: string) => {
    if (q.length === 0) throw new Error(`no scripted ${what} left`);
    return q.shift()!;
  };
  return {
    next: () => take(next, 'next'),
    int: (lo: number, hi: number) => {
      const v = take(ints, 'int');
      if (v < lo || v > hi) throw new Error(`scripted int ${v} outside [${lo}, ${hi}]`);
      return v;
    },
    uniform: (lo = 0, hi = 1) => {
      const v = take(uniforms, 'uniform');
      if (v < lo || v >= hi) throw new Error(`scripted uniform ${v} outside [${lo}, ${hi})`);
      return v;
    },
    normal: () => {
      throw new Error('normal not scripted');
    },
    weightedIndex: () => {
      throw new Error('weightedIndex not scripted');
    },
    left: () => next.length + ints.length + uniforms.length,
  };
}
