import { GrowableArray } from '@fb/core';

/**
 * A min-priority queue of fixed-width rows: lowest rank first, equal ranks in insertion order.
 * A binary heap of ids over rows stored in one growing Float64Array.
 */
export class RowPriorityQueue {
  readonly d: number;
  private readonly rows = new GrowableArray((n) => new Float64Array(n));
  private readonly ranks = new GrowableArray((n) => new Float64Array(n));
  private readonly heap = new GrowableArray((n) => new Int32Array(n));
  private size = 0;
  private added = 0;

  constructor(d: number) {
    this.d = d;
  }

  get length(): number {
    return this.size;
  }

  push(src: ArrayLike<number>, off: number, rank: number): void {
    const id = this.added++;
    const rows = this.rows.ensure((id + 1) * this.d);
    for (let j = 0; j < this.d; j++) rows[id * this.d + j] = src[off + j]!;
    this.ranks.ensure(id + 1)[id] = rank;
    const heap = this.heap.ensure(this.size + 1);
    let i = this.size++;
    heap[i] = id;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.before(heap[i]!, heap[parent]!)) break;
      [heap[i], heap[parent]] = [heap[parent]!, heap[i]!];
      i = parent;
    }
  }

  /** Copy the first row into `out` and remove it; returns its rank. The queue must not be empty. */
  pop(out: Float64Array): number {
    const heap = this.heap.array;
    const top = heap[0]!;
    out.set(this.rows.array.subarray(top * this.d, (top + 1) * this.d));
    heap[0] = heap[--this.size]!;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let best = i;
      if (l < this.size && this.before(heap[l]!, heap[best]!)) best = l;
      if (r < this.size && this.before(heap[r]!, heap[best]!)) best = r;
      if (best === i) break;
      [heap[i], heap[best]] = [heap[best]!, heap[i]!];
      i = best;
    }
    return this.ranks.array[top]!;
  }

  private before(a: number, b: number): boolean {
    const ra = this.ranks.array[a]!;
    const rb = this.ranks.array[b]!;
    return ra < rb || (ra === rb && a < b);
  }
}
