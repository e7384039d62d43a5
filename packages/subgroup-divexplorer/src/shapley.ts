import type { FrequentPatterns } from './fp-growth.js';

/** Looks frequent patterns up by their items (ascending item ids); the empty pattern is -1. */
export class PatternIndex {
  private readonly index = new Map<string, number>();
  readonly patterns: FrequentPatterns;

  constructor(patterns: FrequentPatterns) {
    this.patterns = patterns;
    for (let p = 0; p < patterns.count; p++) this.index.set(this.keyOf(this.items(p)), p);
  }

  private keyOf(items: ArrayLike<number>): string {
    return Array.prototype.join.call(items, ',');
  }

  items(p: number): Int32Array {
    const { offsets, items } = this.patterns;
    return items.subarray(offsets[p]!, offsets[p + 1]!);
  }

  /** Index of the pattern with exactly these items, -1 for the empty set, undefined if not frequent. */
  find(items: ArrayLike<number>): number | undefined {
    if (items.length === 0) return -1;
    return this.index.get(this.keyOf(items));
  }
}

const factorial = (k: number) => {
  let f = 1;
  for (let i = 2; i <= k; i++) f *= i;
  return f;
};

/**
 * Shapley value of each item of a pattern I for the divergence Δ: φᵢ = Σ_{S ⊆ I∖{i}} |S|!(|I| − |S| − 1)!/|I|!
 * · (Δ(S ∪ {i}) − Δ(S)). Every subset of a frequent pattern is frequent, so each Δ is known; Δ(∅) = 0.
 * The values sum to Δ(I).
 */
export function itemShapley(index: PatternIndex, p: number, delta: (p: number) => number): Float64Array {
  const items = index.items(p);
  const L = items.length;
  const out = new Float64Array(L);
  const deltaOfMask = new Float64Array(1 << L);
  const subset: number[] = [];
  for (let mask = 1; mask < 1 << L; mask++) {
    subset.length = 0;
    for (let t = 0; t < L; t++) if (mask & (1 << t)) subset.push(items[t]!);
    const q = index.find(subset);
    if (q === undefined) throw new Error(`a subset of a frequent pattern is missing: ${subset}`);
    deltaOfMask[mask] = q < 0 ? 0 : delta(q);
  }
  const fL = factorial(L);
  for (let t = 0; t < L; t++) {
    const bit = 1 << t;
    let v = 0;
    for (let mask = 0; mask < 1 << L; mask++) {
      if (mask & bit) continue;
      let size = 0;
      for (let u = mask; u; u &= u - 1) size++;
      v +=
        ((factorial(size) * factorial(L - size - 1)) / fL) * (deltaOfMask[mask | bit]! - deltaOfMask[mask]!);
    }
    out[t] = v;
  }
  return out;
}

/**
 * Global Shapley value of every frequent item i (of attribute a): Σ over the frequent patterns J without
 * attribute a such that J ∪ {i} is frequent, of w·(Δ(J ∪ {i}) − Δ(J)), with w = |B|!(|A| − |B| − 1)!/(|A|!
 * Π_{b ∈ B ∪ {a}} m_b), B the attributes of J, A the attributes having frequent items and m_b the number of
 * frequent items of attribute b. Computed from each frequent K = J ∪ {i} and each of its items. Items that
 * are not frequent get NaN.
 */
export function globalShapley(
  index: PatternIndex,
  delta: (p: number) => number,
  attributeOf: Int32Array,
  nItems: number,
): Float64Array {
  const { count } = index.patterns;
  const out = new Float64Array(nItems).fill(Number.NaN);
  const itemsPerAttribute = new Map<number, number>();
  for (let p = 0; p < count; p++) {
    const items = index.items(p);
    if (items.length !== 1) continue;
    out[items[0]!] = 0;
    const a = attributeOf[items[0]!]!;
    itemsPerAttribute.set(a, (itemsPerAttribute.get(a) ?? 0) + 1);
  }
  const A = itemsPerAttribute.size;
  const fA = factorial(A);
  const rest: number[] = [];
  for (let p = 0; p < count; p++) {
    const items = index.items(p);
    const k = items.length;
    let prod = 1;
    for (const it of items) prod *= itemsPerAttribute.get(attributeOf[it]!)!;
    const w = (factorial(k - 1) * factorial(A - k)) / (fA * prod);
    const dK = delta(p);
    if (!Number.isFinite(dK)) continue;
    for (let t = 0; t < k; t++) {
      rest.length = 0;
      for (let u = 0; u < k; u++) if (u !== t) rest.push(items[u]!);
      const q = index.find(rest)!;
      out[items[t]!]! += w * (dK - (q < 0 ? 0 : delta(q)));
    }
  }
  return out;
}

/**
 * DivExplorer's redundancy test: a pattern is redundant when removing some item changes its divergence
 * by at most ε (that item adds nothing).
 */
export function isRedundant(
  index: PatternIndex,
  p: number,
  delta: (p: number) => number,
  epsilon: number,
): boolean {
  const items = index.items(p);
  if (items.length < 2) return false;
  const dI = delta(p);
  const rest: number[] = [];
  for (let t = 0; t < items.length; t++) {
    rest.length = 0;
    for (let u = 0; u < items.length; u++) if (u !== t) rest.push(items[u]!);
    const q = index.find(rest)!;
    if (Math.abs(dI - delta(q)) <= epsilon) return true;
  }
  return false;
}
