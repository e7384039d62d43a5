import type { Dataset } from './dataset.js';
import { OptionsError } from './errors.js';
import type { Condition } from './result-types.js';
import { isDiscrete } from './schema.js';

/**
 * How a many-valued attribute is cut into equal-height levels (n rows, `bins` bins, ranks 0-based):
 * - `rank`: a distinct value whose first row has rank r goes to bin ⌊r·bins/n⌋ (at most bins − 1), so
 *   tied rows never straddle two bins; empty bins are dropped. Levels are closed intervals between the
 *   lowest and highest observed value of the level.
 * - `cuts`: cut points are the sorted values at ranks ⌊b·n/bins⌋, b = 1..bins − 1, keeping a cut only
 *   when it exceeds the minimum and the previous cut; a value's level is the number of cuts at or below
 *   it. Levels are half-open intervals [cut, next cut) from the minimum, the last one closed at the maximum.
 */
export type DiscretiseMethod = 'rank' | 'cuts';

export interface DiscretiseOptions {
  /** A discrete attribute with at most this many distinct observed values keeps one level per value. */
  maxLevels: number;
  /** Equal-height bins for every other attribute (at most this many levels). */
  bins: number;
  /** Default `rank`. */
  method?: DiscretiseMethod;
  /**
   * Whether a categorical attribute with more than `maxLevels` values is binned over its category codes
   * (default true); when false it keeps one level per value.
   */
  binCategorical?: boolean;
  /**
   * Whether `condition()` reports two or more consecutive levels of an ordered, unbinned attribute as
   * one closed interval (default false: it lists their values).
   */
  valueRanges?: boolean;
}

/** One attribute turned into level codes 0..arity − 1, with the condition each level stands for. */
export interface DiscreteAttribute {
  readonly attribute: string;
  /** Column index in the dataset. */
  readonly column: number;
  /** Whether the levels are bins (intervals) rather than single values. */
  readonly binned: boolean;
  /** Whether the levels follow the attribute's order (binned, or not categorical). */
  readonly ordered: boolean;
  readonly arity: number;
  /** Level of each row. */
  readonly codes: Int32Array;
  /** Rows per level (every level holds at least one row). */
  readonly counts: Int32Array;
  /** The condition satisfied by exactly the rows of each level. */
  readonly levels: readonly Condition[];
  /**
   * The condition satisfied by exactly the rows whose level is in `levels` (ascending, non-empty): an
   * interval for a contiguous run of bins, else the list of observed values it covers.
   */
  condition(levels: ArrayLike<number>): Condition;
}

export interface DiscretisedDataset {
  readonly attributes: DiscreteAttribute[];
  /** n × attributes.length level codes, row-major. */
  readonly codes: Int32Array;
}

type Interval = Extract<Condition, { min: number }>;

function checkOptions(options: DiscretiseOptions): void {
  if (!Number.isInteger(options.bins) || options.bins < 1) {
    throw new OptionsError('OPTIONS_INVALID', `bins must be a positive integer, got ${options.bins}`, {
      option: '/bins',
    });
  }
  if (!(options.maxLevels >= 0)) {
    throw new OptionsError('OPTIONS_INVALID', `maxLevels must be non-negative, got ${options.maxLevels}`, {
      option: '/maxLevels',
    });
  }
}

/** Sorted distinct values of column j, and the rank of each one's first row. */
function distinctValues(ds: Dataset, j: number): { values: Float64Array; firstRank: Int32Array } {
  const sorted = new Float64Array(ds.n);
  for (let i = 0; i < ds.n; i++) sorted[i] = ds.x[i * ds.d + j]!;
  sorted.sort();
  let u = 0;
  const firstRank = new Int32Array(ds.n);
  for (let r = 0; r < ds.n; r++) {
    if (r === 0 || sorted[r] !== sorted[r - 1]) {
      sorted[u] = sorted[r]!;
      firstRank[u++] = r;
    }
  }
  return { values: sorted.slice(0, u), firstRank: firstRank.slice(0, u) };
}

/** Index of `v` in the ascending array `values`, which contains it. */
function indexOf(values: Float64Array, v: number): number {
  let lo = 0;
  let hi = values.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (values[mid]! < v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Level of each distinct value under the `rank` method. */
function rankLevels(firstRank: Int32Array, n: number, bins: number): Int32Array {
  const levelOf = new Int32Array(firstRank.length);
  let level = -1;
  let lastBin = -1;
  for (let t = 0; t < firstRank.length; t++) {
    const bin = Math.min(bins - 1, Math.floor((firstRank[t]! * bins) / n));
    if (bin !== lastBin) {
      level++;
      lastBin = bin;
    }
    levelOf[t] = level;
  }
  return levelOf;
}

/** Level of each distinct value under the `cuts` method, and the cut points. */
function cutLevels(values: Float64Array, firstRank: Int32Array, n: number, bins: number) {
  const cuts: number[] = [];
  let t = 0;
  for (let b = 1; b < bins; b++) {
    const rank = Math.floor((b * n) / bins);
    while (t + 1 < values.length && firstRank[t + 1]! <= rank) t++;
    const c = values[t]!;
    if (c > values[0]! && (cuts.length === 0 || c > cuts[cuts.length - 1]!)) cuts.push(c);
  }
  const levelOf = new Int32Array(values.length);
  let k = 0;
  values.forEach((v, u) => {
    while (k < cuts.length && v >= cuts[k]!) k++;
    levelOf[u] = k;
  });
  return { levelOf, cuts };
}

/**
 * Turn column j into levels: a discrete attribute with at most `maxLevels` distinct observed values
 * gets one level per value (in ascending order); any other attribute gets at most `bins` equal-height
 * levels (see {@link DiscretiseMethod}). Every level is observed, and its condition selects exactly its rows.
 */
export function discretiseAttribute(ds: Dataset, j: number, options: DiscretiseOptions): DiscreteAttribute {
  checkOptions(options);
  const a = ds.schema.attributes[j];
  if (a === undefined) {
    throw new OptionsError('OPTIONS_INVALID', `no attribute at column ${j} (the schema has ${ds.d})`, {
      option: '/column',
    });
  }
  const { n } = ds;
  const { values, firstRank } = distinctValues(ds, j);
  const categorical = a.kind === 'categorical';
  const binned =
    !(isDiscrete(a) && values.length <= options.maxLevels) &&
    (options.binCategorical !== false || !categorical);
  const name = a.name;

  let levelOf: Int32Array;
  // The bins as intervals (empty when the attribute keeps its values).
  let bins: Interval[] = [];
  if (!binned) {
    levelOf = Int32Array.from(values, (_, t) => t);
  } else if (options.method === 'cuts') {
    const cut = cutLevels(values, firstRank, n, options.bins);
    levelOf = cut.levelOf;
    if (values.length > 0) {
      const edges = [values[0]!, ...cut.cuts, values[values.length - 1]!];
      bins = edges.slice(1).map((max, k) => ({
        attribute: name,
        min: edges[k]!,
        max,
        maxInclusive: k === edges.length - 2,
      }));
    }
  } else {
    levelOf = rankLevels(firstRank, n, options.bins);
    const arity = values.length === 0 ? 0 : levelOf[values.length - 1]! + 1;
    const lo = new Float64Array(arity);
    const hi = new Float64Array(arity);
    for (let t = values.length - 1; t >= 0; t--) lo[levelOf[t]!] = values[t]!;
    for (let t = 0; t < values.length; t++) hi[levelOf[t]!] = values[t]!;
    bins = Array.from(lo, (min, k) => ({ attribute: name, min, max: hi[k]!, maxInclusive: true }));
  }
  const levels: Condition[] = binned ? bins : Array.from(values, (v) => ({ attribute: name, values: [v] }));

  const arity = levels.length;
  const codes = new Int32Array(n);
  const counts = new Int32Array(arity);
  for (let i = 0; i < n; i++) {
    const level = levelOf[indexOf(values, ds.x[i * ds.d + j]!)]!;
    codes[i] = level;
    counts[level]!++;
  }
  const ordered = binned || !categorical;
  const valueRanges = ordered && options.valueRanges === true;

  const condition = (set: ArrayLike<number>): Condition => {
    const first = set[0]!;
    const last = set[set.length - 1]!;
    const run = last - first + 1 === set.length;
    if (binned && run) {
      const hi = bins[last]!;
      return { attribute: name, min: bins[first]!.min, max: hi.max, maxInclusive: hi.maxInclusive };
    }
    if (binned) {
      // A union of bins with gaps is no single interval: list the observed values it covers.
      const member = new Uint8Array(arity);
      for (let s = 0; s < set.length; s++) member[set[s]!] = 1;
      const covered: number[] = [];
      values.forEach((v, t) => {
        if (member[levelOf[t]!] === 1) covered.push(v);
      });
      return { attribute: name, values: covered };
    }
    if (valueRanges && run && set.length > 1) {
      return { attribute: name, min: values[first]!, max: values[last]!, maxInclusive: true };
    }
    return { attribute: name, values: Array.from(set, (c) => values[c]!) };
  };

  return { attribute: name, column: j, binned, ordered, arity, codes, counts, levels, condition };
}

/**
 * {@link discretiseAttribute} for every attribute (or the listed columns, in that order), with the
 * level codes also laid out row-major.
 */
export function discretiseDataset(
  ds: Dataset,
  options: DiscretiseOptions,
  columns?: readonly number[],
): DiscretisedDataset;
/**
 * The same, polling `shouldStop` before each attribute (a sort and a pass over the rows): null as soon as
 * it says stop.
 */
export function discretiseDataset(
  ds: Dataset,
  options: DiscretiseOptions,
  columns: readonly number[] | undefined,
  shouldStop: () => boolean,
): DiscretisedDataset | null;
export function discretiseDataset(
  ds: Dataset,
  options: DiscretiseOptions,
  columns: readonly number[] = ds.schema.attributes.map((_, j) => j),
  shouldStop?: () => boolean,
): DiscretisedDataset | null {
  const attributes: DiscreteAttribute[] = [];
  for (const j of columns) {
    if (shouldStop?.()) return null;
    attributes.push(discretiseAttribute(ds, j, options));
  }
  const m = attributes.length;
  const codes = new Int32Array(ds.n * m);
  attributes.forEach((a, k) => {
    for (let i = 0; i < ds.n; i++) codes[i * m + k] = a.codes[i]!;
  });
  return { attributes, codes };
}
