import { countMembers, createDataset, createRng, defineSchema } from '@fb/core';
import { describe, expect, it } from 'vitest';
import { encodeAttributes } from '../src/index.js';

const schema = defineSchema({
  attributes: [
    { name: 'group', kind: 'categorical', protected: true, categories: ['a', 'b', 'c'] },
    { name: 'age', kind: 'ordinal', protected: false, min: 18, max: 67, step: 1 },
    { name: 'score', kind: 'continuous', protected: false, min: 0, max: 1 },
  ],
  outcome: { name: 'ok', labels: ['no', 'yes'], favorable: 1 },
});

function data(n: number) {
  const rng = createRng('encoding');
  const x = new Float64Array(n * 3);
  const y = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    x[i * 3] = rng.int(0, 1); // category c never occurs
    x[i * 3 + 1] = rng.int(18, 67);
    // Heavy ties: a third of the rows share the value 0.5.
    x[i * 3 + 2] = rng.next() < 1 / 3 ? 0.5 : Math.round(rng.next() * 1000) / 1000;
    y[i] = i % 2;
  }
  return createDataset({ schema, x, y });
}

describe('encodeAttributes', () => {
  const ds = data(1200);
  const coordinates = encodeAttributes(ds, { maxValues: 20, bins: 5 });
  const { encodings } = coordinates;

  it('codes few-valued discrete attributes by observed value and bins the others', () => {
    expect(encodings.map((e) => e.binned)).toEqual([false, true, true]);
    expect(encodings.map((e) => e.ordered)).toEqual([false, true, true]);
    expect(encodings[0]!.arity).toBe(2);
    expect(encodings[0]!.condition(Int32Array.of(1))).toEqual({ attribute: 'group', values: [1] });
    expect(encodings[1]!.arity).toBeLessThanOrEqual(5);
    expect(encodings[1]!.arity).toBeGreaterThanOrEqual(4);
    // Ages are spread evenly: the quantile bins hold about a fifth of the rows each.
    const sizes = new Array(encodings[1]!.arity).fill(0);
    for (const c of coordinates.codes[1]!) sizes[c]++;
    for (const s of sizes) expect(Math.abs(s - 1200 / encodings[1]!.arity)).toBeLessThan(120);
  });

  it('reports every union of bins by a condition that selects exactly its rows', () => {
    for (const j of [1, 2]) {
      const k = encodings[j]!.arity;
      for (let mask = 1; mask < 1 << k; mask++) {
        const codes = Int32Array.from([...Array(k).keys()].filter((b) => mask & (1 << b)));
        const condition = encodings[j]!.condition(codes);
        const contiguous = codes[codes.length - 1]! - codes[0]! + 1 === codes.length;
        expect('min' in condition).toBe(contiguous);
        let expected = 0;
        for (const c of coordinates.codes[j]!) if (codes.includes(c)) expected++;
        expect(countMembers(ds, [condition])).toBe(expected);
      }
    }
  });

  it('never splits tied values across bins', () => {
    const tiedCodes = new Set<number>();
    for (let i = 0; i < ds.n; i++) if (ds.x[i * 3 + 2] === 0.5) tiedCodes.add(coordinates.codes[2]![i]!);
    expect(tiedCodes.size).toBe(1);
  });
});
