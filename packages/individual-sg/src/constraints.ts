/** One predicate of a decision path: `x[feature] <= threshold` (le) or `x[feature] > threshold`. */
export interface Predicate {
  feature: number;
  le: boolean;
  threshold: number;
  /** Share of the node's training samples that go this way. */
  confidence: number;
}

/** A set of predicates to solve, with what ranks its solution in the queue. */
export interface ConstraintSet {
  constraints: Predicate[];
  /** Position of the negated predicate in the path. */
  negated: number;
  /**
   * Mean confidence that ranks the solution: over the whole path with the predicate negated for a
   * local set (as the original, which solves only the predicates on that attribute), over the set's
   * own predicates (the prefix and the negated one) for a global set.
   */
  confidence: number;
}

/** The predicate negated; its confidence becomes 1 − c (the share of the node's samples going the other way), as in the original. */
export function negate(p: Predicate): Predicate {
  return { ...p, le: !p.le, confidence: 1 - p.confidence };
}

/**
 * Local search (around a discriminatory input): for each predicate on a non-protected attribute,
 * the path's predicates on that same attribute with this one negated. The solution changes only
 * that attribute of the input. Its rank comes from the whole path with that predicate negated.
 */
export function localConstraintSets(
  path: readonly Predicate[],
  isProtected: (j: number) => boolean,
): ConstraintSet[] {
  const out: ConstraintSet[] = [];
  path.forEach((p, i) => {
    if (isProtected(p.feature)) return;
    const negatedPath = path.map((q) => (q === p ? negate(q) : q));
    const constraints = negatedPath.filter((q) => q.feature === p.feature);
    out.push({ constraints, negated: i, confidence: meanConfidence(negatedPath) });
  });
  return out;
}

/**
 * Global search (towards new paths): walking the path from the root up to the first predicate whose
 * confidence is below `threshold`, for each predicate on a non-protected attribute, the prefix
 * before it and the predicate negated.
 */
export function globalConstraintSets(
  path: readonly Predicate[],
  isProtected: (j: number) => boolean,
  threshold: number,
): ConstraintSet[] {
  const out: ConstraintSet[] = [];
  for (let i = 0; i < path.length; i++) {
    const p = path[i]!;
    if (p.confidence < threshold) break;
    if (isProtected(p.feature)) continue;
    const constraints = [...path.slice(0, i), negate(p)];
    out.push({ constraints, negated: i, confidence: meanConfidence(constraints) });
  }
  return out;
}

export function meanConfidence(constraints: readonly Predicate[]): number {
  let s = 0;
  for (const p of constraints) s += p.confidence;
  return constraints.length === 0 ? 0 : s / constraints.length;
}

/** A canonical text key of a constraint set (for not solving the same set twice). */
export function constraintKey(constraints: readonly Predicate[]): string {
  return constraints.map((p) => `${p.feature}${p.le ? '<=' : '>'}${p.threshold}`).join('&');
}
