/**
 * Population membership (`membership: 'population'`): the rows are drawn first, unconditionally, and a
 * subgroup is whatever rows meet its conditions. `PopulationRows` counts those rows for candidate
 * subgroups (phase 2's rejection rules) and lists them for the truth's per-subgroup sums.
 */

import { cardinality, type Rng } from '@fb/core';
import { type GaussianCopula, sampleCopula } from './copula.js';
import { domainIndex } from './marginal.js';
import type { SynthOptions } from './options.js';
import { streamOf } from './sampling-threads.js';
import { type Constraint, satisfies } from './subgroups.js';

/** Rows drawn at a time (one reused stream: the same rows as one long draw). */
export const POPULATION_CHUNK = 8192;

/**
 * Rows of a population-mode data set: `rows`, or by default round(pairs·(minGroupSize + maxGroupSize) /
 * (1 − backgroundShare)), the size of a data set whose every subgroup (two per pair) held the mean
 * (minGroupSize + maxGroupSize)/2 rows and whose other rows were a backgroundShare of the whole.
 */
export function populationRows(o: SynthOptions): number {
  if (o.rows !== null) return o.rows;
  const pairs = o.pairs + o.predefinedPairs.length;
  return Math.round((pairs * (o.minGroupSize + o.maxGroupSize)) / (1 - o.backgroundShare));
}

/**
 * `n` rows drawn from the copula, unconditionally, from the stream `seed/rows/population` in chunks:
 * they depend on the seed and the copula only.
 */
export function drawPopulation(copula: GaussianCopula, n: number, seed: number | string): Float64Array {
  const d = copula.marginals.length;
  const x = new Float64Array(n * d);
  const rng = streamOf(seed, 'rows').fork('population');
  for (let lo = 0; lo < n; lo += POPULATION_CHUNK) {
    const batch = Math.min(POPULATION_CHUNK, n - lo);
    sampleCopula(copula, batch, rng, x.subarray(lo * d, (lo + batch) * d));
  }
  return x;
}

/** A defining attribute's possible constraints and their draw weights (see `definePairs`). */
export interface ValueChoice {
  readonly options: readonly Constraint[];
  readonly weights: Float64Array;
}

/** The drawn rows (row-major values), with the choice index of each row per attribute (built on first use). */
export class PopulationRows {
  readonly n: number;
  private readonly d: number;
  private readonly codes: (Int32Array | undefined)[];

  constructor(
    private readonly copula: GaussianCopula,
    readonly x: Float64Array,
  ) {
    this.d = copula.marginals.length;
    this.n = x.length / this.d;
    this.codes = new Array(this.d);
  }

  /** Per row, the index of the option of attribute j its value meets (-1 if none). */
  choiceCodes(j: number, choice: ValueChoice): Int32Array {
    let codes = this.codes[j];
    if (!codes) {
      const { n, d, x } = this;
      codes = new Int32Array(n).fill(-1);
      const { options } = choice;
      // A discrete attribute's options are single values (lo = hi, inclusive): a row's option is
      // found from its domain index, and confirmed by `satisfies` (any other row takes the scan).
      const attr = this.copula.schema.attributes[j]!;
      const byValue = options.every((c) => c.discrete && c.kLo === c.kHi && c.lo === c.hi && c.maxInclusive)
        ? new Int32Array(cardinality(attr)).fill(-1)
        : null;
      if (byValue) for (let k = options.length - 1; k >= 0; k--) byValue[options[k]!.kLo] = k;
      for (let i = 0; i < n; i++) {
        const v = x[i * d + j]!;
        if (byValue) {
          const k = domainIndex(attr, v);
          const o = k >= 0 ? byValue[k]! : -1;
          if (o >= 0 && satisfies(options[o]!, v)) {
            codes[i] = o;
            continue;
          }
        }
        for (let k = 0; k < options.length; k++) {
          if (satisfies(options[k]!, v)) {
            codes[i] = k;
            break;
          }
        }
      }
      this.codes[j] = codes;
    }
    return codes;
  }

  /**
   * The rows meeting every constraint, ascending, into `out` when given; returns their number. The
   * constraints' fields are gathered into typed arrays first (the test is `satisfies`'s).
   */
  private walk(cs: readonly Constraint[], out: Int32Array | null): number {
    const { n, d, x } = this;
    const m = cs.length;
    const at = Int32Array.from(cs, (c) => c.attr);
    const lo = Float64Array.from(cs, (c) => c.lo);
    const hi = Float64Array.from(cs, (c) => c.hi);
    const inclusive = Uint8Array.from(cs, (c) => (c.maxInclusive ? 1 : 0));
    let count = 0;
    for (let i = 0, off = 0; i < n; i++, off += d) {
      let t = 0;
      for (; t < m; t++) {
        const v = x[off + at[t]!]!;
        if (!(v >= lo[t]! && (inclusive[t] ? v <= hi[t]! : v < hi[t]!))) break;
      }
      if (t < m) continue;
      if (out) out[count] = i;
      count++;
    }
    return count;
  }

  /** Rows meeting every constraint. */
  count(cs: readonly Constraint[]): number {
    return this.walk(cs, null);
  }

  /** The rows meeting every constraint, ascending. */
  members(cs: readonly Constraint[]): Int32Array {
    const rows = new Int32Array(this.n);
    return rows.slice(0, this.walk(cs, rows));
  }
}

/**
 * Why the value assignments of a pair's candidates failed, each counted once per candidate: fewer
 * than minGroupSize rows, more than maxGroupSize, more than maxCellShare of the protected cell, or a
 * clash with a placed subgroup (identical, nested, or overlapping with `disjointSubgroups`).
 */
export interface Misses {
  few: number;
  many: number;
  share: number;
  clash: number;
  /** Candidates with too many value assignments to enumerate. */
  wide: number;
}

/** Most value assignments of one candidate's attributes that are enumerated. */
const MAX_ASSIGNMENTS = 1 << 20;

/** A random pair's drawn shape: its attributes (protected ones first) and the positions S_B changes. */
export interface PairShape {
  readonly attrs: readonly number[];
  readonly protectedCount: number;
  readonly changed: readonly number[];
}

/**
 * The values of a random pair of the given shape, drawn as the quota mode draws them (S_A's per
 * option weight, S_B's changed ones among the other options by weight) but conditioned on both
 * subgroups passing the population rules (minGroupSize..maxGroupSize rows, at most maxCellShare of
 * their protected cell, no clash): every value assignment of the attributes is counted in one pass
 * over the rows, and the pair drawn from the passing ones with its probability. Null when none passes.
 */
export function drawFittingValues(
  population: PopulationRows,
  choices: readonly ValueChoice[],
  shape: PairShape,
  o: SynthOptions,
  clashes: (cand: readonly Constraint[]) => boolean,
  rng: Rng,
  misses: Misses,
): [Constraint[], Constraint[]] | null {
  const { attrs, protectedCount, changed } = shape;
  const m = attrs.length;
  const radix = attrs.map((j) => choices[j]!.options.length);
  // Assignment code Σ k_t·stride_t, the last attribute fastest: protected attributes are the high digits.
  const stride = new Float64Array(m);
  let size = 1;
  for (let t = m - 1; t >= 0; t--) {
    stride[t] = size;
    size *= radix[t]!;
  }
  if (size > MAX_ASSIGNMENTS) {
    misses.wide++;
    return null;
  }
  const rows = new Int32Array(size);
  const codes = attrs.map((j) => population.choiceCodes(j, choices[j]!));
  for (let i = 0; i < population.n; i++) {
    let c = 0;
    for (let t = 0; t < m && c >= 0; t++) {
      const k = codes[t]![i]!;
      c = k < 0 ? -1 : c + k * stride[t]!;
    }
    if (c >= 0) rows[c]!++;
  }
  // Rows of each protected cell: the assignments sharing the protected digits.
  const cellWidth = protectedCount > 0 ? stride[protectedCount - 1]! : size;
  const cell = new Float64Array(size / cellWidth);
  for (let c = 0; c < size; c++) cell[Math.floor(c / cellWidth)]! += rows[c]!;
  const digit = (c: number, t: number) => Math.floor(c / stride[t]!) % radix[t]!;
  const constraintsOf = (c: number) =>
    attrs.map((j, t) => choices[j]!.options[digit(c, t)]!).sort((x, y) => x.attr - y.attr);
  const passes = new Int8Array(size);
  const pass = (c: number): boolean => {
    if (passes[c] === 0) {
      const n = rows[c]!;
      let why: keyof Misses | null = null;
      if (n < o.minGroupSize) why = 'few';
      else if (n > o.maxGroupSize) why = 'many';
      else if (n / cell[Math.floor(c / cellWidth)]! > o.maxCellShare) why = 'share';
      else if (clashes(constraintsOf(c))) why = 'clash';
      if (why) misses[why]++;
      passes[c] = why ? -1 : 1;
    }
    return passes[c] === 1;
  };
  const weight = (t: number, k: number) => choices[attrs[t]!]!.weights[k]!;
  const total = radix.map((r, t) => {
    let w = 0;
    for (let k = 0; k < r; k++) w += weight(t, k);
    return w;
  });
  // S_B's assignments given S_A's (a): each changed attribute takes another option.
  const partners = (a: number, visit: (b: number, p: number) => void) => {
    const go = (q: number, b: number, p: number) => {
      if (q === changed.length) {
        visit(b, p);
        return;
      }
      const t = changed[q]!;
      const ka = digit(a, t);
      const rest = total[t]! - weight(t, ka);
      for (let k = 0; k < radix[t]!; k++)
        if (k !== ka) go(q + 1, b + (k - ka) * stride[t]!, (p * weight(t, k)) / rest);
    };
    go(0, a, 1);
  };
  const massA = new Float64Array(size);
  let any = false;
  for (let a = 0; a < size; a++) {
    if (!pass(a)) continue;
    let p = 0;
    partners(a, (b, pb) => {
      if (pass(b)) p += pb;
    });
    for (let t = 0; t < m && p > 0; t++) p *= weight(t, digit(a, t)) / total[t]!;
    massA[a] = p;
    any ||= p > 0;
  }
  if (!any) return null;
  const a = rng.weightedIndex(massA);
  const bs: number[] = [];
  const massB: number[] = [];
  partners(a, (b, pb) => {
    if (!pass(b)) return;
    bs.push(b);
    massB.push(pb);
  });
  return [constraintsOf(a), constraintsOf(bs[rng.weightedIndex(massB)]!)];
}
