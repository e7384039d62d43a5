import { domainGrid, type Schema } from '@fb/core';

/**
 * The ±1 neighbourhood KOSEI walks: one lattice step up or down in one non-protected attribute.
 * Discrete attributes step along their codes or grid; continuous ones along the lattice
 * `min + k (max - min) / continuousSteps`. Values are recomputed from integer lattice indices, so a
 * step up and a step down give back the same floating-point value (and the same tested-sample key).
 */
export class Neighbours {
  readonly d: number;
  /** Positions of the non-protected attributes, the only ones a step changes. */
  readonly movable: Int32Array;
  private readonly lo: Float64Array;
  private readonly hi: Float64Array;
  private readonly unit: Float64Array;
  /** Largest lattice index per attribute (doubles: a grid may hold more than 2^31 points). */
  private readonly last: Float64Array;

  constructor(schema: Schema, continuousSteps: number) {
    const attrs = schema.attributes;
    this.d = attrs.length;
    const { lo, hi, count } = domainGrid(schema);
    this.lo = lo;
    this.hi = hi;
    this.last = count.map((k) => (k > 0 ? k - 1 : continuousSteps));
    this.unit = lo.map((l, j) => (this.last[j]! > 0 ? (hi[j]! - l) / this.last[j]! : 0));
    this.movable = Int32Array.from(attrs.map((a, j) => (a.protected ? -1 : j)).filter((j) => j >= 0));
  }

  /** Largest number of neighbours one input can have. */
  get maxPerInput(): number {
    return 2 * this.movable.length;
  }

  /**
   * The value one step from `v` in attribute `j` (`direction` ±1): the next lattice point above or
   * below (v itself need not lie on the lattice), or NaN outside the domain.
   */
  step(j: number, v: number, direction: -1 | 1): number {
    const last = this.last[j]!;
    if (last === 0) return Number.NaN;
    const q = (v - this.lo[j]!) / this.unit[j]!;
    const r = Math.round(q);
    const onLattice = Math.abs(q - r) < 1e-9;
    const i = direction === 1 ? (onLattice ? r : Math.floor(q)) + 1 : (onLattice ? r : Math.ceil(q)) - 1;
    if (i < 0 || i > last) return Number.NaN;
    // The end points exactly, so that rounding never leaves the domain.
    return i === last ? this.hi[j]! : i === 0 ? this.lo[j]! : this.lo[j]! + i * this.unit[j]!;
  }
}
