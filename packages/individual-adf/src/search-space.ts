import { domainGrid, type Schema } from '@fb/core';

/**
 * The input domain as ADF moves through it. Search positions are real-valued (clipped to the bounds);
 * the input that is checked is the position snapped onto the domain. With unit steps from a data
 * row the two coincide, as in the original integer code; with fractional steps the position keeps
 * its fraction so that repeated steps add up.
 */
export class SearchSpace {
  readonly d: number;
  /** Positions of the non-protected attributes, the only ones ADF changes. */
  readonly movable: Int32Array;
  readonly lo: Float64Array;
  readonly hi: Float64Array;
  /** Grid spacing of a discrete attribute (1 for codes); 0 for a continuous one. */
  private readonly grid: Float64Array;
  /** Length of one unit step per attribute. */
  readonly unit: Float64Array;

  constructor(schema: Schema, continuousSteps: number) {
    const attrs = schema.attributes;
    this.d = attrs.length;
    const { lo, hi, grid } = domainGrid(schema);
    this.lo = lo;
    this.hi = hi;
    this.grid = grid;
    this.unit = grid.map((g, j) => (g > 0 ? g : (hi[j]! - lo[j]!) / continuousSteps));
    this.movable = Int32Array.from(attrs.map((a, j) => (a.protected ? -1 : j)).filter((j) => j >= 0));
  }

  /** Add `steps` units to attribute `j` of the position at `pos[off..]`, clipped to the bounds. */
  move(pos: Float64Array, off: number, j: number, steps: number): void {
    const v = pos[off + j]! + steps * this.unit[j]!;
    pos[off + j] = Math.min(Math.max(v, this.lo[j]!), this.hi[j]!);
  }

  /** Write the domain point of the position `pos[pOff..]` at `out[oOff..]`. */
  snap(pos: Float64Array, pOff: number, out: Float64Array, oOff: number): void {
    for (let j = 0; j < this.d; j++) {
      const lo = this.lo[j]!;
      const g = this.grid[j]!;
      const v = Math.min(Math.max(pos[pOff + j]!, lo), this.hi[j]!);
      out[oOff + j] = g > 0 ? lo + Math.round((v - lo) / g) * g : v;
    }
  }
}
