import { RowIndex } from '@fb/core';

/**
 * The inputs KOSEI has already sent for evaluation, keyed like the checker's tested samples (on the
 * non-protected attributes). The search consults it before building a batch, so no input is ever
 * submitted twice.
 */
export class TestedSet {
  private readonly index: RowIndex;
  private readonly key: Float64Array;
  private readonly nonProtected: Int32Array;

  constructor(nonProtected: Int32Array) {
    this.nonProtected = nonProtected;
    this.index = new RowIndex(nonProtected.length);
    this.key = new Float64Array(nonProtected.length);
  }

  get size(): number {
    return this.index.size;
  }

  /** Record the input at `row[off..]`; true if it was not there yet. */
  claim(row: Float64Array, off: number): boolean {
    for (let k = 0; k < this.nonProtected.length; k++) this.key[k] = row[off + this.nonProtected[k]!]!;
    const before = this.index.size;
    this.index.getOrAdd(this.key);
    return this.index.size > before;
  }
}
