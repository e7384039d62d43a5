/** A slot's tag: the hash's top 7 bits, never 0 (which marks an empty slot). */
const tagOf = (h: number): number => (h >>> 25) | 0x80;

/** Rows hashed and probed together by getOrAddAll. */
const BLOCK = 256;

/**
 * Tables below this many slots grow fourfold, larger ones twofold. Moving the slots is most of what a
 * growing index costs (about a tenth of adding a million distinct rows in batches of 1,000 when every
 * growth doubled); growing fourfold moves each slot half as often, at the price of a table at most
 * twice as large, which stops being cheap at this size (16 Mi slots are 144 MB).
 */
const FOURFOLD_BELOW = 1 << 24;

/** Storage of a RowIndex's rows, narrowest first: a store widens when a row does not fit. */
type Chunk = Int8Array | Int32Array | Float64Array;
const NARROW = 0;
const INT32 = 1;
const WIDE = 2;
const CHUNK_TYPES = [Int8Array, Int32Array, Float64Array] as const;

/**
 * An open-addressing hash index of fixed-width numeric rows: each distinct row gets a dense id
 * 0, 1, 2, ... in insertion order. Used to deduplicate model queries and tested inputs.
 *
 * Keys are the values as numbers: -0 equals 0, and every NaN equals every other NaN (as in the rows'
 * string forms). Each row is hashed once: the table keeps every slot's hash next to its id, so a probe
 * compares hashes before rows and growing the table moves slots without hashing a row again.
 *
 * Fresh memory, not hashing, is most of the cost of indexing a large batch, so rows are stored
 * compactly: as bytes while every value stored is an integer in [-128, 127] (category codes), as
 * 32-bit integers while every value is one, as doubles otherwise; the first row that does not fit
 * widens the store once. Rows go into fixed-size chunks, so a growing store never copies the rows it
 * holds, and looking up or adding a row allocates nothing per row.
 */
export class RowIndex {
  readonly width: number;
  /** Stored rows, `1 << chunkShift` rows per chunk, all of the store's kind. */
  private chunks: Chunk[] = [];
  private kind = NARROW;
  private readonly chunkShift: number;
  private readonly chunkMask: number;
  /** Two words per slot: id + 1 and the row's hash. */
  private table: Int32Array;
  /**
   * One byte per slot: 0 when empty, else a tag from the hash's top bits. Probes read these first: a
   * table of a million rows is 16 MB, where random reads are slow, and its tags are 2 MB.
   */
  private tags: Uint8Array;
  private mask: number;
  private count = 0;
  /** A copy of the row being looked up when it does not come as a Float64Array. */
  private readonly scratch: Float64Array;
  private readonly scratchBits: Int32Array;
  /** A batch's row hashes, reused from batch to batch. */
  private readonly hashes = new Int32Array(BLOCK);
  /** The storage kind each row of a block needs. */
  private readonly kinds = new Uint8Array(BLOCK);
  /** The storage kind the row last hashed needs. */
  private hashedKind = NARROW;
  /** Sink of the batch's slot reads, so that they are not optimised away. */
  private touched = 0;

  constructor(width: number, initialCapacity = 1024) {
    if (!Number.isInteger(width) || width < 0)
      throw new RangeError(`row width must be a non-negative integer`);
    this.width = width;
    let cap = 16;
    while (cap < initialCapacity * 2) cap <<= 1;
    this.table = new Int32Array(2 * cap);
    this.tags = new Uint8Array(cap);
    this.mask = cap - 1;
    // At most 256 KiB of doubles per chunk, so that the allocator can reuse freed chunks.
    let shift = 0;
    while (shift < 16 && (2 << shift) * Math.max(1, width) * 8 <= 1 << 18) shift++;
    this.chunkShift = shift;
    this.chunkMask = (1 << shift) - 1;
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

  /**
   * Hash of `f[at .. at+width)`; `u` views the same memory as 32-bit words, `w` is the word offset.
   * A value that is a 32-bit integer is hashed as that integer (-0 as 0), any other by its two words
   * (every NaN alike).
   */
  private hash(f: Float64Array, at: number, u: Int32Array, w: number): number {
    const width = this.width;
    let h = 0x811c9dc5 ^ width;
    // Non-zero when some value is not a byte (bits below 2^31) or not a 32-bit integer (bit 2^31).
    let wider = 0;
    for (let j = 0; j < width; j++) {
      const v = f[at + j]!;
      const i = v | 0;
      if (i === v) {
        h = Math.imul(h ^ i, 0x01000193);
        wider |= ((i << 24) >> 24) ^ i;
      } else {
        const nan = Number.isNaN(v);
        h = Math.imul(h ^ (nan ? 0 : u[w + 2 * j]!), 0x01000193);
        h = Math.imul(h ^ (nan ? 0x7ff80000 : u[w + 2 * j + 1]!), 0x01000193);
        wider = -1;
      }
      h ^= h >>> 13;
    }
    this.hashedKind = wider === 0 ? NARROW : wider < 0 ? WIDE : INT32;
    h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
    return h ^ (h >>> 15);
  }

  private equals(id: number, f: Float64Array, at: number): boolean {
    const rows = this.chunks[id >>> this.chunkShift]!;
    const base = (id & this.chunkMask) * this.width;
    for (let j = 0; j < this.width; j++) {
      const a = rows[base + j]!;
      const b = f[at + j]!;
      if (a !== b && !(Number.isNaN(a) && Number.isNaN(b))) return false;
    }
    return true;
  }

  /** Slot of the row (found or the empty slot where it would go), given its hash. */
  private probe(h: number, f: Float64Array, at: number): number {
    const tags = this.tags;
    const tag = tagOf(h);
    let slot = h & this.mask;
    for (;;) {
      const t = tags[slot]!;
      if (t === 0) return slot;
      if (t === tag) {
        const table = this.table;
        if (table[2 * slot + 1] === h && this.equals(table[2 * slot]! - 1, f, at)) return slot;
      }
      slot = (slot + 1) & this.mask;
    }
  }

  /** Id of the row `src[off .. off+width)`, or -1 if it was never added. */
  find(src: ArrayLike<number>, off = 0): number {
    const f = this.load(src, off);
    const slot = this.probe(this.hash(f, 0, this.scratchBits, 0), f, 0);
    return this.tags[slot] === 0 ? -1 : this.table[2 * slot]! - 1;
  }

  /** Id of the row, adding it if new. A new row gets id `size - 1` after the call. */
  getOrAdd(src: ArrayLike<number>, off = 0): number {
    const f = this.load(src, off);
    const h = this.hash(f, 0, this.scratchBits, 0);
    return this.addHashed(f, 0, h, this.hashedKind);
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
    const hashes = this.hashes;
    const kinds = this.kinds;
    // In blocks: hash the block's rows, read each one's first slot, then probe. The slot reads do not
    // wait on each other, so the processor overlaps their cache misses, and the probes then find
    // their slots in cache (a table of a million rows is 16 MB, where a lone random read is slow).
    let touched = 0;
    for (let from = 0; from < n; from += BLOCK) {
      const to = Math.min(n, from + BLOCK);
      const tags = this.tags;
      const table = this.table;
      const mask = this.mask;
      for (let i = from; i < to; i++) {
        hashes[i - from] = this.hash(x, i * d, u, w0 + 2 * i * d);
        kinds[i - from] = this.hashedKind;
      }
      for (let k = 0; k < to - from; k++) {
        const slot = hashes[k]! & mask;
        touched |= tags[slot]! | table[2 * slot]!;
      }
      for (let i = from; i < to; i++) ids[i] = this.addHashed(x, i * d, hashes[i - from]!, kinds[i - from]!);
    }
    this.touched ^= touched;
    return this.count - before;
  }

  /** Id of the row with hash h, adding it if new; `kind` is the storage it needs. */
  private addHashed(f: Float64Array, at: number, h: number, kind: number): number {
    const slot = this.probe(h, f, at);
    if (this.tags[slot] !== 0) return this.table[2 * slot]! - 1;
    const id = this.count++;
    const d = this.width;
    if (kind > this.kind) this.widen(kind);
    const c = id >>> this.chunkShift;
    if (c === this.chunks.length)
      this.chunks.push(new CHUNK_TYPES[this.kind]!(Math.max(1, d) << this.chunkShift));
    const rows = this.chunks[c]!;
    const base = (id & this.chunkMask) * d;
    for (let j = 0; j < d; j++) rows[base + j] = f[at + j]!;
    this.table[2 * slot] = id + 1;
    this.table[2 * slot + 1] = h;
    this.tags[slot] = tagOf(h);
    if (this.count * 2 > this.mask + 1) this.grow();
    return id;
  }

  /** Store every row as `kind` from now on (a wider kind than the store's). */
  private widen(kind: number): void {
    const Type = CHUNK_TYPES[kind]!;
    this.chunks = this.chunks.map((chunk) => Type.from(chunk));
    this.kind = kind;
  }

  /** The stored row with this id, copied into `out` (by default a new array). */
  row(id: number, out = new Float64Array(this.width)): Float64Array {
    const base = (id & this.chunkMask) * this.width;
    const rows = this.chunks[id >>> this.chunkShift]!;
    for (let j = 0; j < this.width; j++) out[j] = rows[base + j]!;
    return out;
  }

  /** Room in the table for `rows` rows: at most one move instead of repeated growths. */
  private reserve(rows: number): void {
    const current = this.mask + 1;
    let cap = current;
    while (rows * 2 > cap) cap <<= 1;
    if (cap > current) this.grow(Math.max(cap, grownSize(current)));
  }

  /** Move the table to `cap` slots (by default its next size, `grownSize`), each slot by its kept hash. */
  private grow(cap = grownSize(this.mask + 1)): void {
    const old = this.table;
    const oldTags = this.tags;
    const table = new Int32Array(2 * cap);
    const tags = new Uint8Array(cap);
    const mask = cap - 1;
    for (let s = 0; s < oldTags.length; s++) {
      const t = oldTags[s]!;
      if (t === 0) continue;
      const h = old[2 * s + 1]!;
      let slot = h & mask;
      while (tags[slot] !== 0) slot = (slot + 1) & mask;
      table[2 * slot] = old[2 * s]!;
      table[2 * slot + 1] = h;
      tags[slot] = t;
    }
    this.table = table;
    this.tags = tags;
    this.mask = mask;
  }
}

/** The size a table of `cap` slots grows to. */
function grownSize(cap: number): number {
  return cap < FOURFOLD_BELOW ? 4 * cap : 2 * cap;
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
