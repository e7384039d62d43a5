/**
 * Small non-cryptographic hashing (MurmurHash3-style 32-bit mixing, two independent lanes)
 * used for fingerprints, row keys and seed derivation. Not for security.
 */

export function mix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** Hash of a string into a 32-bit unsigned integer, salted by `seed`. */
export function hashString32(text: string, seed = 0): number {
  let h = seed ^ 0x9e3779b9;
  for (let i = 0; i < text.length; i++) {
    h = Math.imul(h ^ text.charCodeAt(i), 0x5bd1e995);
    h ^= h >>> 15;
  }
  return mix32(h ^ text.length);
}

/** Incremental 64-bit (two-lane) hasher over numbers, strings and typed arrays; hex digest. */
export class Hasher {
  private a = 0x243f6a88;
  private b = 0x85a308d3;
  private readonly f64 = new Float64Array(1);
  private readonly u32 = new Uint32Array(this.f64.buffer);

  private word(w: number): void {
    this.a = Math.imul(this.a ^ w, 0xcc9e2d51);
    this.a = ((this.a << 15) | (this.a >>> 17)) >>> 0;
    this.b = Math.imul(this.b ^ w, 0x1b873593) + this.a;
    this.b = ((this.b << 13) | (this.b >>> 19)) >>> 0;
  }

  number(x: number): this {
    this.f64[0] = x;
    this.word(this.u32[0]!);
    this.word(this.u32[1]!);
    return this;
  }

  string(s: string): this {
    this.word(s.length);
    for (let i = 0; i < s.length; i++) this.word(s.charCodeAt(i));
    return this;
  }

  numbers(xs: ArrayLike<number>): this {
    this.word(xs.length);
    for (let i = 0; i < xs.length; i++) this.number(xs[i]!);
    return this;
  }

  digest(): string {
    const a = mix32(this.a ^ mix32(this.b));
    const b = mix32(this.b ^ a);
    return a.toString(16).padStart(8, '0') + b.toString(16).padStart(8, '0');
  }
}
