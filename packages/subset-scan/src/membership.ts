/**
 * Which records match a subset's constraints, as bitsets: per constrained attribute, the records whose
 * value it allows (32 records a word). A step's records, those matching every constraint but its own
 * attribute's, are then the AND of the other attributes' words, read in ascending record order; the
 * cost of a step follows the number of words and of matching records, not the number of records.
 *
 * A constraint's bitset is the OR of its allowed values' bitsets (built once per scan) when they fit in
 * `VALUE_BITS_MAX_WORDS` (or the constructor's `maxValueWords`), else it is set record by record.
 */

/** Most words kept for the per-value bitsets of all attributes (64 MiB). */
const VALUE_BITS_MAX_WORDS = 1 << 24;

export class Membership {
  readonly words: number;
  private readonly n: number;
  private readonly nAttr: number;
  /** Per attribute, its per-value bitsets (value v's words at v·words), or null (set record by record). */
  private readonly valueBits: (Int32Array | null)[];
  /** Per attribute, the bitset of its current constraint (meaningful while it is constrained). */
  private readonly bits: Int32Array[];
  /** The constrained attributes, in no particular order, and each one's position in that list (−1: none). */
  private readonly constrained: Int32Array;
  private readonly position: Int32Array;
  private nConstrained = 0;
  /** Every record's bit set (the last word's bits past n clear). */
  private readonly every: Int32Array;
  private readonly scratch: Int32Array;

  constructor(
    private readonly codes: readonly Int32Array[],
    arity: readonly number[],
    n: number,
    maxValueWords = VALUE_BITS_MAX_WORDS,
  ) {
    this.n = n;
    this.nAttr = codes.length;
    const words = (n + 31) >>> 5;
    this.words = words;
    const total = arity.reduce((s, k) => s + k * words, 0);
    this.valueBits = codes.map((c, m) => {
      if (total > maxValueWords) return null;
      const b = new Int32Array(arity[m]! * words);
      for (let i = 0; i < n; i++) b[c[i]! * words + (i >>> 5)]! |= 1 << (i & 31);
      return b;
    });
    this.bits = codes.map(() => new Int32Array(words));
    this.constrained = new Int32Array(this.nAttr);
    this.position = new Int32Array(this.nAttr).fill(-1);
    this.every = new Int32Array(words).fill(-1);
    if (n & 31) this.every[words - 1] = (1 << (n & 31)) - 1;
    this.scratch = new Int32Array(words);
  }

  /** Every attribute unconstrained. */
  reset(): void {
    for (let k = 0; k < this.nConstrained; k++) this.position[this.constrained[k]!] = -1;
    this.nConstrained = 0;
  }

  /** Attribute m allows the values with `allowed[v] === 1` (null: unconstrained). */
  set(m: number, allowed: Uint8Array | null): void {
    if (allowed === null) {
      const at = this.position[m]!;
      if (at < 0) return;
      const last = this.constrained[--this.nConstrained]!;
      this.constrained[at] = last;
      this.position[last] = at;
      this.position[m] = -1;
      return;
    }
    if (this.position[m]! < 0) {
      this.position[m] = this.nConstrained;
      this.constrained[this.nConstrained++] = m;
    }
    const out = this.bits[m]!;
    const words = this.words;
    const values = this.valueBits[m];
    out.fill(0);
    if (values === null) {
      const codes = this.codes[m]!;
      for (let i = 0; i < this.n; i++) if (allowed[codes[i]!] === 1) out[i >>> 5]! |= 1 << (i & 31);
      return;
    }
    for (let v = 0; v < allowed.length; v++) {
      if (allowed[v] !== 1) continue;
      for (let w = 0, at = v * words; w < words; w++, at++) out[w]! |= values[at]!;
    }
  }

  /**
   * The records matching every constraint except attribute `skip`'s (−1: every constraint), as words
   * (a scratch array, valid until the next call).
   */
  matching(skip: number): Int32Array {
    const out = this.scratch;
    const words = this.words;
    let first = true;
    for (let k = 0; k < this.nConstrained; k++) {
      const a = this.constrained[k]!;
      if (a === skip) continue;
      const b = this.bits[a]!;
      if (first) {
        out.set(b);
        first = false;
      } else for (let w = 0; w < words; w++) out[w]! &= b[w]!;
    }
    if (first) out.set(this.every);
    return out;
  }

  /** How many records match every constraint. */
  count(): number {
    const bits = this.matching(-1);
    let total = 0;
    for (let w = 0; w < this.words; w++) {
      let v = bits[w]!;
      v -= (v >>> 1) & 0x55555555;
      v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
      total += Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
    }
    return total;
  }
}
