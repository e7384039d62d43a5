import { RowIndex, type Schema, TestedSampleKey } from '@fb/core';

/**
 * The inputs KOSEI has already sent for evaluation, keyed exactly as the checker keys its tested
 * samples (core's `TestedSampleKey`: the non-protected values' cell indices at `keyResolution`), so
 * that an input is claimed here if and only if the checker would count it as a new tested sample.
 * The search consults it before building a batch, so no input is ever submitted twice, and its
 * tested counts agree with the checker's TSN.
 */
export class TestedSet {
  private readonly index: RowIndex;
  private readonly key: TestedSampleKey;

  constructor(schema: Schema) {
    this.key = new TestedSampleKey(schema);
    this.index = new RowIndex(this.key.width);
  }

  get size(): number {
    return this.index.size;
  }

  /** Record the input at `row[off..]`; true if its key was not there yet. */
  claim(row: Float64Array, off: number): boolean {
    const before = this.index.size;
    this.index.getOrAdd(this.key.of(row, off));
    return this.index.size > before;
  }
}
