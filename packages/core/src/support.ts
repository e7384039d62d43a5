import type { Dataset } from './dataset.js';

/** Distinct values an attribute may have to take part in a dependency (keeps the check small). */
const MAX_DEPENDENCY_LEVELS = 100;

/** Attribute `to` is a function of attribute `from` on every row: `map` gives its value. */
export interface Dependency {
  readonly from: number;
  readonly to: number;
  readonly map: ReadonlyMap<number, number>;
}

/**
 * The support of a data set's rows, learned from them: the values each attribute takes, and the
 * functional dependencies between attributes of at most 100 values (when each value of A comes with
 * one value of B on every row, education Preschool never with education-num 12). An input is in the
 * support when every value is one the rows hold (a continuous attribute with more than 100 values:
 * within the rows' range) and every dependency holds.
 */
export class DataSupport {
  readonly dependencies: readonly Dependency[];
  /** Per attribute, the values the rows hold in ascending order; null for a many-valued continuous one. */
  private readonly held: (Float64Array | null)[];
  private readonly lo: Float64Array;
  private readonly hi: Float64Array;
  /** Per attribute, the dependencies it determines. */
  private readonly dependents: Dependency[][];
  /** The input before a move, to restore it when the move leaves the support. */
  private readonly before: Float64Array;

  constructor(ds: Pick<Dataset, 'n' | 'd' | 'x' | 'schema'>) {
    const { n, d, x } = ds;
    const attrs = ds.schema.attributes;
    const sets: (Set<number> | null)[] = attrs.map(() => new Set<number>());
    this.lo = new Float64Array(d).fill(Number.POSITIVE_INFINITY);
    this.hi = new Float64Array(d).fill(Number.NEGATIVE_INFINITY);
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < d; j++) {
        const v = x[i * d + j]!;
        const h = sets[j];
        if (h) {
          h.add(v);
          if (h.size > MAX_DEPENDENCY_LEVELS && attrs[j]!.kind === 'continuous') sets[j] = null;
        }
        if (v < this.lo[j]!) this.lo[j] = v;
        if (v > this.hi[j]!) this.hi[j] = v;
      }
    }
    this.held = sets.map((h) => (h ? Float64Array.from(h).sort() : null));
    const few = attrs
      .map((_, j) => j)
      .filter((j) => {
        const h = this.held[j];
        return h !== null && h!.length >= 2 && h!.length <= MAX_DEPENDENCY_LEVELS;
      });
    const dependencies: Dependency[] = [];
    for (const a of few) {
      for (const b of few) {
        if (a === b) continue;
        const map = new Map<number, number>();
        let holds = true;
        for (let i = 0; i < n && holds; i++) {
          const va = x[i * d + a]!;
          const vb = x[i * d + b]!;
          const seen = map.get(va);
          if (seen === undefined) map.set(va, vb);
          else if (seen !== vb) holds = false;
        }
        // A determining B through a single value of A is no rule worth checking.
        if (holds && map.size >= 2) dependencies.push({ from: a, to: b, map });
      }
    }
    this.dependencies = dependencies;
    this.dependents = attrs.map((_, j) => dependencies.filter((dep) => dep.from === j));
    this.before = new Float64Array(d);
  }

  /** Whether the input (schema order) is in the support (see the class). */
  contains(row: ArrayLike<number>): boolean {
    for (let j = 0; j < this.held.length; j++) {
      const v = row[j]!;
      const h = this.held[j];
      if (h ? !includes(h, v) : v < this.lo[j]! || v > this.hi[j]!) return false;
    }
    for (const { from, to, map } of this.dependencies) {
      const want = map.get(row[from]!);
      if (want !== undefined && want !== row[to]) return false;
    }
    return true;
  }

  /**
   * Move attribute `j` of `row` in place to the next value above (`direction` 1) or below (-1) `row[j]`
   * that the rows hold, then set the attributes it determines to the values the rows pair with it. A
   * many-valued continuous attribute moves by `step` and stays within the rows' range. Returns false,
   * leaving `row` unchanged, when no such value exists or the moved input leaves the support (a
   * dependency on `j` from another attribute would break).
   */
  move(row: Float64Array, j: number, direction: -1 | 1, step: number): boolean {
    const v = row[j]!;
    const h = this.held[j];
    let next: number;
    if (h) {
      const at = lowerBound(h, v);
      const k = direction > 0 ? (at < h.length && h[at] === v ? at + 1 : at) : at - 1;
      if (k < 0 || k >= h.length) return false;
      next = h[k]!;
    } else {
      next = Math.min(this.hi[j]!, Math.max(this.lo[j]!, v + direction * step));
      if (next === v) return false;
    }
    this.before.set(row);
    row[j] = next;
    for (const { to, map } of this.dependents[j]!) {
      const want = map.get(next);
      if (want !== undefined) row[to] = want;
    }
    if (this.contains(row)) return true;
    row.set(this.before);
    return false;
  }
}

/** First index whose value is >= v. */
function lowerBound(a: Float64Array, v: number): number {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (a[mid]! < v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

const includes = (a: Float64Array, v: number) => {
  const k = lowerBound(a, v);
  return k < a.length && a[k] === v;
};
