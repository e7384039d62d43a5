import { domainGrid } from './domain-grid.js';
import type { Rng } from './rng.js';
import type { Schema } from './schema.js';

/**
 * Uniform draws over a schema's input domain, every attribute independently: a uniform value of
 * a discrete attribute's grid or codes, a uniform real in a continuous attribute's range. The
 * per-attribute facts are precomputed into typed arrays, so drawing allocates nothing.
 */
export class DomainSampler {
  readonly d: number;
  private readonly lo: Float64Array;
  private readonly hi: Float64Array;
  /** Grid spacing of a discrete attribute (1 for codes); 0 for a continuous one without step. */
  private readonly grid: Float64Array;
  private readonly count: Float64Array;

  constructor(schema: Schema) {
    this.d = schema.attributes.length;
    const { lo, hi, grid, count } = domainGrid(schema);
    this.lo = lo;
    this.hi = hi;
    this.grid = grid;
    this.count = count;
  }

  /** Write one uniformly drawn input at `out[off .. off+d)`. */
  sample(rng: Rng, out: Float64Array, off = 0): void {
    for (let j = 0; j < this.d; j++) {
      const g = this.grid[j]!;
      out[off + j] =
        g > 0 ? this.lo[j]! + rng.int(0, this.count[j]! - 1) * g : rng.uniform(this.lo[j]!, this.hi[j]!);
    }
  }

  /** Fill `out` (a whole number of rows) with uniformly drawn inputs. */
  fill(rng: Rng, out: Float64Array): void {
    for (let off = 0; off < out.length; off += this.d) this.sample(rng, out, off);
  }
}
