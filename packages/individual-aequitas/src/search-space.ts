import {
  type Attribute,
  clampToDomain,
  type DataSupport,
  DomainSampler,
  domainGrid,
  type Rng,
  type Schema,
} from '@fb/core';

/**
 * The input domain as AEQUITAS walks it: uniform draws for the global phase, unit moves of single
 * attributes for the local phase. Per-attribute facts are precomputed into typed arrays once per run.
 */
export class SearchSpace {
  readonly d: number;
  /** Positions of the non-protected attributes, the only ones a local move changes. */
  readonly movable: Int32Array;
  private readonly attributes: readonly Attribute[];
  private readonly sampler: DomainSampler;
  private readonly lo: Float64Array;
  private readonly hi: Float64Array;
  /** Length of one local move per attribute. */
  readonly unit: Float64Array;

  /**
   * `support`: moves go to values the data's rows hold and keep their functional dependencies (see
   * `DataSupport.move`); without it, moves are unit steps snapped onto the domain (the paper).
   */
  constructor(
    schema: Schema,
    perturbationUnit: number,
    continuousSteps: number,
    private readonly support: DataSupport | null = null,
  ) {
    const attrs = schema.attributes;
    this.attributes = attrs;
    this.d = attrs.length;
    this.sampler = new DomainSampler(schema);
    const { lo, hi, grid } = domainGrid(schema);
    this.lo = lo;
    this.hi = hi;
    this.unit = grid.map((g, j) =>
      g > 0 ? perturbationUnit * g : (perturbationUnit * (hi[j]! - lo[j]!)) / continuousSteps,
    );
    this.movable = Int32Array.from(attrs.map((a, j) => (a.protected ? -1 : j)).filter((j) => j >= 0));
  }

  /** Write one input drawn uniformly from the domain (every attribute independently) at `out[off..]`. */
  sample(rng: Rng, out: Float64Array, off: number): void {
    this.sampler.sample(rng, out, off);
  }

  /**
   * Move attribute `j` of `row` by `direction` units, snapped onto its domain; within the data's
   * support, to the next value the rows hold (unchanged when there is none).
   */
  move(row: Float64Array, j: number, direction: -1 | 1): void {
    if (this.support) this.support.move(row, j, direction, this.unit[j]!);
    else row[j] = clampToDomain(this.attributes[j]!, row[j]! + direction * this.unit[j]!);
  }

  /** Whether attribute `j` of `row` sits on a bound of its domain. */
  atBound(row: Float64Array, j: number): boolean {
    return row[j]! <= this.lo[j]! || row[j]! >= this.hi[j]!;
  }
}
