import { type Condition, type Dataset, isDiscrete } from '@fb/core';

/**
 * One attribute as slicing sees it: a code per row (one per value, or one per equal-height bin), and
 * the condition that selects a set of codes.
 */
export interface SliceColumn {
  readonly attribute: string;
  /** Codes follow the attribute's order (ordinal or continuous), so that ranges of codes are intervals. */
  readonly ordered: boolean;
  readonly binned: boolean;
  readonly arity: number;
  readonly codes: Int32Array;
  /** Rows per code. */
  readonly counts: Int32Array;
  /** The condition satisfied by exactly the rows whose code is in `codes` (ascending). */
  condition(codes: ArrayLike<number>): Condition;
}

export interface ColumnOptions {
  /** Attributes with at most this many distinct values get one code per value. */
  maxValues: number;
  /** Equal-height bins for ordered attributes with more values. */
  bins: number;
}

/**
 * Code every attribute. A categorical attribute, or an ordered one with at most `maxValues` distinct
 * values, gets one code per observed value; an ordered attribute with more values gets `bins`
 * equal-height bins (a value goes to bin ⌊rank of its first row · bins / n⌋; ties never split). Bins are
 * reported as closed intervals between observed values.
 */
export function sliceColumns(ds: Dataset, options: ColumnOptions): SliceColumn[] {
  const { n, d } = ds;
  return ds.schema.attributes.map((a, j) => {
    const col = new Float64Array(n);
    for (let i = 0; i < n; i++) col[i] = ds.x[i * d + j]!;
    const sorted = col.slice().sort();
    const distinct: number[] = [];
    const firstRank: number[] = [];
    for (let r = 0; r < n; r++) {
      if (r === 0 || sorted[r] !== sorted[r - 1]) {
        distinct.push(sorted[r]!);
        firstRank.push(r);
      }
    }
    const ordered = a.kind !== 'categorical';
    const binned = ordered && !(isDiscrete(a) && distinct.length <= options.maxValues);
    const codeOf = new Int32Array(distinct.length);
    let arity = distinct.length;
    if (binned) {
      let code = -1;
      let last = -1;
      distinct.forEach((_, t) => {
        const raw = Math.min(options.bins - 1, Math.floor((firstRank[t]! * options.bins) / n));
        if (raw !== last) {
          code++;
          last = raw;
        }
        codeOf[t] = code;
      });
      arity = code + 1;
    } else {
      codeOf.forEach((_, t) => {
        codeOf[t] = t;
      });
    }
    const index = new Map(distinct.map((v, t) => [v, t] as const));
    const codes = new Int32Array(n);
    const counts = new Int32Array(arity);
    for (let i = 0; i < n; i++) {
      const c = codeOf[index.get(col[i]!)!]!;
      codes[i] = c;
      counts[c]!++;
    }
    const lo = new Float64Array(arity).fill(Number.POSITIVE_INFINITY);
    const hi = new Float64Array(arity).fill(Number.NEGATIVE_INFINITY);
    distinct.forEach((v, t) => {
      const c = codeOf[t]!;
      lo[c] = Math.min(lo[c]!, v);
      hi[c] = Math.max(hi[c]!, v);
    });
    const condition = (set: ArrayLike<number>): Condition => {
      const first = set[0]!;
      const last = set[set.length - 1]!;
      if (ordered && last - first + 1 === set.length && (binned || set.length > 1)) {
        return { attribute: a.name, min: lo[first]!, max: hi[last]!, maxInclusive: true };
      }
      if (binned) {
        const covered: number[] = [];
        distinct.forEach((v, t) => {
          for (let s = 0; s < set.length; s++) if (set[s] === codeOf[t]) covered.push(v);
        });
        return { attribute: a.name, values: covered };
      }
      return { attribute: a.name, values: Array.from(set, (c) => lo[c]!) };
    };
    return { attribute: a.name, ordered, binned, arity, codes, counts, condition };
  });
}
