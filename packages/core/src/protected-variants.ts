import { OptionsError, SchemaError } from './errors.js';
import { cardinality, domainValues, protectedIndices, type Schema } from './schema.js';

/** How protected-attribute variants of an input are built. */
export type VariantMode = 'all-combinations' | 'one-at-a-time';

/** Most variants per input the all-combinations mode may produce. */
export const MAX_VARIANTS = 4096;

/** The `variantMode` entry of an options schema: which counterfactual variants a check covers. */
export function variantModeOption(
  description = 'Counterfactual variants checked per input: every combination of protected values, or each protected attribute changed alone.',
) {
  return {
    type: 'string',
    enum: ['all-combinations', 'one-at-a-time'] satisfies VariantMode[],
    default: 'all-combinations' satisfies VariantMode,
    description,
  };
}

/**
 * The option schema of the discrimination threshold γ (seed 000, AEQUITAS and KOSEI: an input is
 * discriminatory when |P(x) − P(x′)| > γ for a twin x′). The seed's default 0 counts a changed decision,
 * as its code, which compares predicted labels; above 0 the checker compares the probability of the
 * favourable class and the model needs `predictProba`.
 */
export function gammaOption() {
  return {
    type: 'number',
    minimum: 0,
    exclusiveMaximum: 1,
    default: 0,
    description:
      "Discrimination threshold γ (seed 000): 0 (the seed's value) counts a twin whose decision differs; above 0, a twin counts when the favourable-class probabilities differ by more than γ (the model needs predictProba).",
  };
}

/**
 * The protected variants of an input: the same row with other values of the protected attributes,
 * either every other combination of them (`all-combinations`) or every other value of one protected
 * attribute at a time (`one-at-a-time`). The counterfactual checker builds its queries with this,
 * and so does anything that must test inputs exactly as the checker does.
 */
export class ProtectedVariants {
  readonly d: number;
  readonly mode: VariantMode;
  /** Protected attribute positions, in schema order. */
  readonly prot: readonly number[];
  /** Each protected attribute's sorted domain. */
  readonly domains: readonly Float64Array[];
  /** Variants per input (the input itself excluded). */
  readonly perInput: number;
  private readonly combos: Int32Array;
  private readonly nCombos: number;
  private readonly own: Int32Array;

  constructor(schema: Schema, mode: VariantMode = 'all-combinations') {
    if (mode !== 'all-combinations' && mode !== 'one-at-a-time') {
      throw new OptionsError(
        'OPTIONS_INVALID',
        `variant mode must be all-combinations or one-at-a-time, got ${mode}`,
        {
          option: '/variantMode',
        },
      );
    }
    this.mode = mode;
    this.d = schema.attributes.length;
    this.prot = protectedIndices(schema);
    for (const p of this.prot) {
      const a = schema.attributes[p]!;
      if (!Number.isFinite(cardinality(a))) {
        throw new SchemaError(
          'SCHEMA_BAD_DOMAIN',
          `protected attribute "${a.name}" is continuous: bin it (or give it a step) so that its counterfactual values are finite`,
          { attribute: a.name },
        );
      }
    }
    this.domains = this.prot.map((p) => domainValues(schema.attributes[p]!));
    const total = this.domains.reduce((acc, dom) => acc * dom.length, 1);
    this.perInput =
      mode === 'all-combinations' ? total - 1 : this.domains.reduce((acc, dom) => acc + dom.length - 1, 0);
    if (this.perInput > MAX_VARIANTS) {
      throw new OptionsError(
        'OPTIONS_INVALID',
        `the protected attributes have ${total} value combinations, more than ${MAX_VARIANTS}: use the one-at-a-time variant mode`,
        { option: '/variantMode' },
      );
    }
    const k = this.prot.length;
    this.nCombos = total;
    this.combos = new Int32Array(mode === 'all-combinations' ? total * k : 0);
    if (mode === 'all-combinations') {
      for (let c = 0; c < total; c++) {
        let rest = c;
        for (let j = k - 1; j >= 0; j--) {
          const size = this.domains[j]!.length;
          this.combos[c * k + j] = rest % size;
          rest = Math.floor(rest / size);
        }
      }
    }
    this.own = new Int32Array(k);
  }

  /** Write the variants of `x[off .. off+d)` at `out[outOff ..]`, row after row; returns how many. */
  write(x: Float64Array, off: number, out: Float64Array, outOff: number): number {
    const { d, prot, domains } = this;
    const k = prot.length;
    // Compare by domain index: a grid value such as 0.3 need not equal its computed grid point.
    const own = this.own;
    for (let j = 0; j < k; j++) own[j] = this.domainIndex(j, x[off + prot[j]!]!);
    let m = 0;
    if (this.mode === 'all-combinations') {
      // The input's own combination, in the same mixed radix as `combos` (last attribute fastest).
      let ownCombo = 0;
      for (let j = 0; j < k; j++) ownCombo = ownCombo * domains[j]!.length + own[j]!;
      const combos = this.combos;
      for (let c = 0; c < this.nCombos; c++) {
        if (c === ownCombo) continue;
        const base = outOff + m * d;
        for (let t = 0; t < d; t++) out[base + t] = x[off + t]!;
        for (let j = 0; j < k; j++) {
          const v = combos[c * k + j]!;
          if (v !== own[j]) out[base + prot[j]!] = domains[j]![v]!;
        }
        m++;
      }
    } else {
      for (let j = 0; j < k; j++) {
        const dom = domains[j]!;
        for (let v = 0; v < dom.length; v++) {
          if (v === own[j]) continue;
          const base = outOff + m * d;
          for (let t = 0; t < d; t++) out[base + t] = x[off + t]!;
          out[base + prot[j]!] = dom[v]!;
          m++;
        }
      }
    }
    return m;
  }

  /** Index of the domain value of protected attribute `k` nearest to `value`. */
  domainIndex(k: number, value: number): number {
    const dom = this.domains[k]!;
    // Domains are sorted and small: binary search for the nearest grid point.
    let lo = 0;
    let hi = dom.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (dom[mid]! < value) lo = mid + 1;
      else hi = mid;
    }
    if (lo > 0 && value - dom[lo - 1]! < dom[lo]! - value) lo--;
    return lo;
  }
}
