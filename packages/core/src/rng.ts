import { RngError } from './errors.js';
import { hashString32, mix32 } from './hash.js';

/**
 * Seeded, splittable random generator: xoshiro128** (Blackman & Vigna) on four 32-bit words.
 *
 * `fork(label)` derives an independent stream from this generator's *key* (its seed and fork path),
 * not from its current position, so a component's stream does not depend on how many draws other
 * components made before it. Forking the same label twice gives the same stream, on purpose.
 */
export class Rng {
  private s0: number;
  private s1: number;
  private s2: number;
  private s3: number;
  // The polar method's second normal: a number field and a flag, not `number | null`, whose stores
  // would box every spare (a heap allocation per pair of draws).
  private spare = 0;
  private hasSpare = false;
  /** The seed and fork path this stream was made from, e.g. `42/aequitas/global`. */
  readonly path: string;

  private constructor(path: string, key: readonly [number, number, number, number]) {
    this.path = path;
    // SplitMix-style expansion of the key so that nearby keys give unrelated states.
    let z = key[0] ^ 0x6a09e667;
    const next = (extra: number): number => {
      z = (z + 0x9e3779b9 + extra) | 0;
      return mix32(z);
    };
    this.s0 = next(key[1]);
    this.s1 = next(key[2]);
    this.s2 = next(key[3]);
    this.s3 = next(key[0]);
    if ((this.s0 | this.s1 | this.s2 | this.s3) === 0) this.s0 = 1;
    // Discard a few outputs: the first draws of xoshiro from a fresh state are weakly mixed.
    for (let i = 0; i < 8; i++) this.nextU32();
  }

  /** Create a generator from a non-negative integer or a string seed. */
  static create(seed: number | string): Rng {
    if (typeof seed === 'number' && !(Number.isSafeInteger(seed) && seed >= 0)) {
      throw new RngError(`seed must be a non-negative safe integer or a string, got ${seed}`);
    }
    if (typeof seed !== 'number' && typeof seed !== 'string') {
      throw new RngError(`seed must be a non-negative safe integer or a string, got ${typeof seed}`);
    }
    const text = String(seed);
    return new Rng(text, keyOf(text));
  }

  /** An independent, reproducible stream for the component named `label`. */
  fork(label: string): Rng {
    const path = `${this.path}/${label}`;
    return new Rng(path, keyOf(path));
  }

  /** Next raw 32-bit unsigned output. */
  nextU32(): number {
    const result = Math.imul(rotl(Math.imul(this.s1, 5), 7), 9) >>> 0;
    const t = this.s1 << 9;
    this.s2 ^= this.s0;
    this.s3 ^= this.s1;
    this.s1 ^= this.s2;
    this.s0 ^= this.s3;
    this.s2 ^= t;
    this.s3 = rotl(this.s3, 11);
    return result;
  }

  /** Uniform double in [0, 1) with 53 random bits. */
  next(): number {
    const hi = this.nextU32() >>> 5; // 27 bits
    const lo = this.nextU32() >>> 6; // 26 bits
    return (hi * 67108864 + lo) / 9007199254740992;
  }

  /** Uniform double in [lo, hi). */
  uniform(lo = 0, hi = 1): number {
    if (!(hi >= lo)) throw new RngError(`uniform needs lo <= hi, got [${lo}, ${hi}]`);
    return lo + (hi - lo) * this.next();
  }

  /** Uniform integer in [lo, hi], both inclusive, without modulo bias. */
  int(lo: number, hi: number): number {
    if (!Number.isInteger(lo) || !Number.isInteger(hi) || hi < lo) {
      throw new RngError(`int needs integers lo <= hi, got [${lo}, ${hi}]`);
    }
    const span = hi - lo + 1;
    if (span <= 0x100000000) {
      // Rejection sampling on 32-bit outputs (Lemire's threshold).
      const limit = 0x100000000 - (0x100000000 % span);
      let r = this.nextU32();
      while (r >= limit) r = this.nextU32();
      return lo + (r % span);
    }
    return lo + Math.floor(this.next() * span);
  }

  /**
   * `count` draws of `int(0, n - 1)` into `out[0 .. count)`: the same values from the same stream as
   * calling `int` that many times, without its per-draw checks, and the remainder taken from one
   * multiplication (a 32-bit draw of 2^31 or more is no small integer to V8, and its `%` is the
   * floating-point remainder). For drawing many row indices at once.
   */
  intsBelow(n: number, out: Int32Array, count = out.length): void {
    if (!Number.isInteger(n) || n < 1 || n > 0x80000000) {
      throw new RngError(`intsBelow needs an integer 1 <= n <= 2^31, got ${n}`);
    }
    if (!Number.isInteger(count) || count < 0 || count > out.length) {
      throw new RngError(`intsBelow: count ${count} does not fit an array of ${out.length}`);
    }
    const limit = 0x100000000 - (0x100000000 % n);
    const inverse = 1 / n;
    for (let i = 0; i < count; i++) {
      let r = this.nextU32();
      while (r >= limit) r = this.nextU32();
      out[i] = remainder(r, n, inverse);
    }
  }

  /** True with probability p. */
  bernoulli(p: number): boolean {
    if (!(p >= 0 && p <= 1)) throw new RngError(`bernoulli needs p in [0, 1], got ${p}`);
    return this.next() < p;
  }

  /** Normal draw (Marsaglia polar method). */
  normal(mean = 0, sd = 1): number {
    if (!(sd >= 0)) throw new RngError(`normal needs sd >= 0, got ${sd}`);
    if (this.hasSpare) {
      this.hasSpare = false;
      return mean + sd * this.spare;
    }
    let u: number;
    let v: number;
    let s: number;
    do {
      u = 2 * this.next() - 1;
      v = 2 * this.next() - 1;
      s = u * u + v * v;
    } while (s >= 1 || s === 0);
    const f = Math.sqrt((-2 * Math.log(s)) / s);
    this.spare = v * f;
    this.hasSpare = true;
    return mean + sd * u * f;
  }

  /**
   * Standard normal draws into `out[from .. to)`: the same values from the same stream as calling
   * `normal()` that many times (the polar method's spare included, on entry and on exit), with the
   * generator's state held in locals for the whole batch instead of read and written per output.
   */
  normals(out: Float64Array, from = 0, to = out.length): void {
    if (!Number.isInteger(from) || !Number.isInteger(to) || from < 0 || to > out.length || from > to) {
      throw new RngError(`normals: [${from}, ${to}) does not fit an array of ${out.length}`);
    }
    let i = from;
    if (i < to && this.hasSpare) {
      this.hasSpare = false;
      out[i++] = this.spare;
    }
    if (i === to) return;
    let s0 = this.s0;
    let s1 = this.s1;
    let s2 = this.s2;
    let s3 = this.s3;
    let t = 0;
    let hi = 0;
    let u = 0;
    let v = 0;
    let s = 0;
    for (;;) {
      do {
        // Four xoshiro128** outputs, as `nextU32()` makes them: two 53-bit uniforms, as `next()` does.
        for (let k = 0; k < 4; k++) {
          const r = Math.imul(rotl(Math.imul(s1, 5), 7), 9) >>> 0;
          t = s1 << 9;
          s2 ^= s0;
          s3 ^= s1;
          s1 ^= s2;
          s0 ^= s3;
          s2 ^= t;
          s3 = rotl(s3, 11);
          if ((k & 1) === 0) hi = r >>> 5;
          else if (k === 1) u = 2 * ((hi * 67108864 + (r >>> 6)) / 9007199254740992) - 1;
          else v = 2 * ((hi * 67108864 + (r >>> 6)) / 9007199254740992) - 1;
        }
        s = u * u + v * v;
      } while (s >= 1 || s === 0);
      const f = Math.sqrt((-2 * Math.log(s)) / s);
      out[i++] = u * f;
      if (i === to) {
        this.spare = v * f;
        this.hasSpare = true;
        break;
      }
      out[i++] = v * f;
      if (i === to) break;
    }
    this.s0 = s0;
    this.s1 = s1;
    this.s2 = s2;
    this.s3 = s3;
  }

  /**
   * Standard normal draws into `out[from .. to)` by the ziggurat method (Marsaglia and Tsang 2000, in
   * Doornik 2005's form with 128 layers and independent bits): a layer from 7 bits and a 53-bit
   * uniform, the same two 32-bit outputs `next()` takes, give a draw by one multiplication in about
   * 98.8% of cases; the rest go to the layer's wedge test or, from the base layer, to Marsaglia's exact
   * sampler of the tail beyond 3.44. Exact in law like `normals`, and a few times faster, but not the
   * same values: `normals` keeps the polar method's stream for the callers built on it.
   */
  zigguratNormals(out: Float64Array, from = 0, to = out.length): void {
    if (!Number.isInteger(from) || !Number.isInteger(to) || from < 0 || to > out.length || from > to) {
      throw new RngError(`zigguratNormals: [${from}, ${to}) does not fit an array of ${out.length}`);
    }
    let s0 = this.s0;
    let s1 = this.s1;
    let s2 = this.s2;
    let s3 = this.s3;
    let t = 0;
    let i = from;
    while (i < to) {
      // Two xoshiro128** outputs, as `nextU32()` makes them, written out: through `nextU32()` or a loop
      // of two, a draw took 7.6 and 8.2 ns against 6.7 (the same values).
      const r1 = Math.imul(rotl(Math.imul(s1, 5), 7), 9) >>> 0;
      t = s1 << 9;
      s2 ^= s0;
      s3 ^= s1;
      s1 ^= s2;
      s0 ^= s3;
      s2 ^= t;
      s3 = rotl(s3, 11);
      const r2 = Math.imul(rotl(Math.imul(s1, 5), 7), 9) >>> 0;
      t = s1 << 9;
      s2 ^= s0;
      s3 ^= s1;
      s1 ^= s2;
      s0 ^= s3;
      s2 ^= t;
      s3 = rotl(s3, 11);
      // The uniform from the bits `next()` uses; the layer and the sign from the 8 bits it drops.
      const u = ((r1 >>> 5) * 67108864 + (r2 >>> 6)) * TWO_TO_MINUS_53;
      const layer = (r1 & 31) | ((r2 & 3) << 5);
      // 1 or -1 without a branch: a branch on a random bit is mispredicted half the time.
      const sign = 1 - ((r2 & 4) >>> 1);
      if (u < ZIG_RATIO[layer]!) {
        out[i++] = sign * u * ZIG_X[layer]!;
        continue;
      }
      // The rare cases draw more uniforms through the fields.
      this.s0 = s0;
      this.s1 = s1;
      this.s2 = s2;
      this.s3 = s3;
      const x = this.zigguratEdge(layer, u);
      s0 = this.s0;
      s1 = this.s1;
      s2 = this.s2;
      s3 = this.s3;
      if (x >= 0) out[i++] = sign * x;
    }
    this.s0 = s0;
    this.s1 = s1;
    this.s2 = s2;
    this.s3 = s3;
  }

  /**
   * `zigguratNormals`' draw of |z| when the uniform u falls outside layer's box: from the base layer a
   * draw of the tail beyond ZIG_R (Marsaglia 1964), from another its wedge's test, which returns -1 when
   * the point is rejected (the caller starts again).
   */
  private zigguratEdge(layer: number, u: number): number {
    if (layer === 0) {
      let x: number;
      let y: number;
      do {
        x = Math.log(1 - this.next()) / ZIG_R;
        y = Math.log(1 - this.next());
      } while (-2 * y < x * x);
      return ZIG_R - x;
    }
    const x = u * ZIG_X[layer]!;
    const hi = ZIG_X[layer]!;
    const lo = ZIG_X[layer + 1]!;
    const f0 = Math.exp(-0.5 * (hi * hi - x * x));
    const f1 = Math.exp(-0.5 * (lo * lo - x * x));
    return f1 + this.next() * (f0 - f1) < 1 ? x : -1;
  }

  /** One element of a non-empty array, uniformly. */
  choice<T>(items: ArrayLike<T>): T {
    if (items.length === 0) throw new RngError('choice from an empty array');
    return items[this.int(0, items.length - 1)]!;
  }

  /** Index drawn with probability proportional to `weights` (non-negative, positive sum). */
  weightedIndex(weights: ArrayLike<number>): number {
    let total = 0;
    for (let i = 0; i < weights.length; i++) {
      const w = weights[i]!;
      if (!(w >= 0) || !Number.isFinite(w)) throw new RngError(`weights must be finite and >= 0, got ${w}`);
      total += w;
    }
    if (!(total > 0)) throw new RngError('weights must have a positive sum');
    let r = this.next() * total;
    for (let i = 0; i < weights.length; i++) {
      r -= weights[i]!;
      if (r < 0) return i;
    }
    // Rounding can leave r at 0 after the last positive weight.
    for (let i = weights.length - 1; i >= 0; i--) if (weights[i]! > 0) return i;
    return weights.length - 1;
  }

  /** Fisher-Yates shuffle in place; returns the same array. */
  shuffle<T, A extends { length: number; [i: number]: T }>(items: A): A {
    for (let i = items.length - 1; i > 0; i--) {
      const j = this.int(0, i);
      const tmp = items[i]!;
      items[i] = items[j]!;
      items[j] = tmp;
    }
    return items;
  }

  /** `k` distinct indices from [0, n), in random order (partial Fisher-Yates). */
  sampleIndices(n: number, k: number): Int32Array {
    if (!Number.isInteger(n) || !Number.isInteger(k) || k < 0 || n < 0 || k > n) {
      throw new RngError(`sampleIndices needs integers 0 <= k <= n, got n=${n}, k=${k}`);
    }
    if (k * 4 < n) {
      // Sparse case: rejection with a set avoids allocating n entries.
      const seen = new Set<number>();
      const out = new Int32Array(k);
      let m = 0;
      while (m < k) {
        const i = this.int(0, n - 1);
        if (!seen.has(i)) {
          seen.add(i);
          out[m++] = i;
        }
      }
      return out;
    }
    const all = new Int32Array(n);
    for (let i = 0; i < n; i++) all[i] = i;
    for (let i = 0; i < k; i++) {
      const j = this.int(i, n - 1);
      const tmp = all[i]!;
      all[i] = all[j]!;
      all[j] = tmp;
    }
    return all.slice(0, k);
  }

  /** `k` distinct elements of `items`, in random order. */
  sample<T>(items: readonly T[], k: number): T[] {
    return Array.from(this.sampleIndices(items.length, k), (i) => items[i]!);
  }
}

/**
 * `r % n` for integers 0 <= r < 2^32 and 1 <= n <= 2^32, `inverse` being `1 / n`. `r * inverse` is within
 * 2^-19 of r / n, so its floor is the quotient or one off it, which the comparisons correct; every
 * product and difference is an integer below 2^34, exact in a double.
 */
export function remainder(r: number, n: number, inverse: number): number {
  const i = r - Math.floor(r * inverse) * n;
  return i < 0 ? i + n : i >= n ? i - n : i;
}

/**
 * The ziggurat's 128 layers (Doornik 2005, ZIGNOR): ZIG_X[i] is layer i's right edge (ZIG_X[0] the base
 * layer's, V / f(R), ZIG_X[1] = R, ZIG_X[128] = 0), each layer of area ZIG_V under f(x) = exp(-x²/2);
 * ZIG_RATIO[i] = ZIG_X[i + 1] / ZIG_X[i], the share of layer i's box under the curve's next layer.
 */
const ZIG_LAYERS = 128;
/** 2^-53: a 53-bit integer times it is a uniform in [0, 1), as `next()` divides by 2^53 (the same bits). */
const TWO_TO_MINUS_53 = 1 / 9007199254740992;
const ZIG_R = 3.442619855899;
const ZIG_V = 9.91256303526217e-3;
const ZIG_X = new Float64Array(ZIG_LAYERS + 1);
const ZIG_RATIO = new Float64Array(ZIG_LAYERS);
{
  let f = Math.exp(-0.5 * ZIG_R * ZIG_R);
  ZIG_X[0] = ZIG_V / f;
  ZIG_X[1] = ZIG_R;
  ZIG_X[ZIG_LAYERS] = 0;
  for (let i = 2; i < ZIG_LAYERS; i++) {
    ZIG_X[i] = Math.sqrt(-2 * Math.log(ZIG_V / ZIG_X[i - 1]! + f));
    f = Math.exp(-0.5 * ZIG_X[i]! * ZIG_X[i]!);
  }
  for (let i = 0; i < ZIG_LAYERS; i++) ZIG_RATIO[i] = ZIG_X[i + 1]! / ZIG_X[i]!;
}

function rotl(x: number, k: number): number {
  return (x << k) | (x >>> (32 - k));
}

function keyOf(text: string): [number, number, number, number] {
  return [hashString32(text, 1), hashString32(text, 2), hashString32(text, 3), hashString32(text, 4)];
}

/** Shorthand for `Rng.create(seed)`. */
export function createRng(seed: number | string): Rng {
  return Rng.create(seed);
}
