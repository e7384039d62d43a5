import { describe, expect, it } from 'vitest';
import {
  constraintKey,
  globalConstraintSets,
  localConstraintSets,
  meanConfidence,
  negate,
  type Predicate,
} from '../src/constraints.js';

const p = (feature: number, le: boolean, threshold: number, confidence: number): Predicate => ({
  feature,
  le,
  threshold,
  confidence,
});
/** A hand-built path: a <= 49.5 (0.9), sex > 0.5 (0.5), b > 9.5 (0.2), a > 39.5 (0.6). Attribute 0 is protected. */
const path = [p(1, true, 49.5, 0.9), p(0, false, 0.5, 0.5), p(2, false, 9.5, 0.2), p(1, false, 39.5, 0.6)];
const isProtected = (j: number) => j === 0;
const text = (cs: Predicate[]) => constraintKey(cs);

describe('constraint negation', () => {
  it("flips the comparison and the confidence to 1 − c (the other branch's share), as the original", () => {
    expect(negate(path[0]!)).toEqual(p(1, false, 49.5, 1 - 0.9));
    expect(negate(negate(path[2]!)).le).toBe(path[2]!.le);
    expect(negate(negate(path[2]!)).confidence).toBeCloseTo(path[2]!.confidence, 12);
  });

  it('local sets: each non-protected predicate negated among the predicates on its own attribute', () => {
    const sets = localConstraintSets(path, isProtected);
    expect(sets.map((s) => s.negated)).toEqual([0, 2, 3]);
    expect(sets.map((s) => text(s.constraints))).toEqual(['1>49.5&1>39.5', '2<=9.5', '1<=49.5&1<=39.5']);
  });

  it("local sets rank by the whole path's mean confidence with the predicate negated, as the original", () => {
    const sets = localConstraintSets(path, isProtected);
    // The original's local search ranks by average_confidence of the whole negated path, not of the predicates solved.
    expect(sets.map((s) => s.confidence)).toEqual(
      [
        [0.1, 0.5, 0.2, 0.6],
        [0.9, 0.5, 0.8, 0.6],
        [0.9, 0.5, 0.2, 0.4],
      ].map((cs) => expect.closeTo(cs.reduce((a, b) => a + b) / 4, 12)),
    );
    // The negated attribute's predicates alone would give 0.8.
    expect(sets[1]!.confidence).not.toBeCloseTo(meanConfidence(sets[1]!.constraints), 3);
  });

  it('global sets rank by the mean confidence of their own predicates (the whole set solved)', () => {
    const sets = globalConstraintSets(path, isProtected, 0);
    expect(sets.map((s) => s.confidence)).toEqual(
      sets.map((s) => expect.closeTo(meanConfidence(s.constraints), 12)),
    );
  });

  it('global sets: the prefix and one negated predicate, up to the first low-confidence predicate', () => {
    const sets = globalConstraintSets(path, isProtected, 0.3);
    // Predicate 1 is protected (skipped but kept in later prefixes); predicate 2 (0.2 < 0.3) ends the walk.
    expect(sets.map((s) => s.negated)).toEqual([0]);
    expect(text(sets[0]!.constraints)).toBe('1>49.5');
    const all = globalConstraintSets(path, isProtected, 0);
    expect(all.map((s) => text(s.constraints))).toEqual([
      '1>49.5',
      '1<=49.5&0>0.5&2<=9.5',
      '1<=49.5&0>0.5&2>9.5&1<=39.5',
    ]);
  });

  it('rank by mean confidence', () => {
    expect(meanConfidence(path)).toBeCloseTo((0.9 + 0.5 + 0.2 + 0.6) / 4, 12);
    expect(meanConfidence([])).toBe(0);
  });
});
