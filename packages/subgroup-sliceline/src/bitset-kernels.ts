import type { OneHotMatrix } from './one-hot.js';

function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  x = (x + (x >>> 4)) & 0x0f0f0f0f;
  return Math.imul(x, 0x01010101) >>> 24;
}

/**
 * Evaluates slices, i.e. I = (X₂·Sᵀ == L) with ss = colSums(I), se = eᵀI and sm = colMaxs(I∘e), one
 * slice at a time: the indicator of a conjunction of L one-hot columns is the AND of their row bitsets.
 * Bitsets are kept only for the columns a slice can use (the valid basic slices).
 */
export class SliceEvaluator {
  readonly words: number;
  /** One bitset of `words` 32-bit words per kept column. */
  private readonly bits: Uint32Array;
  /** Slot of each one-hot column in `bits`, or -1. */
  private readonly slot: Int32Array;
  private readonly errors: Float64Array;
  /** Set when every error is 0 or 1: se is then a popcount against `errorBits`. */
  private readonly binary: boolean;
  private readonly errorBits: Uint32Array;
  private readonly slots: Int32Array;

  constructor(x2: OneHotMatrix, errors: Float64Array, keep: Uint8Array) {
    const { n, m, l, columns } = x2;
    this.words = (n + 31) >>> 5;
    this.slots = new Int32Array(m);
    this.slot = new Int32Array(l).fill(-1);
    let kept = 0;
    for (let c = 0; c < l; c++) if (keep[c]) this.slot[c] = kept++;
    this.bits = new Uint32Array(kept * this.words);
    this.errors = errors;
    this.errorBits = new Uint32Array(this.words);
    let binary = true;
    for (let i = 0; i < n; i++) {
      const w = i >>> 5;
      const bit = 1 << (i & 31);
      const ei = errors[i]!;
      if (ei !== 0 && ei !== 1) binary = false;
      if (ei > 0) this.errorBits[w]! |= bit;
      for (let k = i * m, end = k + m; k < end; k++) {
        const s = this.slot[columns[k]!]!;
        if (s >= 0) this.bits[s * this.words + w]! |= bit;
      }
    }
    this.binary = binary;
  }

  /**
   * Statistics of the slice whose predicates are `preds[off..off+L)` (kept columns), written to
   * `ss[k]`, `se[k]` and `sm[k]`.
   */
  evaluate(
    preds: Int32Array,
    off: number,
    L: number,
    k: number,
    ss: Float64Array,
    se: Float64Array,
    sm: Float64Array,
  ): void {
    const { words, bits, slots, errorBits, errors } = this;
    for (let p = 0; p < L; p++) slots[p] = this.slot[preds[off + p]!]! * words;
    let size = 0;
    let error = 0;
    let maxError = 0;
    for (let w = 0; w < words; w++) {
      let x = bits[slots[0]! + w]!;
      for (let p = 1; p < L && x !== 0; p++) x &= bits[slots[p]! + w]!;
      if (x === 0) continue;
      size += popcount(x);
      if (this.binary) {
        error += popcount(x & errorBits[w]!);
        continue;
      }
      const base = w << 5;
      while (x !== 0) {
        const low = x & -x;
        const ei = errors[base + 31 - Math.clz32(low)]!;
        error += ei;
        if (ei > maxError) maxError = ei;
        x ^= low;
      }
    }
    ss[k] = size;
    se[k] = error;
    sm[k] = this.binary ? (error > 0 ? 1 : 0) : maxError;
  }
}
