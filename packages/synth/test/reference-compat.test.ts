import { describe, expect, it } from 'vitest';
import { generate } from '../src/index.js';

describe('referenceCompat', () => {
  const r = generate({ seed: 5, referenceCompat: true });
  it('uses the Python sizing: n subgroups with C(n, 2) >= 100, 100 pairs, K + 1 outcome classes', () => {
    expect(r.truth.pairs).toHaveLength(100);
    const subs = new Set(r.truth.pairs.flatMap((p) => [p.a.id, p.b.id]));
    expect(subs.size).toBe(15);
    expect(r.dataset.schema.attributes).toHaveLength(20);
    expect(r.dataset.schema.outcome.labels).toHaveLength(7);
    expect(r.dataset.y.some((v) => v === 6)).toBe(true);
  });
  it("reproduces the memoised rows: a subgroup's rows repeat across the groups it belongs to", () => {
    const d = r.dataset.d;
    const seen = new Map<string, number>();
    for (let i = 0; i < r.dataset.n; i++) {
      const k = Array.from(r.dataset.x.subarray(i * d, (i + 1) * d)).join('|');
      seen.set(k, (seen.get(k) ?? 0) + 1);
    }
    expect(Math.max(...seen.values())).toBeGreaterThan(5);
  });
  it('is seeded', () => {
    const again = generate({ seed: 5, referenceCompat: true });
    expect(Array.from(again.dataset.y)).toEqual(Array.from(r.dataset.y));
  });
});
