import { bounds, cardinality, type Schema } from './schema.js';

/** Per attribute of a schema, in typed arrays: its bounds, its grid spacing and how many values it takes. */
export interface DomainGrid {
  readonly lo: Float64Array;
  readonly hi: Float64Array;
  /** Grid spacing of a discrete attribute (1 for codes); 0 for a continuous one without step. */
  readonly grid: Float64Array;
  /**
   * Number of values of a discrete attribute; 0 for a continuous one without step. Float64 so that
   * grids beyond 2^31 points keep their size (`defineSchema` caps it at 2^53).
   */
  readonly count: Float64Array;
}

export function domainGrid(schema: Schema): DomainGrid {
  const d = schema.attributes.length;
  const lo = new Float64Array(d);
  const hi = new Float64Array(d);
  const grid = new Float64Array(d);
  const count = new Float64Array(d);
  schema.attributes.forEach((a, j) => {
    [lo[j], hi[j]] = bounds(a);
    const k = cardinality(a);
    if (Number.isFinite(k)) {
      count[j] = k;
      grid[j] = a.categories ? 1 : a.step!;
    }
  });
  return { lo, hi, grid, count };
}
