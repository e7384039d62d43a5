import { describe, expect, it } from 'vitest';
import { detectionPower, factorTable, type GroupOutcome, pairedComparisons } from '../src/index.js';

describe('pairedComparisons', () => {
  const blocks = Array.from({ length: 8 }, (_, i) => `seed${i}`);
  const obs = blocks.flatMap((block, i) => [
    { method: 'A', block, value: 10 + i },
    { method: 'B', block, value: 9 + i - 0.1 * i },
    { method: 'C', block, value: 10 + i },
  ]);

  it('tests every two methods over shared blocks with Holm correction', () => {
    const cmp = pairedComparisons(obs);
    const ab = cmp.find((c) => c.a === 'A' && c.b === 'B')!;
    expect(ab).toMatchObject({ n: 8, better: 'A' });
    expect(ab.pValue).toBeCloseTo(2 / 256, 14);
    // Holm: the two smallest of three p-values (2/256 each) are multiplied by 3 and 2, then made monotone.
    expect(ab.pHolm).toBeCloseTo((3 * 2) / 256, 14);
    const ac = cmp.find((c) => c.a === 'A' && c.b === 'C')!;
    expect(ac).toMatchObject({ pValue: 1, better: null, meanDifference: 0 });
  });

  it('pairs only blocks both methods have', () => {
    const cmp = pairedComparisons([
      ...obs.filter((o) => o.method !== 'C'),
      { method: 'C', block: 'seed0', value: 1 },
    ]);
    expect(cmp.find((c) => c.b === 'C' && c.a === 'A')!.n).toBe(1);
  });
});

describe('detectionPower', () => {
  it('sets the threshold on runs without bias and measures power above it', () => {
    const nullScores = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0];
    const p = detectionPower(nullScores, [0.95, 0.5, 1.2, 0.91], 0.1)!;
    expect(p.threshold).toBe(0.9);
    expect(p.achievedFpr).toBeCloseTo(0.1, 12);
    expect(p.power).toBe(0.75);
    expect(detectionPower([0.2, 0.4, 0.3], [0.35, 0.5], 0.05)!).toMatchObject({
      threshold: 0.4,
      power: 0.5,
      achievedFpr: 0,
    });
    expect(detectionPower([], [1])).toBeNull();
  });
});

describe('factorTable', () => {
  const outcome = (granularity: number, size: number, found: boolean): GroupOutcome => ({
    id: 0,
    found,
    factors: {
      similarity: null,
      granularity,
      intersectionality: 1,
      biasMagnitude: 1,
      size,
      uncertainty: null,
      gap: null,
    },
  });
  const outcomes = [
    outcome(1, 10, true),
    outcome(1, 20, false),
    outcome(2, 30, true),
    outcome(2, 40, true),
    outcome(3, 50, false),
    outcome(1, 60, true),
    outcome(2, 70, false),
    outcome(3, 80, false),
    outcome(3, 90, false),
  ];

  it('tabulates discrete factors by value', () => {
    const t = factorTable(outcomes, 'granularity');
    expect(t.map((l) => [l.level, l.groups, l.found])).toEqual([
      ['1', 3, 2],
      ['2', 3, 2],
      ['3', 3, 0],
    ]);
    expect(t[2]!.lo).toBe(0);
  });

  it('cuts continuous factors into quantile bins that hold every group once', () => {
    const t = factorTable(outcomes, 'size', 3);
    expect(t.reduce((a, l) => a + l.groups, 0)).toBe(outcomes.length);
    // Edges at the order statistics 0, round(8/3), round(16/3) and 8 of the nine sizes: 10, 40, 60, 90.
    expect(t.map((l) => l.level)).toEqual(['[10, 40)', '[40, 60)', '[60, 90]']);
    expect(t.map((l) => l.groups)).toEqual([3, 2, 4]);
    expect(t.map((l) => l.found)).toEqual([2, 1, 1]);
  });

  it('skips unrecorded factors', () => {
    expect(factorTable(outcomes, 'uncertainty')).toEqual([]);
  });
});
