/**
 * An open-addressing hash index of fixed-width numeric rows: each distinct row gets a dense id
 * 0, 1, 2, ... in insertion order. Rows are copied into one growing Float64Array, so looking up or
 * adding a row allocates nothing per row. Used to deduplicate model queries and tested inputs.
 */
export class RowIndex {
  readonly width: number;
  private rows: Float64Array;
  private table: Int32Array; // slot -> id + 1 (0 = empty)
  private mask: number;
  private count = 0;
  private readonly f64 = new Float64Array(1);
  private readonly u32 = new Uint32Array(this.f64.buffer);

  constructor(width: number, initialCapacity = 1024) {
    if (!Number.isInteger(width) || width < 0)
      throw new RangeError(`row width must be a non-negative integer`);
    this.width = width;
    let cap = 16;
    while (cap < initialCapacity * 2) cap <<= 1;
    this.table = new Int32Array(cap);
    this.mask = cap - 1;
    this.rows = new Float64Array(Math.max(1, initialCapacity) * Math.max(1, width));
  }

  /** Number of distinct rows stored. */
  get size(): number {
    return this.count;
  }

  private hash(src: ArrayLike<number>, off: number): number {
    let h = 0x811c9dc5 ^ this.width;
    for (let j = 0; j < this.width; j++) {
      const v = src[off + j]!;
      this.f64[0] = v === 0 ? 0 : v; // -0 and 0 are the same value
      h = Math.imul(h ^ this.u32[0]!, 0x01000193);
      h = Math.imul(h ^ this.u32[1]!, 0x01000193);
      h ^= h >>> 13;
    }
    h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
    return (h ^ (h >>> 15)) >>> 0;
  }

  private equals(id: number, src: ArrayLike<number>, off: number): boolean {
    const base = id * this.width;
    for (let j = 0; j < this.width; j++) if (this.rows[base + j] !== src[off + j]) return false;
    return true;
  }

  /** Id of the row `src[off .. off+width)`, or -1 if it was never added. */
  find(src: ArrayLike<number>, off = 0): number {
    let slot = this.hash(src, off) & this.mask;
    for (;;) {
      const e = this.table[slot]!;
      if (e === 0) return -1;
      if (this.equals(e - 1, src, off)) return e - 1;
      slot = (slot + 1) & this.mask;
    }
  }

  /** Id of the row, adding it if new. A new row gets id `size - 1` after the call. */
  getOrAdd(src: ArrayLike<number>, off = 0): number {
    let slot = this.hash(src, off) & this.mask;
    for (;;) {
      const e = this.table[slot]!;
      if (e === 0) break;
      if (this.equals(e - 1, src, off)) return e - 1;
      slot = (slot + 1) & this.mask;
    }
    const id = this.count++;
    if ((id + 1) * this.width > this.rows.length) {
      const grown = new Float64Array(this.rows.length * 2);
      grown.set(this.rows);
      this.rows = grown;
    }
    for (let j = 0; j < this.width; j++) this.rows[id * this.width + j] = src[off + j]!;
    this.table[slot] = id + 1;
    if (this.count * 2 > this.table.length) this.rehash();
    return id;
  }

  /** A view of the stored row with this id (valid until the next add). */
  row(id: number): Float64Array {
    return this.rows.subarray(id * this.width, (id + 1) * this.width);
  }

  private rehash(): void {
    const table = new Int32Array(this.table.length * 2);
    const mask = table.length - 1;
    for (let id = 0; id < this.count; id++) {
      let slot = this.hash(this.rows, id * this.width) & mask;
      while (table[slot] !== 0) slot = (slot + 1) & mask;
      table[slot] = id + 1;
    }
    this.table = table;
    this.mask = mask;
  }
}

/** A growable Int32 or Float64 column, for per-id values next to a RowIndex. */
export class GrowableArray<T extends Int32Array | Float64Array> {
  private data: T;
  private readonly make: (n: number) => T;
  constructor(make: (n: number) => T, initial = 1024) {
    this.make = make;
    this.data = make(initial);
  }
  ensure(n: number): T {
    if (n > this.data.length) {
      let cap = this.data.length * 2;
      while (cap < n) cap *= 2;
      const grown = this.make(cap);
      grown.set(this.data);
      this.data = grown;
    }
    return this.data;
  }
  get array(): T {
    return this.data;
  }
}
