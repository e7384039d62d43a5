import { type Attribute, bounds, cardinality, clampToDomain, type Rng, type Schema } from '@fb/core';

/**
 * The input domain as AEQUITAS walks it: uniform draws for the global phase, unit moves of single
 * attributes for the local phase. Per-attribute facts are precomputed into typed arrays once per run.
 */
export class SearchSpace {
  readonly d: number;
  /** Positions of the non-protected attributes, the only ones a local move changes. */
  readonly movable: Int32Array;
  private readonly attributes: readonly Attribute[];
  private readonly lo: Float64Array;
  private readonly hi: Float64Array;
  /** Grid spacing of a discrete attribute; 0 for a continuous attribute without step. */
  private readonly grid: Float64Array;
  /** Number of values of a discrete attribute. */
  private readonly count: Int32Array;
  /** Length of one local move per attribute. */
  readonly unit: Float64Array;

  constructor(schema: Schema, perturbationUnit: number, continuousSteps: number) {
    const attrs = schema.attributes;
    this.attributes = attrs;
    this.d = attrs.length;
    this.lo = new Float64Array(this.d);
    this.hi = new Float64Array(this.d);
    this.grid = new Float64Array(this.d);
    this.count = new Int32Array(this.d);
    this.unit = new Float64Array(this.d);
    attrs.forEach((a, j) => {
      const [lo, hi] = bounds(a);
      this.lo[j] = lo;
      this.hi[j] = hi;
      const k = cardinality(a);
      if (Number.isFinite(k)) {
        this.count[j] = k;
        this.grid[j] = a.categories ? 1 : a.step!;
        this.unit[j] = perturbationUnit * this.grid[j]!;
      } else {
        this.unit[j] = (perturbationUnit * (hi - lo)) / continuousSteps;
      }
    });
    this.movable = Int32Array.from(attrs.map((a, j) => (a.protected ? -1 : j)).filter((j) => j >= 0));
  }

  /** Write one input drawn uniformly from the domain (every attribute independently) at `out[off..]`. */
  sample(rng: Rng, out: Float64Array, off: number): void {
    for (let j = 0; j < this.d; j++) {
      const g = this.grid[j]!;
      out[off + j] =
        g > 0 ? this.lo[j]! + rng.int(0, this.count[j]! - 1) * g : rng.uniform(this.lo[j]!, this.hi[j]!);
    }
  }

  /** Move attribute `j` of `row` by `direction` units, snapped onto its domain. */
  move(row: Float64Array, j: number, direction: -1 | 1): void {
    row[j] = clampToDomain(this.attributes[j]!, row[j]! + direction * this.unit[j]!);
  }

  /** Whether attribute `j` of `row` sits on a bound of its domain. */
  atBound(row: Float64Array, j: number): boolean {
    return row[j]! <= this.lo[j]! || row[j]! >= this.hi[j]!;
  }
}
