import { OptionsError, type Schema } from '@fb/core';
import type { GaussianCopula } from './copula.js';
import { domainIndex } from './marginal.js';
import { type Constraint, type SubgroupDef, satisfies } from './subgroups.js';

/** What the index reports for a batch of inputs. */
export interface BiasScan {
  /** Injected bias: the sum of the biases of every subgroup the input falls in. */
  beta: Float64Array;
  /** Lowest id of a subgroup containing the input, -1 if none. */
  first: Int32Array;
  /** Index of the input's protected-value combination. */
  combo: Int32Array;
  /** Smallest and largest injected bias over all protected-value combinations, and where. */
  minBeta: Float64Array;
  minCombo: Int32Array;
  maxBeta: Float64Array;
  maxCombo: Int32Array;
  /** A combination other than the input's own (the lowest index), for when all are equal. */
  otherCombo: Int32Array;
}

/**
 * Per non-protected attribute that some subgroup constrains: the sorted distinct bounds of those
 * constraints, which cut the value axis into cells (the open intervals between bounds and the
 * bounds themselves) on which every constraint is constant, and per cell the bitset of subgroups
 * whose constraint on the attribute (if any) the cell meets.
 */
interface CellFilter {
  readonly attr: number;
  readonly cuts: Float64Array;
  /** (2 * cuts.length + 1) x words bits; cell 2p is below cuts[p], cell 2p + 1 is cuts[p]. */
  readonly masks: Int32Array;
}

/**
 * Exact evaluation of the injected bias at any input and at every protected-value variant of it.
 * The subgroups whose non-protected conditions an input meets are the AND of one precomputed
 * bitset per constrained attribute; only those are evaluated on the protected variants, through
 * the precomputed list of joint protected combinations each subgroup admits.
 */
export class BiasIndex {
  readonly protectedAttrs: Int32Array;
  readonly radix: Int32Array;
  readonly combos: number;
  private readonly schema: Schema;
  private readonly copula: GaussianCopula;
  private readonly bias: Float64Array;
  private readonly words: number;
  /** Subgroup id of each bit position. */
  private readonly bitId: Int32Array;
  /** Bits of all subgroups. */
  private readonly all: Int32Array;
  private readonly filters: CellFilter[];
  /** Per protected attribute: radix x words bits of the subgroups admitting each domain index. */
  private readonly protectedMasks: Int32Array[];
  private readonly comboStart: Int32Array;
  private readonly comboIds: Int32Array;

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
    for (let pos = 0; pos < G; pos++) setBit(this.all, 0, pos);

    this.filters = [];
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
      this.filters.push({ attr: j, cuts, masks });
    }

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
      c = c * this.radix[p]! + domainIndex(this.schema.attributes[j]!, x[off + j]!);
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
   * the number of nonzero words, listed in ascending order in `live`.
   */
  private candidates(x: Float64Array, off: number, bits: Int32Array, live: Int32Array): number {
    const W = this.words;
    bits.set(this.all);
    let nLive = 0;
    for (let w = 0; w < W; w++) if (bits[w] !== 0) live[nLive++] = w;
    for (let f = 0; f < this.filters.length && nLive > 0; f++) {
      const { attr, cuts, masks } = this.filters[f]!;
      const v = x[off + attr]!;
      let lo = 0;
      let hi = cuts.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (cuts[mid]! < v) lo = mid + 1;
        else hi = mid;
      }
      const base = (lo < cuts.length && cuts[lo] === v ? 2 * lo + 1 : 2 * lo) * W;
      let kept = 0;
      for (let t = 0; t < nLive; t++) {
        const w = live[t]!;
        const m = bits[w]! & masks[base + w]!;
        bits[w] = m;
        if (m !== 0) live[kept++] = w;
      }
      nLive = kept;
    }
    return nLive;
  }

  /** Lowest id of a subgroup containing each input, -1 if none (the `first` of `scan`). */
  firstOf(x: Float64Array, n: number): Int32Array {
    const d = this.schema.attributes.length;
    const out = new Int32Array(n);
    const bits = new Int32Array(this.words);
    const live = new Int32Array(this.words);
    for (let i = 0; i < n; i++) {
      const off = i * d;
      let nLive = this.candidates(x, off, bits, live);
      for (let p = 0; p < this.protectedAttrs.length && nLive > 0; p++) {
        const j = this.protectedAttrs[p]!;
        const k = domainIndex(this.schema.attributes[j]!, x[off + j]!);
        const masks = this.protectedMasks[p]!;
        let kept = 0;
        for (let t = 0; t < nLive; t++) {
          const w = live[t]!;
          const m = k < 0 ? 0 : bits[w]! & masks[k * this.words + w]!;
          bits[w] = m;
          if (m !== 0) live[kept++] = w;
        }
        nLive = kept;
      }
      let first = -1;
      for (let t = 0; t < nLive; t++) {
        const w = live[t]!;
        for (let m = bits[w]!; m !== 0; m &= m - 1) {
          const g = this.bitId[(w << 5) | (31 - Math.clz32(m & -m))]!;
          if (first < 0 || g < first) first = g;
        }
      }
      out[i] = first;
    }
    return out;
  }

  scan(x: Float64Array, n: number): BiasScan {
    const d = this.schema.attributes.length;
    const out: BiasScan = {
      beta: new Float64Array(n),
      first: new Int32Array(n),
      combo: new Int32Array(n),
      minBeta: new Float64Array(n),
      minCombo: new Int32Array(n),
      maxBeta: new Float64Array(n),
      maxCombo: new Int32Array(n),
      otherCombo: new Int32Array(n),
    };
    const acc = new Float64Array(this.combos);
    const mark = new Uint8Array(this.combos);
    const touchedC = new Int32Array(this.combos);
    const bits = new Int32Array(this.words);
    const live = new Int32Array(this.words);
    const { bitId, bias, comboStart, comboIds } = this;
    for (let i = 0; i < n; i++) {
      const off = i * d;
      const nLive = this.candidates(x, off, bits, live);
      const own = this.comboOf(x, off);
      let first = -1;
      let nt = 0;
      for (let q = 0; q < nLive; q++) {
        const w = live[q]!;
        for (let m = bits[w]!; m !== 0; m &= m - 1) {
          const g = bitId[(w << 5) | (31 - Math.clz32(m & -m))]!;
          const b = bias[g]!;
          for (let t = comboStart[g]!; t < comboStart[g + 1]!; t++) {
            const c = comboIds[t]!;
            if (!mark[c]) {
              mark[c] = 1;
              acc[c] = 0;
              touchedC[nt++] = c;
            }
            acc[c]! += b;
            if (c === own && (first < 0 || g < first)) first = g;
          }
        }
      }
      // Extremes over all combinations (untouched ones have bias 0), ties to the lowest index.
      let minB = Number.POSITIVE_INFINITY;
      let minC = -1;
      let maxB = Number.NEGATIVE_INFINITY;
      let maxC = -1;
      const last = nt < this.combos ? nt + 1 : nt;
      let free = 0;
      if (nt < this.combos) while (mark[free]) free++;
      for (let q = 0; q < last; q++) {
        const c = q < nt ? touchedC[q]! : free;
        const v = q < nt ? acc[c]! : 0;
        if (v < minB || (v === minB && c < minC)) {
          minB = v;
          minC = c;
        }
        if (v > maxB || (v === maxB && c < maxC)) {
          maxB = v;
          maxC = c;
        }
      }
      out.beta[i] = mark[own] ? acc[own]! : 0;
      for (let q = 0; q < nt; q++) mark[touchedC[q]!] = 0;
      out.first[i] = first;
      out.combo[i] = own;
      out.minBeta[i] = minB;
      out.minCombo[i] = minC;
      out.maxBeta[i] = maxB;
      out.maxCombo[i] = maxC;
      out.otherCombo[i] = this.combos > 1 ? (own === 0 ? 1 : 0) : own;
    }
    return out;
  }
}
