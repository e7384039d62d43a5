import { describe, expect, it } from 'vitest';
import { AffinityQueue } from '../src/run/pool.js';

const cells = (spec: Record<string, number>) =>
  Object.entries(spec).flatMap(([data, n]) =>
    Array.from({ length: n }, (_, i) => ({ data, id: `${data}${i}` })),
  );

/** Two workers taking turns (as when their cells take equally long): the cells each ran, in order. */
function drain(q: AffinityQueue<{ data: string; id: string }>): string[][] {
  const current: (string | null)[] = [null, null];
  const ran: string[][] = [[], []];
  for (let turn = 0; q.size > 0; turn = 1 - turn) {
    const next = q.take(current[turn]!)!;
    current[turn] = next.queue;
    ran[turn]!.push(next.cell.id);
  }
  return ran;
}

describe('AffinityQueue', () => {
  it('keeps each worker on its own data set and starts untouched ones before splitting one', () => {
    const q = new AffinityQueue(cells({ a: 3, b: 2, c: 6 }), (c) => c.data);
    // Worker 1 finishes b first and starts c (untouched); worker 0, done with a, takes the back half
    // of c's five cells left (c4, c5), then the one cell its owner has not reached (c3).
    expect(drain(q)).toEqual([
      ['a0', 'a1', 'a2', 'c4', 'c5', 'c3'],
      ['b0', 'b1', 'c0', 'c1', 'c2'],
    ]);
    expect(q.take(null)).toBeNull();
  });

  it('hands out every cell once, in order within a data set', () => {
    const all = cells({ x: 7, y: 1, z: 4 });
    const q = new AffinityQueue(all, (c) => c.data);
    const out = drain(q);
    expect(out.flat().sort()).toEqual(all.map((c) => c.id).sort());
    for (const ran of out) {
      for (const d of ['x', 'y', 'z']) {
        const ids = ran.filter((id) => id.startsWith(d));
        expect(ids).toEqual([...ids].sort());
      }
    }
  });
});
