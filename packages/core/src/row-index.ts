/**
 * An open-addressing hash index of fixed-width numeric rows: each distinct row gets a dense id
 * 0, 1, 2, ... in insertion order. Rows are copied into one growing Float64Array, so looking up or
 * adding a row allocates nothing per row. Used to deduplicate model queries and tested inputs.
 *
 * Keys are the values as numbers: -0 equals 0, and every NaN equals every other NaN (as in the rows'
 * string forms). Each row is hashed once: the table keeps every slot's hash next to its id, so a probe
 * compares hashes before rows and growing the table moves slots without hashing a row again.
 */
export class RowIndex {
  readonly width: number;
  private rows: Float64Array;
  /** Two words per slot: id + 1 (0 = empty) and the row's hash. */
  private table: Int32Array;
  private mask: number;
  private count = 0;
  /** A copy of the row being looked up when it does not come as a Float64Array. */
  private readonly scratch: Float64Array;
  private readonly scratchBits: Int32Array;

  constructor(width: number, initialCapacity = 1024) {
    if (!Number.isInteger(width) || width < 0)
      throw new RangeError(`row width must be a non-negative integer`);
    this.width = width;
    let cap = 16;
    while (cap < initialCapacity * 2) cap <<= 1;
    this.table = new Int32Array(2 * cap);
    this.mask = cap - 1;
    this.rows = new Float64Array(Math.max(1, initialCapacity) * Math.max(1, width));
    this.scratch = new Float64Array(Math.max(1, width));
    this.scratchBits = new Int32Array(this.scratch.buffer);
  }

  /** Number of distinct rows stored. */
  get size(): number {
    return this.count;
  }

  /** Copy one looked-up row into scratch (its 32-bit view is `scratchBits`). */
  private load(src: ArrayLike<number>, off: number): Float64Array {
    for (let j = 0; j < this.width; j++) this.scratch[j] = src[off + j]!;
    return this.scratch;
  }

  /** Hash of `f[at .. at+width)`; `u` views the same memory as 32-bit words, `w` is the word offset. */
  private hash(f: Float64Array, at: number, u: Int32Array, w: number): number {
    let h = 0x811c9dc5 ^ this.width;
    for (let j = 0; j < this.width; j++) {
      const v = f[at + j]!;
      let lo = 0;
      let hi = 0;
      if (Number.isNaN(v))
        hi = 0x7ff80000; // every NaN alike
      else if (v !== 0) {
        lo = u[w + 2 * j]!; // -0 and 0 both hash as zero words
        hi = u[w + 2 * j + 1]!;
      }
      h = Math.imul(h ^ lo, 0x01000193);
      h = Math.imul(h ^ hi, 0x01000193);
      h ^= h >>> 13;
    }
    h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
    return h ^ (h >>> 15);
  }

  private equals(id: number, f: Float64Array, at: number): boolean {
    const rows = this.rows;
    const base = id * this.width;
    for (let j = 0; j < this.width; j++) {
      const a = rows[base + j]!;
      const b = f[at + j]!;
      if (a !== b && !(Number.isNaN(a) && Number.isNaN(b))) return false;
    }
    return true;
  }

  /** Slot of the row (found or the empty slot where it would go), given its hash. */
  private probe(h: number, f: Float64Array, at: number): number {
    const table = this.table;
    let slot = h & this.mask;
    for (;;) {
      const e = table[2 * slot]!;
      if (e === 0 || (table[2 * slot + 1] === h && this.equals(e - 1, f, at))) return slot;
      slot = (slot + 1) & this.mask;
    }
  }

  /** Id of the row `src[off .. off+width)`, or -1 if it was never added. */
  find(src: ArrayLike<number>, off = 0): number {
    const f = this.load(src, off);
    return this.table[2 * this.probe(this.hash(f, 0, this.scratchBits, 0), f, 0)]! - 1;
  }

  /** Id of the row, adding it if new. A new row gets id `size - 1` after the call. */
  getOrAdd(src: ArrayLike<number>, off = 0): number {
    const f = this.load(src, off);
    return this.addHashed(f, 0, this.hash(f, 0, this.scratchBits, 0));
  }

  /**
   * Ids of the n rows of `x` (row-major, `width` values each) into `ids`, adding new rows in order of
   * first occurrence. Returns how many were new: they hold ids `size - fresh .. size - 1`.
   */
  getOrAddAll(x: Float64Array, n: number, ids: Int32Array): number {
    const before = this.count;
    const d = this.width;
    this.reserve(before + n);
    const u = new Int32Array(x.buffer, 0, x.buffer.byteLength >>> 2);
    const w0 = x.byteOffset >>> 2;
    for (let i = 0; i < n; i++) ids[i] = this.addHashed(x, i * d, this.hash(x, i * d, u, w0 + 2 * i * d));
    return this.count - before;
  }

  private addHashed(f: Float64Array, at: number, h: number): number {
    const slot = this.probe(h, f, at);
    const e = this.table[2 * slot]!;
    if (e !== 0) return e - 1;
    const id = this.count++;
    const d = this.width;
    if ((id + 1) * d > this.rows.length) {
      const grown = new Float64Array(this.rows.length * 2);
      grown.set(this.rows);
      this.rows = grown;
    }
    const rows = this.rows;
    for (let j = 0; j < d; j++) rows[id * d + j] = f[at + j]!;
    this.table[2 * slot] = id + 1;
    this.table[2 * slot + 1] = h;
    if (this.count * 2 > this.mask + 1) this.grow();
    return id;
  }

  /**
   * The stored rows with ids `from .. to-1`, row-major, as a view. Stored rows are never rewritten,
   * so the view keeps its values after later adds (which may move the store elsewhere).
   */
  rowsView(from: number, to: number): Float64Array {
    return this.rows.subarray(from * this.width, to * this.width);
  }

  /** A view of the stored row with this id (valid until the next add). */
  row(id: number): Float64Array {
    return this.rows.subarray(id * this.width, (id + 1) * this.width);
  }

  /**
   * Room for `rows` rows without growing: one allocation of the row store and at most one move of
   * the table, instead of repeated doublings (fresh memory is much of the cost of a large batch).
   */
  private reserve(rows: number): void {
    const d = this.width;
    if (rows * d > this.rows.length) {
      const grown = new Float64Array(Math.max(this.rows.length * 2, rows * d));
      grown.set(this.rows.subarray(0, this.count * d));
      this.rows = grown;
    }
    let cap = this.mask + 1;
    while (rows * 2 > cap) cap <<= 1;
    if (cap > this.mask + 1) this.grow(cap);
  }

  /** Move the table to `cap` slots (default twice as many), each slot by its kept hash. */
  private grow(cap = 2 * (this.mask + 1)): void {
    const old = this.table;
    const table = new Int32Array(2 * cap);
    const mask = (table.length >>> 1) - 1;
    for (let s = 0; s < old.length; s += 2) {
      const e = old[s]!;
      if (e === 0) continue;
      const h = old[s + 1]!;
      let slot = h & mask;
      while (table[2 * slot] !== 0) slot = (slot + 1) & mask;
      table[2 * slot] = e;
      table[2 * slot + 1] = h;
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
