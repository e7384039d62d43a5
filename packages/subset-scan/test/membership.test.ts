import { createRng } from '@fb/core';
import { describe, expect, it } from 'vitest';
import { Membership } from '../src/membership.js';

/** The records matching every constraint but `skip`'s, one by one (null: unconstrained). */
function direct(codes: Int32Array[], masks: (Uint8Array | null)[], n: number, skip: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    let ok = true;
    masks.forEach((mask, m) => {
      if (m !== skip && mask !== null && mask[codes[m]![i]!] !== 1) ok = false;
    });
    if (ok) out.push(i);
  }
  return out;
}

function listed(bits: Int32Array, words: number): number[] {
  const out: number[] = [];
  for (let w = 0; w < words; w++) for (let b = 0; b < 32; b++) if ((bits[w]! >>> b) & 1) out.push(32 * w + b);
  return out;
}

describe('Membership', () => {
  // Sizes around word boundaries; per-value bitsets and the record-by-record fallback (no value words).
  for (const n of [1, 31, 32, 33, 100, 1000])
    for (const maxValueWords of [1 << 24, 0])
      it(`matches a record-by-record check (n = ${n}, ${maxValueWords ? 'value bitsets' : 'fallback'})`, () => {
        const rng = createRng(`membership-${n}`);
        const arity = [2, 3, 5, 7];
        const codes = arity.map((k) => Int32Array.from({ length: n }, () => rng.int(0, k - 1)));
        const sets = new Membership(codes, arity, n, maxValueWords);
        const masks: (Uint8Array | null)[] = arity.map(() => null);
        for (let round = 0; round < 60; round++) {
          if (round % 20 === 0) {
            sets.reset();
            masks.fill(null);
          }
          const m = rng.int(0, arity.length - 1);
          if (rng.next() < 0.25) masks[m] = null;
          else masks[m] = Uint8Array.from({ length: arity[m]! }, () => (rng.next() < 0.6 ? 1 : 0));
          sets.set(m, masks[m]!);
          for (let skip = -1; skip < arity.length; skip++) {
            const expected = direct(codes, masks, n, skip);
            expect(listed(sets.matching(skip), sets.words)).toEqual(expected);
            if (skip === -1) expect(sets.count()).toBe(expected.length);
          }
        }
      });
});
