import { GrowableArray } from '@fb/core';

/** A FIFO of fixed-width rows that grows while it is read: KOSEI's list of discriminatory inputs. */
export class RowQueue {
  readonly d: number;
  private readonly rows = new GrowableArray((n) => new Float64Array(n));
  private tail = 0;
  head = 0;

  constructor(d: number) {
    this.d = d;
  }

  get length(): number {
    return this.tail;
  }

  push(src: Float64Array, off: number): void {
    const { d } = this;
    this.rows.ensure((this.tail + 1) * d).set(src.subarray(off, off + d), this.tail * d);
    this.tail++;
  }

  /** View of row `i` (valid until the next push). */
  row(i: number): Float64Array {
    return this.rows.array.subarray(i * this.d, (i + 1) * this.d);
  }
}
