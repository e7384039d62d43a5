import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DataError, type KMeansResult, kmeans, OptionsError, Rng } from '../src/index.js';

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

  describe('with a stop callback', () => {
    // 600 rows of 7 columns from a seeded stream; the clustering's bytes below were taken from
    // kmeans before it accepted a stop callback.
    const table = () => {
      const rng = Rng.create(11);
      const x = new Float64Array(600 * 7);
      for (let i = 0; i < x.length; i++) x[i] = rng.normal(i % 3, 1 + (i % 7));
      return x;
    };
    const digest = (r: KMeansResult) => {
      const h = createHash('sha256');
      for (const a of [r.centroids, r.labels, r.sizes, Float64Array.of(r.inertia, r.iterations)])
        h.update(new Uint8Array(a.buffer, a.byteOffset, a.byteLength));
      return h.digest('hex');
    };
    const BEFORE = {
      plain: '5bbbb7f74bf518f7d28e339fb99d1be576268fd1481d8b44ebd2058afe07c076',
      standardized: '27b06b3ba40744c449bbf404dd4d84102ebb11b0f656790f072ee403ac76d735',
    };

    it('clusters byte for byte as before when it never stops', () => {
      const x = table();
      let polls = 0;
      const never = () => {
        polls++;
        return false;
      };
      for (const standardize of [false, true]) {
        const expected = standardize ? BEFORE.standardized : BEFORE.plain;
        const plain = kmeans(x, 7, 5, Rng.create(3), { standardize });
        const polled = kmeans(x, 7, 5, Rng.create(3), { standardize, shouldStop: never });
        expect(digest(plain)).toBe(expected);
        expect(digest(polled)).toBe(expected);
        expect(plain.stopped).toBe(false);
        expect(polled.stopped).toBe(false);
      }
      expect(polls).toBeGreaterThan(0);
    });

    it('stops at the first poll that says so and returns labels its sizes and inertia describe', () => {
      const x = table();
      for (const after of [1, 2, 4, 7]) {
        let polls = 0;
        const r = kmeans(x, 7, 5, Rng.create(3), { shouldStop: () => ++polls >= after });
        // Never asked again once it said stop.
        expect(polls).toBe(after);
        expect(r.stopped).toBe(true);
        expect(r.iterations).toBeLessThan(27);
        const sizes = new Int32Array(5);
        let inertia = 0;
        r.labels.forEach((c, i) => {
          expect(c >= 0 && c < 5).toBe(true);
          sizes[c]!++;
          for (let j = 0; j < 7; j++) inertia += (x[i * 7 + j]! - r.centroids[c * 7 + j]!) ** 2;
        });
        expect(Array.from(r.sizes)).toEqual(Array.from(sizes));
        expect(r.inertia).toBeCloseTo(inertia, 6);
        expect(r.centroids.every(Number.isFinite)).toBe(true);
      }
    });

    it('stops during seeding with every centroid a row of the data', () => {
      const x = new Float64Array(3000 * 2);
      for (let i = 0; i < 3000; i++) x[2 * i] = i;
      const r = kmeans(x, 2, 6, Rng.create(1), { shouldStop: () => true });
      expect(r.stopped).toBe(true);
      expect(r.iterations).toBe(0);
      for (let c = 0; c < 6; c++) {
        expect(Number.isInteger(r.centroids[2 * c])).toBe(true);
        expect(r.centroids[2 * c + 1]).toBe(0);
      }
      expect(r.sizes[0]).toBe(3000);
    });
  });
});
