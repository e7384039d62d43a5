import { type Condition, type Dataset, describeCondition, discretiseAttribute } from '@fb/core';

/** One bin of a binned attribute: its interval (observed bounds), label and rows. */
export interface Bin {
  readonly min: number;
  readonly max: number;
  /** The bin in the data's labels, e.g. `capital-gain = 0` or `114 <= capital-gain <= 3103`. */
  readonly label: string;
  readonly rows: number;
}

/** How one attribute's values became codes 0..arity-1, and the condition each code stands for. */
export interface AttributeCodes {
  readonly attribute: string;
  /** Whether codes are quantile bins (reported as intervals) rather than single values. */
  readonly binned: boolean;
  readonly arity: number;
  /** Distinct values observed in the data. */
  readonly distinctValues: number;
  /** The bins of a binned attribute, in code order (empty otherwise). */
  readonly bins: readonly Bin[];
  /** The condition satisfied by exactly the dataset rows that got `code`. */
  condition(code: number): Condition;
}

/** The dataset recoded as SliceLine's input X: n x m integer codes, row-major. */
export interface RecodedTable {
  readonly n: number;
  readonly m: number;
  readonly codes: Int32Array;
  readonly attributes: AttributeCodes[];
}

export interface RecodeOptions {
  /** Numeric attributes with at most this many distinct values keep one code per value. */
  maxValues: number;
  /** Most quantile bins of the other numeric attributes. */
  bins: number;
}

/**
 * Equal-height bins over a numeric column that ties cannot swallow. Each bin's share is the rows not
 * yet binned divided by the bins left; distinct values (with `counts` rows each, ascending) join the
 * current bin until it holds its share, or until the next value would overshoot the share by more
 * than the bin now falls short of it. A value is never split; a value holding most rows
 * (capital-gain = 0 in nine rows of ten) gets a bin of its own, and the remaining bins are spread over
 * the other values. Returns the bin of each distinct value (at most `bins` bins, all non-empty).
 */
export function spreadBins(counts: ArrayLike<number>, bins: number): Int32Array {
  const binOf = new Int32Array(counts.length);
  let left = 0;
  for (let t = 0; t < counts.length; t++) left += counts[t]!;
  let bin = 0;
  let inBin = 0;
  let target = left / bins;
  for (let t = 0; t < counts.length; t++) {
    const c = counts[t]!;
    // Close the bin first when adding this value would overshoot its share by more than it now falls short.
    if (inBin > 0 && bin < bins - 1 && inBin + c - target > target - inBin) {
      left -= inBin;
      bin++;
      inBin = 0;
      target = left / (bins - bin);
    }
    binOf[t] = bin;
    inBin += c;
    if (inBin >= target && bin < bins - 1 && t < counts.length - 1) {
      left -= inBin;
      bin++;
      inBin = 0;
      target = left / (bins - bin);
    }
  }
  return binOf;
}

/** A numeric column cut by {@link spreadBins}. */
function binColumn(ds: Dataset, j: number, bins: number): AttributeCodes & { codes: Int32Array } {
  const { n, d } = ds;
  const name = ds.schema.attributes[j]!.name;
  const column = new Float64Array(n);
  for (let i = 0; i < n; i++) column[i] = ds.x[i * d + j]!;
  const order = Int32Array.from({ length: n }, (_, i) => i).sort((p, q) => column[p]! - column[q]!);
  // The distinct values in ascending order, their row counts, and the value index of each rank.
  const values: number[] = [];
  const counts: number[] = [];
  const valueAt = new Int32Array(n);
  for (let r = 0; r < n; r++) {
    const v = column[order[r]!]!;
    if (r === 0 || v !== values[values.length - 1]) {
      values.push(v);
      counts.push(0);
    }
    counts[counts.length - 1]!++;
    valueAt[r] = values.length - 1;
  }
  const binOf = spreadBins(counts, bins);
  const arity = values.length === 0 ? 0 : binOf[values.length - 1]! + 1;
  const intervals = Array.from({ length: arity }, () => ({ min: Number.POSITIVE_INFINITY, max: 0, rows: 0 }));
  values.forEach((v, t) => {
    const b = intervals[binOf[t]!]!;
    b.min = Math.min(b.min, v);
    b.max = v;
    b.rows += counts[t]!;
  });
  const conditions: Condition[] = intervals.map((b) => ({
    attribute: name,
    min: b.min,
    max: b.max,
    maxInclusive: true,
  }));
  const codes = new Int32Array(n);
  for (let r = 0; r < n; r++) codes[order[r]!] = binOf[valueAt[r]!]!;
  return {
    attribute: name,
    binned: true,
    arity,
    distinctValues: values.length,
    bins: intervals.map((b, k) => ({ ...b, label: describeCondition(ds.schema, conditions[k]!) })),
    condition: (code) => conditions[code]!,
    codes,
  };
}

/**
 * Recode every attribute: a categorical attribute gets one code per observed category, whatever
 * their number (its codes have no order to bin by); a numeric attribute with at most `maxValues`
 * distinct observed values gets one code per value; any other numeric attribute gets at most `bins`
 * equal-height bins ({@link spreadBins}), reported as closed intervals whose bounds are observed values.
 */
export function recodeDataset(ds: Dataset, options: RecodeOptions): RecodedTable;
/** The same, polling `shouldStop` before each attribute (a sort of its column): null once it says stop. */
export function recodeDataset(
  ds: Dataset,
  options: RecodeOptions,
  shouldStop: () => boolean,
): RecodedTable | null;
export function recodeDataset(
  ds: Dataset,
  options: RecodeOptions,
  shouldStop?: () => boolean,
): RecodedTable | null {
  const m = ds.d;
  const codes = new Int32Array(ds.n * m);
  const attributes: AttributeCodes[] = [];
  for (let j = 0; j < m; j++) {
    if (shouldStop?.()) return null;
    const kept = discretiseAttribute(ds, j, {
      maxLevels: options.maxValues,
      bins: options.bins,
      binCategorical: false,
    });
    const coded = kept.binned
      ? binColumn(ds, j, options.bins)
      : {
          attribute: kept.attribute,
          binned: false,
          arity: kept.arity,
          distinctValues: kept.arity,
          bins: [],
          condition: (code: number) => kept.condition([code]),
          codes: kept.codes,
        };

    const { codes: columnCodes, ...attribute } = coded;
    for (let i = 0; i < ds.n; i++) codes[i * m + j] = columnCodes[i]!;
    attributes.push(attribute);
  }
  return { n: ds.n, m, codes, attributes };
}
