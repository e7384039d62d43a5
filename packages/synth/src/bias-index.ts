import { OptionsError, type Schema } from '@fb/core';
import type { GaussianCopula } from './copula.js';
import { DomainIndexer } from './marginal.js';
import { type Constraint, type SubgroupDef, satisfies } from './subgroups.js';

/** What the index reports for a batch of inputs. */
export interface BiasScan {
  /** Injected bias: the sum of the biases of every subgroup the input falls in. */
  beta: Float64Array;
  /** Smallest and largest injected bias over all protected-value combinations, and where. */
  minBeta: Float64Array;
  minCombo: Int32Array;
  maxBeta: Float64Array;
  maxCombo: Int32Array;
  /** A combination other than the input's own (the lowest index), for when all are equal. */
  otherCombo: Int32Array;
}

/**
 * A test on non-protected attributes, with one bitset per outcome of the subgroups whose
 * constraints on those attributes (if any) the outcome meets, at `masks[offset + outcome * words]`.
 * Categorical attributes are tested jointly, several at once: the outcome is their joint code
 * Σ code·stride. Any other attribute is tested alone by its cell among `cuts`, the sorted distinct
 * bounds of its constraints, on which every constraint is constant (see `cellOf`).
 */
interface Filter {
  readonly attrs: Int32Array;
  readonly strides: Int32Array;
  readonly cuts: Float64Array | null;
  readonly offset: number;
}

/** Most protected-value combinations for which `scan` keeps a dense array of their biases. */
const DENSE_COMBOS = 512;
/** Rows `scan` keeps a key's sums for before it judges whether they are reused often enough. */
const MEMO_TRIAL_ROWS = 1024;

/** Largest joint domain of the categorical attributes tested together. */
const MAX_JOINT = 256;

/**
 * Exact evaluation of the injected bias at any input and at every protected-value variant of it.
 * The subgroups whose non-protected conditions an input meets are the AND of one precomputed
 * bitset per filter, taken word by word with the most constraining filters of each word first so
 * that most words are cleared after a few ANDs; only those subgroups with a nonzero bias are
 * evaluated on the protected variants, through the precomputed list of joint protected
 * combinations each subgroup admits.
 */
export class BiasIndex {
  readonly protectedAttrs: Int32Array;
  readonly radix: Int32Array;
  readonly combos: number;
  private readonly schema: Schema;
  /** Domain index of each protected attribute's value. */
  private readonly protectedIndex: DomainIndexer;
  private readonly copula: GaussianCopula;
  private readonly bias: Float64Array;
  private readonly words: number;
  /** Subgroup id of each bit position. */
  private readonly bitId: Int32Array;
  /** Bits of all subgroups, and of those with a nonzero bias (the only ones that move β). */
  private readonly all: Int32Array;
  private readonly biased: Int32Array;
  private readonly filters: Filter[];
  private readonly masks: Int32Array;
  /** Per word: the filters constraining some of its subgroups, most constraining first. */
  private readonly wordStart: Int32Array;
  private readonly wordFilters: Int32Array;
  /** Per protected attribute: radix x words bits of the subgroups admitting each domain index. */
  private readonly protectedMasks: Int32Array[];
  private readonly comboStart: Int32Array;
  private readonly comboIds: Int32Array;
  /** Rows scanned while the last key's sums were kept, and those that reused them (see `scan`). */
  private memoRows = 0;
  private memoHits = 0;

  constructor(copula: GaussianCopula, subgroups: readonly SubgroupDef[], maxCombinations: number) {
    const schema = copula.schema;
    this.schema = schema;
    this.copula = copula;
    const d = schema.attributes.length;
    const prot: number[] = [];
    schema.attributes.forEach((a, j) => {
      if (a.protected) prot.push(j);
    });
    this.protectedAttrs = Int32Array.from(prot);
    this.protectedIndex = new DomainIndexer(prot.map((j) => schema.attributes[j]!));
    this.radix = Int32Array.from(
      prot,
      (j) => (copula.marginals[j] as { values: Float64Array }).values.length,
    );
    let combos = 1;
    for (const r of this.radix) combos *= r;
    if (combos > maxCombinations) {
      throw new OptionsError(
        'OPTIONS_INVALID',
        `the protected attributes have ${combos} joint values, above maxProtectedCombinations ${maxCombinations}`,
        { option: '/maxProtectedCombinations' },
      );
    }
    this.combos = combos;
    const G = subgroups.length;
    this.bias = Float64Array.from(subgroups, (s) => s.bias);
    const isProtected = (c: Constraint) => schema.attributes[c.attr]!.protected;
    // Biases are summed in a fixed order, which the output depends on to the last bit: subgroups
    // without non-protected constraints first, then by their least probable non-protected
    // constraint's attribute, then by id. Bit positions follow that order.
    const mass = (c: Constraint) => {
      const m = copula.marginals[c.attr]!;
      if (m.kind === 'continuous') return 0.5;
      let p = 0;
      for (let k = c.kLo; k <= c.kHi; k++) p += m.probs[k]!;
      return p;
    };
    const rank = subgroups.map((s) => {
      const others = s.constraints.filter((c) => !isProtected(c));
      return others.length === 0 ? -1 : others.reduce((best, c) => (mass(c) < mass(best) ? c : best)).attr;
    });
    this.bitId = Int32Array.from(subgroups, (_, g) => g).sort((a, b) => rank[a]! - rank[b]! || a - b);
    const W = (G + 31) >>> 5;
    this.words = W;
    const setBit = (bits: Int32Array, at: number, pos: number) => {
      bits[at + (pos >>> 5)]! |= 1 << (pos & 31);
    };
    this.all = new Int32Array(W);
    this.biased = new Int32Array(W);
    for (let pos = 0; pos < G; pos++) {
      setBit(this.all, 0, pos);
      if (this.bias[this.bitId[pos]!] !== 0) setBit(this.biased, 0, pos);
    }

    // Per non-protected constrained attribute: one bitset per cell.
    const cellMasks: { attr: number; cuts: Float64Array; masks: Int32Array }[] = [];
    for (let j = 0; j < d; j++) {
      if (schema.attributes[j]!.protected) continue;
      const on: [number, Constraint][] = [];
      this.bitId.forEach((g, pos) => {
        const c = subgroups[g]!.constraints.find((k) => k.attr === j);
        if (c) on.push([pos, c]);
      });
      if (on.length === 0) continue;
      const cuts = Float64Array.from(new Set(on.flatMap(([, c]) => [c.lo, c.hi]))).sort();
      const m = cuts.length;
      const masks = new Int32Array((2 * m + 1) * W);
      for (let cell = 0; cell <= 2 * m; cell++) masks.set(this.all, cell * W);
      for (const [pos, c] of on) {
        const bit = 1 << (pos & 31);
        for (let cell = 0; cell <= 2 * m; cell++) {
          const p = cell >>> 1;
          // Bounds are cuts, so inside the open cell below cuts[p] a constraint holds exactly
          // when its lower bound is at most the cut below and its upper bound at least cuts[p].
          const ok =
            cell & 1 ? satisfies(c, cuts[p]!) : p > 0 && p < m && c.lo <= cuts[p - 1]! && c.hi >= cuts[p]!;
          if (!ok) masks[cell * W + (pos >>> 5)]! &= ~bit;
        }
      }
      cellMasks.push({ attr: j, cuts, masks });
    }
    // Group consecutive categorical attributes while their joint domain stays small.
    const groups: (typeof cellMasks)[] = [];
    for (const cm of cellMasks) {
      const arity = (j: number) => schema.attributes[j]!.categories?.length ?? 0;
      const last = groups.at(-1);
      const joint = last?.reduce((p, g) => p * arity(g.attr), arity(cm.attr)) ?? 0;
      if (arity(cm.attr) > 0 && last && arity(last[0]!.attr) > 0 && joint <= MAX_JOINT) last.push(cm);
      else groups.push([cm]);
    }
    this.filters = [];
    const maskList: Int32Array[] = [];
    let offset = 0;
    for (const group of groups) {
      const attrs = Int32Array.from(group, (g) => g.attr);
      const categorical = schema.attributes[attrs[0]!]!.categories !== undefined;
      let masks = group[0]!.masks;
      const strides = new Int32Array(group.length);
      if (categorical) {
        // Joint code = Σ code·stride, the last attribute varying fastest.
        let size = 1;
        for (let t = group.length - 1; t >= 0; t--) {
          strides[t] = size;
          size *= schema.attributes[attrs[t]!]!.categories!.length;
        }
        masks = new Int32Array(size * W);
        for (let code = 0; code < size; code++) {
          masks.set(this.all, code * W);
          group.forEach((g, t) => {
            const k = Math.floor(code / strides[t]!) % schema.attributes[g.attr]!.categories!.length;
            const cell = cellOf(g.cuts, k) * W;
            for (let w = 0; w < W; w++) masks[code * W + w]! &= g.masks[cell + w]!;
          });
        }
      }
      this.filters.push({ attrs, strides, cuts: categorical ? null : group[0]!.cuts, offset });
      maskList.push(masks);
      offset += masks.length;
    }
    this.masks = new Int32Array(offset);
    offset = 0;
    for (const m of maskList) {
      this.masks.set(m, offset);
      offset += m.length;
    }
    // Per word and filter: how many of the word's subgroups the filter constrains.
    const weight = Array.from({ length: W }, () => new Int32Array(this.filters.length));
    this.filters.forEach((f, t) => {
      this.bitId.forEach((g, pos) => {
        if (subgroups[g]!.constraints.some((c) => f.attrs.includes(c.attr))) weight[pos >>> 5]![t]!++;
      });
    });
    this.wordStart = new Int32Array(W + 1);
    const order: number[] = [];
    weight.forEach((wt, w) => {
      const fs = Array.from(wt.keys()).filter((f) => wt[f]! > 0);
      fs.sort((a, b) => wt[b]! - wt[a]! || a - b);
      order.push(...fs);
      this.wordStart[w + 1] = order.length;
    });
    this.wordFilters = Int32Array.from(order);

    this.protectedMasks = prot.map((j, p) => {
      const r = this.radix[p]!;
      const masks = new Int32Array(r * W);
      for (let k = 0; k < r; k++) masks.set(this.all, k * W);
      this.bitId.forEach((g, pos) => {
        const c = subgroups[g]!.constraints.find((k) => k.attr === j);
        if (!c) return;
        for (let k = 0; k < r; k++)
          if (k < c.kLo || k > c.kHi) masks[k * W + (pos >>> 5)]! &= ~(1 << (pos & 31));
      });
      return masks;
    });

    // Joint protected combinations admitted by each subgroup's protected constraints.
    const protectedOf = subgroups.map((s) => s.constraints.filter(isProtected));
    const digits = new Int32Array(prot.length);
    const lists: number[][] = subgroups.map(() => []);
    for (let c = 0; c < combos; c++) {
      let rest = c;
      for (let p = prot.length - 1; p >= 0; p--) {
        digits[p] = rest % this.radix[p]!;
        rest = Math.floor(rest / this.radix[p]!);
      }
      for (let g = 0; g < G; g++) {
        let ok = true;
        for (const pc of protectedOf[g]!) {
          const k = digits[prot.indexOf(pc.attr)]!;
          if (k < pc.kLo || k > pc.kHi) {
            ok = false;
            break;
          }
        }
        if (ok) lists[g]!.push(c);
      }
    }
    this.comboStart = new Int32Array(G + 1);
    lists.forEach((l, g) => {
      this.comboStart[g + 1] = this.comboStart[g]! + l.length;
    });
    this.comboIds = Int32Array.from(lists.flat());
  }

  /** Combination index of the protected values of row `off`. */
  comboOf(x: Float64Array, off: number): number {
    let c = 0;
    for (let p = 0; p < this.protectedAttrs.length; p++) {
      const j = this.protectedAttrs[p]!;
      c = c * this.radix[p]! + this.protectedIndex.index(p, x[off + j]!);
    }
    return c;
  }

  /** Write the protected values of combination `c` into row `off`. */
  writeCombo(c: number, out: Float64Array, off: number): void {
    let rest = c;
    for (let p = this.protectedAttrs.length - 1; p >= 0; p--) {
      const j = this.protectedAttrs[p]!;
      const k = rest % this.radix[p]!;
      rest = Math.floor(rest / this.radix[p]!);
      out[off + j] = (this.copula.marginals[j] as { values: Float64Array }).values[k]!;
    }
  }

  /**
   * Bits of the subgroups whose non-protected conditions row `off` meets, into `bits`; returns
   * the number of nonzero words, listed in ascending order in `live`. `cell` is scratch space.
   * Rows must lie in the schema's domain (categorical values are codes).
   */
  private candidates(
    x: Float64Array,
    off: number,
    cell: Int32Array,
    bits: Int32Array,
    live: Int32Array,
  ): number {
    const { filters, masks, wordStart, wordFilters, all } = this;
    for (let f = 0; f < filters.length; f++) {
      const { attrs, strides, cuts, offset } = filters[f]!;
      let outcome: number;
      if (cuts) outcome = cellOf(cuts, x[off + attrs[0]!]!);
      else {
        outcome = 0;
        for (let t = 0; t < attrs.length; t++) outcome += x[off + attrs[t]!]! * strides[t]!;
      }
      cell[f] = offset + outcome * this.words;
    }
    const W = this.words;
    let nLive = 0;
    if (filters.length * W <= this.wordFilters.length * 4) {
      // Few filters: each filter's bitset ANDed whole, word after word (a filter that constrains none
      // of a word's subgroups has every bit of that word set), no branch per word.
      bits.set(all);
      for (let f = 0; f < filters.length; f++) {
        const at = cell[f]!;
        for (let w = 0; w < W; w++) bits[w]! &= masks[at + w]!;
      }
      for (let w = 0; w < W; w++) if (bits[w] !== 0) live[nLive++] = w;
      return nLive;
    }
    for (let w = 0; w < W; w++) {
      let m = all[w]!;
      for (let t = wordStart[w]!; t < wordStart[w + 1]! && m !== 0; t++)
        m &= masks[cell[wordFilters[t]!]! + w]!;
      bits[w] = m;
      if (m !== 0) live[nLive++] = w;
    }
    return nLive;
  }

  /** Keep in `bits` the subgroups admitting the protected values of row `off`; returns the live words. */
  private admitting(x: Float64Array, off: number, bits: Int32Array, live: Int32Array, nLive: number): number {
    const W = this.words;
    for (let p = 0; p < this.protectedAttrs.length && nLive > 0; p++) {
      const j = this.protectedAttrs[p]!;
      const k = this.protectedIndex.index(p, x[off + j]!);
      const masks = this.protectedMasks[p]!;
      let kept = 0;
      for (let t = 0; t < nLive; t++) {
        const w = live[t]!;
        const m = k < 0 ? 0 : bits[w]! & masks[k * W + w]!;
        bits[w] = m;
        if (m !== 0) live[kept++] = w;
      }
      nLive = kept;
    }
    return nLive;
  }

  /** Lowest subgroup id among the bits of the live words, -1 if none. */
  private lowestId(bits: Int32Array, live: Int32Array, nLive: number): number {
    let first = -1;
    for (let t = 0; t < nLive; t++) {
      const w = live[t]!;
      for (let m = bits[w]!; m !== 0; m &= m - 1) {
        const g = this.bitId[(w << 5) | (31 - Math.clz32(m & -m))]!;
        if (first < 0 || g < first) first = g;
      }
    }
    return first;
  }

  /** Lowest id of a subgroup containing each input, -1 if none. */
  firstOf(x: Float64Array, n: number): Int32Array {
    const d = this.schema.attributes.length;
    const out = new Int32Array(n);
    const cell = new Int32Array(this.filters.length);
    const bits = new Int32Array(this.words);
    const live = new Int32Array(this.words);
    for (let i = 0; i < n; i++) {
      const off = i * d;
      const nLive = this.admitting(x, off, bits, live, this.candidates(x, off, cell, bits, live));
      out[i] = this.lowestId(bits, live, nLive);
    }
    return out;
  }

  scan(x: Float64Array, n: number): BiasScan {
    const d = this.schema.attributes.length;
    const out: BiasScan = {
      beta: new Float64Array(n),
      minBeta: new Float64Array(n),
      minCombo: new Int32Array(n),
      maxBeta: new Float64Array(n),
      maxCombo: new Int32Array(n),
      otherCombo: new Int32Array(n),
    };
    const acc = new Float64Array(this.combos);
    // Row (plus one) that last touched each combination: acc[c] is stale when it differs.
    const stamp = new Int32Array(this.combos);
    const touchedC = new Int32Array(this.combos);
    const cell = new Int32Array(this.filters.length);
    const bits = new Int32Array(this.words);
    const live = new Int32Array(this.words);
    const { bitId, bias, biased, comboStart, comboIds } = this;
    const dense = this.combos <= DENSE_COMBOS;
    const W = this.words;
    // Few combinations: the sums depend only on the biased subgroups among the row's candidates (the
    // key), which a row often shares with the row before (a subgroup's own rows): the sums and
    // extremes of the last key computed are kept, and reused while the key holds.
    // Whether it does is learnt over this index's scans: when fewer than a quarter of the first rows
    // reused the sums (many subgroups: each row meets its own few), the keys are no longer kept.
    const memo = dense && (this.memoRows < MEMO_TRIAL_ROWS || 4 * this.memoHits >= this.memoRows);
    const key = new Int32Array(W);
    const keyAcc = new Float64Array(memo ? this.combos : 0);
    let keyed = false;
    let keyMinB = 0;
    let keyMinC = 0;
    let keyMaxB = 0;
    let keyMaxC = 0;
    if (memo) this.memoRows += n;
    for (let i = 0; i < n; i++) {
      const off = i * d;
      const mark = i + 1;
      const nLive = this.candidates(x, off, cell, bits, live);
      const own = this.comboOf(x, off);
      if (memo && keyed) {
        let w = 0;
        while (w < W && (bits[w]! & biased[w]!) === key[w]) w++;
        if (w === W) {
          this.memoHits++;
          out.beta[i] = keyAcc[own]!;
          out.minBeta[i] = keyMinB;
          out.minCombo[i] = keyMinC;
          out.maxBeta[i] = keyMaxB;
          out.maxCombo[i] = keyMaxC;
          out.otherCombo[i] = this.combos > 1 ? (own === 0 ? 1 : 0) : own;
          continue;
        }
      }
      // Subgroups with zero bias leave every sum unchanged, so only the biased ones are added.
      // Few combinations: the extremes' pass below clears every sum it reads; many: track the ones
      // touched.
      let dirty = false;
      let nt = 0;
      for (let q = 0; q < nLive; q++) {
        const w = live[q]!;
        for (let m = bits[w]! & biased[w]!; m !== 0; m &= m - 1) {
          const g = bitId[(w << 5) | (31 - Math.clz32(m & -m))]!;
          const b = bias[g]!;
          const end = comboStart[g + 1]!;
          for (let t = comboStart[g]!; t < end; t++) {
            const c = comboIds[t]!;
            if (!dense && stamp[c] !== mark) {
              stamp[c] = mark;
              acc[c] = 0;
              touchedC[nt++] = c;
            }
            acc[c]! += b;
          }
          dirty = true;
        }
      }
      // Extremes over all combinations (untouched ones have bias 0), ties to the lowest index.
      let ownB = 0;
      let minB = 0;
      let minC = 0;
      let maxB = 0;
      let maxC = 0;
      if (dense && !dirty) {
        // Every sum is 0: the extremes are combination 0's.
        if (memo) keyAcc.fill(0);
      } else if (dense) {
        minB = maxB = acc[0]!;
        ownB = acc[own]!;
        if (memo) keyAcc.set(acc);
        acc[0] = 0;
        for (let c = 1; c < acc.length; c++) {
          const v = acc[c]!;
          acc[c] = 0;
          if (v < minB) {
            minB = v;
            minC = c;
          } else if (v > maxB) {
            maxB = v;
            maxC = c;
          }
        }
      } else {
        let free = 0;
        while (free < this.combos && stamp[free] === mark) free++;
        if (free === this.combos) {
          minB = Number.POSITIVE_INFINITY;
          maxB = Number.NEGATIVE_INFINITY;
        } else minC = maxC = free;
        for (let q = 0; q < nt; q++) {
          const c = touchedC[q]!;
          const v = acc[c]!;
          if (v < minB || (v === minB && c < minC)) {
            minB = v;
            minC = c;
          }
          if (v > maxB || (v === maxB && c < maxC)) {
            maxB = v;
            maxC = c;
          }
        }
      }
      if (memo) {
        for (let w = 0; w < W; w++) key[w] = bits[w]! & biased[w]!;
        keyed = true;
        keyMinB = minB;
        keyMinC = minC;
        keyMaxB = maxB;
        keyMaxC = maxC;
      }
      out.beta[i] = dense ? ownB : stamp[own] === mark ? acc[own]! : 0;
      out.minBeta[i] = minB;
      out.minCombo[i] = minC;
      out.maxBeta[i] = maxB;
      out.maxCombo[i] = maxC;
      out.otherCombo[i] = this.combos > 1 ? (own === 0 ? 1 : 0) : own;
    }
    return out;
  }
}

/** Cell of `v` among the cuts: 2p below cuts[p], 2p + 1 at cuts[p]. */
function cellOf(cuts: Float64Array, v: number): number {
  let lo = 0;
  let hi = cuts.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (cuts[mid]! < v) lo = mid + 1;
    else hi = mid;
  }
  return lo < cuts.length && cuts[lo] === v ? 2 * lo + 1 : 2 * lo;
}
