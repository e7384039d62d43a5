import * as synth from '@fb/synth';
import { describe, expect, it } from 'vitest';
import { expandCells } from '../src/plan/cells.js';
import { AffinityQueue, dataAffinity } from '../src/run/pool.js';
import { crossedSynthetic, tinyStudy } from './helpers.js';

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

describe('dataAffinity', () => {
  it('puts the cells whose rows are the same in one queue: every bias level and the no-bias twin of a seed', async () => {
    const study = tinyStudy(crossedSynthetic);
    const cells = await expandCells(study);
    const queues = new Map<string, Set<string>>();
    for (const c of cells) {
      const key = dataAffinity(c);
      if (!queues.has(key)) queues.set(key, new Set());
      queues.get(key)!.add(`${c.dataset.label} / ${c.seed}`);
    }
    // 3 seeds x 2 granularities; each queue holds both bias levels and the twin of one seed.
    expect(queues.size).toBe(6);
    for (const labels of queues.values()) expect(labels.size).toBe(3);
    // The generator agrees: the bias levels and the twin draw the same rows on a seed.
    const rows = (bias: number, seed: number) =>
      Array.from(synth.generatePlantedPair({ rows: 300, bias, granularity: 1 }, seed).dataset.x);
    expect(rows(-1, 2)).toEqual(rows(-3, 2));
    expect(rows(0, 2)).toEqual(rows(-3, 2));
    expect(rows(-3, 3)).not.toEqual(rows(-3, 2));
  });
});
