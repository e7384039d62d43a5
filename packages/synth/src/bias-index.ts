import { OptionsError, type Schema } from '@fb/core';
import type { GaussianCopula } from './copula.js';
import { domainIndex } from './marginal.js';
import { type SubgroupDef, satisfies } from './subgroups.js';

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
 * Exact evaluation of the injected bias at any input and at every protected-value variant of it.
 * Subgroups are indexed by their non-protected constraints (per attribute and value), so an
 * input only visits the subgroups whose non-protected part it meets; the protected part of
 * each subgroup is precomputed as the list of joint protected combinations it admits.
 */
export class BiasIndex {
  readonly protectedAttrs: Int32Array;
  readonly radix: Int32Array;
  readonly combos: number;
  private readonly schema: Schema;
  private readonly copula: GaussianCopula;
  private readonly bias: Float64Array;
  private readonly alwaysCandidates: Int32Array;
  /** CSR over (attribute, domain index) of the subgroups anchored there (see the constructor). */
  private readonly slotStart: Int32Array[];
  private readonly slotIds: Int32Array[];
  /** Subgroups anchored on a continuous range, per attribute. */
  private readonly rangeSubs: { g: number; c: SubgroupDef['constraints'][number] }[][];
  /** Non-protected constraints of each subgroup. */
  private readonly otherOf: SubgroupDef['constraints'][number][][];
  private readonly comboStart: Int32Array;
  private readonly comboIds: Int32Array;
  private readonly protectedOf: SubgroupDef['constraints'][number][][];

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
    const always: number[] = [];
    const slots: number[][][] = Array.from({ length: d }, (_, j) => {
      const m = copula.marginals[j]!;
      return m.kind === 'discrete' && !schema.attributes[j]!.protected ? Array.from(m.values, () => []) : [];
    });
    this.rangeSubs = Array.from({ length: d }, () => []);
    this.protectedOf = subgroups.map(() => []);
    this.otherOf = subgroups.map(() => []);
    // Each subgroup is indexed under one anchor, its least probable non-protected constraint, so
    // an input visits only the subgroups whose anchor it meets and checks their other constraints.
    const mass = (c: SubgroupDef['constraints'][number]) => {
      const m = copula.marginals[c.attr]!;
      if (m.kind === 'continuous') return 0.5;
      let p = 0;
      for (let k = c.kLo; k <= c.kHi; k++) p += m.probs[k]!;
      return p;
    };
    subgroups.forEach((s, g) => {
      for (const c of s.constraints) {
        if (schema.attributes[c.attr]!.protected) this.protectedOf[g]!.push(c);
        else this.otherOf[g]!.push(c);
      }
      const others = this.otherOf[g]!;
      if (others.length === 0) {
        always.push(g);
        return;
      }
      const anchor = others.reduce((best, c) => (mass(c) < mass(best) ? c : best));
      if (anchor.discrete) for (let k = anchor.kLo; k <= anchor.kHi; k++) slots[anchor.attr]![k]!.push(g);
      else this.rangeSubs[anchor.attr]!.push({ g, c: anchor });
    });
    this.alwaysCandidates = Int32Array.from(always);
    this.slotStart = slots.map((perValue) => {
      const start = new Int32Array(perValue.length + 1);
      perValue.forEach((ids, k) => {
        start[k + 1] = start[k]! + ids.length;
      });
      return start;
    });
    this.slotIds = slots.map((perValue) => Int32Array.from(perValue.flat()));
    // Joint protected combinations admitted by each subgroup's protected constraints.
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
        for (const pc of this.protectedOf[g]!) {
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

  scan(x: Float64Array, n: number): BiasScan {
    const d = this.schema.attributes.length;
    const G = this.bias.length;
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
    const cand = new Int32Array(G);
    for (let i = 0; i < n; i++) {
      const off = i * d;
      let nc = 0;
      for (let t = 0; t < this.alwaysCandidates.length; t++) cand[nc++] = this.alwaysCandidates[t]!;
      const meetsOthers = (g: number) => {
        const others = this.otherOf[g]!;
        for (let t = 0; t < others.length; t++)
          if (!satisfies(others[t]!, x[off + others[t]!.attr]!)) return false;
        return true;
      };
      for (let j = 0; j < d; j++) {
        const start = this.slotStart[j]!;
        if (start.length > 1) {
          const k = domainIndex(this.schema.attributes[j]!, x[off + j]!);
          const ids = this.slotIds[j]!;
          for (let t = start[k]!; t < start[k + 1]!; t++) if (meetsOthers(ids[t]!)) cand[nc++] = ids[t]!;
        }
        const ranges = this.rangeSubs[j]!;
        for (let t = 0; t < ranges.length; t++) if (meetsOthers(ranges[t]!.g)) cand[nc++] = ranges[t]!.g;
      }
      const own = this.comboOf(x, off);
      let first = -1;
      let nt = 0;
      for (let q = 0; q < nc; q++) {
        const g = cand[q]!;
        for (let t = this.comboStart[g]!; t < this.comboStart[g + 1]!; t++) {
          const c = this.comboIds[t]!;
          if (!mark[c]) {
            mark[c] = 1;
            acc[c] = 0;
            touchedC[nt++] = c;
          }
          acc[c]! += this.bias[g]!;
          if (c === own && (first < 0 || g < first)) first = g;
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
