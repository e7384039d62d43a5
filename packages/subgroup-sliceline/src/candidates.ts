import { GrowableArray } from '@fb/core';

const EMPTY = -1;

/**
 * The distinct candidates of one level, keyed by their sorted predicate list (L one-hot columns), as
 * an open-addressing hash table over typed arrays. Each candidate keeps the minimum of its parents'
 * size, total error and maximum error (the upper bounds of its own), and how many parent pairs
 * produced it.
 */
export class CandidateTable {
  readonly L: number;
  count = 0;
  private readonly keys = new GrowableArray((n) => new Int32Array(n));
  private readonly ss = new GrowableArray((n) => new Float64Array(n));
  private readonly se = new GrowableArray((n) => new Float64Array(n));
  private readonly sm = new GrowableArray((n) => new Float64Array(n));
  private readonly pairs = new GrowableArray((n) => new Int32Array(n));
  private table = new Int32Array(1024).fill(EMPTY);

  constructor(L: number) {
    this.L = L;
  }

  private hash(key: Int32Array, off: number): number {
    let h = 0x811c9dc5;
    for (let p = 0; p < this.L; p++) h = Math.imul(h ^ key[off + p]!, 0x01000193);
    return (h ^ (h >>> 15)) >>> 0;
  }

  private sameKey(id: number, key: Int32Array, off: number): boolean {
    const keys = this.keys.array;
    const base = id * this.L;
    for (let p = 0; p < this.L; p++) if (keys[base + p] !== key[off + p]) return false;
    return true;
  }

  private grow(): void {
    const size = this.table.length * 2;
    const mask = size - 1;
    const table = new Int32Array(size).fill(EMPTY);
    const keys = this.keys.array;
    for (let id = 0; id < this.count; id++) {
      let h = this.hash(keys, id * this.L) & mask;
      while (table[h] !== EMPTY) h = (h + 1) & mask;
      table[h] = id;
    }
    this.table = table;
  }

  /** Record that a parent pair with statistics (ss, se, sm) each produced the candidate `key[off..off+L)`. */
  add(key: Int32Array, off: number, ss: number, se: number, sm: number): void {
    if (2 * (this.count + 1) > this.table.length) this.grow();
    const mask = this.table.length - 1;
    let h = this.hash(key, off) & mask;
    for (;;) {
      const id = this.table[h]!;
      if (id === EMPTY) break;
      if (this.sameKey(id, key, off)) {
        const ssA = this.ss.array;
        const seA = this.se.array;
        const smA = this.sm.array;
        if (ss < ssA[id]!) ssA[id] = ss;
        if (se < seA[id]!) seA[id] = se;
        if (sm < smA[id]!) smA[id] = sm;
        this.pairs.array[id]!++;
        return;
      }
      h = (h + 1) & mask;
    }
    const id = this.count++;
    this.table[h] = id;
    this.keys.ensure(this.count * this.L).set(key.subarray(off, off + this.L), id * this.L);
    this.ss.ensure(this.count)[id] = ss;
    this.se.ensure(this.count)[id] = se;
    this.sm.ensure(this.count)[id] = sm;
    this.pairs.ensure(this.count)[id] = 1;
  }

  /** The candidates in insertion order. */
  view(): { keys: Int32Array; ss: Float64Array; se: Float64Array; sm: Float64Array; pairs: Int32Array } {
    return {
      keys: this.keys.array,
      ss: this.ss.array,
      se: this.se.array,
      sm: this.sm.array,
      pairs: this.pairs.array,
    };
  }
}
