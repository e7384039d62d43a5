import { describe, expect, it } from 'vitest';
import { DataError, kmeans, OptionsError, Rng } from '../src/index.js';

/** Three tight, well-separated blobs of `per` points each around known centres. */
function blobs(per: number, rng: Rng): { x: Float64Array; centres: number[][] } {
  const centres = [
    [0, 0],
    [10, 0],
    [0, 10],
  ];
  const x = new Float64Array(centres.length * per * 2);
  let o = 0;
  for (const [cx, cy] of centres) {
    for (let i = 0; i < per; i++) {
      x[o++] = cx! + rng.normal(0, 0.1);
      x[o++] = cy! + rng.normal(0, 0.1);
    }
  }
  return { x, centres };
}

describe('kmeans', () => {
  it('recovers well-separated clusters and their centres', () => {
    const { x, centres } = blobs(50, Rng.create(1));
    const r = kmeans(x, 2, 3, Rng.create(2));
    expect(Array.from(r.sizes).sort()).toEqual([50, 50, 50]);
    // Each true centre is within 0.1 of one found centroid.
    for (const [cx, cy] of centres) {
      let best = Infinity;
      for (let c = 0; c < 3; c++)
        best = Math.min(best, Math.hypot(r.centroids[c * 2]! - cx!, r.centroids[c * 2 + 1]! - cy!));
      expect(best).toBeLessThan(0.1);
    }
    // Rows of one blob share a label.
    for (let b = 0; b < 3; b++)
      expect(new Set(Array.from(r.labels.subarray(b * 50, b * 50 + 50))).size).toBe(1);
  });

  it('computes the centroid and inertia of a single cluster by hand', () => {
    const x = new Float64Array([0, 0, 2, 0, 4, 6]);
    const r = kmeans(x, 2, 1, Rng.create(3));
    expect(Array.from(r.centroids)).toEqual([2, 2]);
    // (4+4) + (0+4) + (4+16) = 32
    expect(r.inertia).toBeCloseTo(32, 12);
  });

  it('returns centroids in input units when standardizing', () => {
    const x = new Float64Array([0, 0, 0, 1000, 1, 0, 1, 1000]);
    const r = kmeans(x, 2, 2, Rng.create(4), { standardize: true });
    const cs = [Array.from(r.centroids.subarray(0, 2)), Array.from(r.centroids.subarray(2, 4))].sort(
      (a, b) => a[0]! - b[0]!,
    );
    // Standardized, both columns weigh alike; k = 2 splits on one of them and centroids are unscaled means.
    for (const c of cs) for (const v of c) expect([0, 0.5, 1, 500, 1000]).toContain(v);
  });

  it('is reproducible for a seed', () => {
    const { x } = blobs(30, Rng.create(5));
    const a = kmeans(x, 2, 4, Rng.create(9));
    const b = kmeans(x, 2, 4, Rng.create(9));
    expect(a.labels).toEqual(b.labels);
    expect(a.centroids).toEqual(b.centroids);
  });

  it('rejects bad input with typed errors', () => {
    expect(() => kmeans(new Float64Array(5), 2, 1, Rng.create(1))).toThrow(DataError);
    expect(() => kmeans(new Float64Array(0), 2, 1, Rng.create(1))).toThrow(DataError);
    expect(() => kmeans(new Float64Array([0, Number.NaN]), 2, 1, Rng.create(1))).toThrow(DataError);
    expect(() => kmeans(new Float64Array(4), 2, 3, Rng.create(1))).toThrow(OptionsError);
    expect(() => kmeans(new Float64Array(4), 2, 1.5, Rng.create(1))).toThrow(OptionsError);
  });
});
