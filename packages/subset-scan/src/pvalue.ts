/**
 * Monte Carlo p-value of an observed maximum against `replicates` null maxima of which `atLeast` were
 * ≥ it: (1 + atLeast) / (1 + replicates). Counting the observed scan as one draw keeps the test valid
 * at every replicate count and never gives p = 0. Null when no replicate was run.
 */
export function monteCarloPValue(atLeast: number, replicates: number): number | null {
  if (replicates === 0) return null;
  return (1 + atLeast) / (1 + replicates);
}

/**
 * The exceedance count at which a sequential test stops: h = ⌊level · (R + 1) / m⌋ (at least 1) for
 * R planned replicates and p-values multiplied by m (a Bonferroni factor; 1 without). The fixed test
 * rejects at `level` exactly when fewer than h of its R replicates reach the observed score, so
 * stopping at h exceedances never changes a decision at `level` or below.
 */
export function exceedancesToStop(level: number, replicates: number, multiplier = 1): number {
  return Math.max(1, Math.floor((level * (replicates + 1)) / multiplier + 1e-9));
}

/**
 * One Monte Carlo p-value, drawn replicate by replicate, with Besag & Clifford's (1991) sequential
 * stopping rule: sampling stops once `stopAt` (h) replicates have reached the observed score, or after
 * `planned` (R) replicates. Stopped at replicate l with h exceedances, p = max(h/l, (h + 1)/(R + 1)):
 * h/l is Besag & Clifford's valid p-value, and the second term, the smallest p-value the fixed test can
 * give with h or more exceedances, only makes it larger (still valid) and makes the decision at any
 * level up to the one h was derived from (`exceedancesToStop`) equal to the fixed test's on the same
 * replicates. Not stopped, p = (1 + exceedances)/(1 + replicates), the fixed test's value. With
 * `stopAt` null it is the fixed test throughout.
 */
export class SequentialPValue {
  atLeast = 0;
  completed = 0;

  constructor(
    readonly planned: number,
    readonly stopAt: number | null,
  ) {}

  /** True once the stopping rule has fired: later replicates are not needed (and not counted). */
  get stopped(): boolean {
    return this.stopAt !== null && this.atLeast >= this.stopAt;
  }

  /** Count one replicate's outcome; ignored once stopped. */
  record(reached: boolean): void {
    if (this.stopped) return;
    this.completed++;
    if (reached) this.atLeast++;
  }

  /** The p-value from the replicates counted; null when none was. */
  pValue(): number | null {
    if (this.completed === 0) return null;
    if (this.stopped) {
      const h = this.atLeast;
      return Math.min(1, Math.max(h / this.completed, (h + 1) / (this.planned + 1)));
    }
    return monteCarloPValue(this.atLeast, this.completed);
  }
}

/** The `sequentialLevel` option of the detectors that use `SequentialPValue`. */
export const sequentialLevelOption = {
  type: 'number',
  exclusiveMinimum: 0,
  maximum: 1,
  default: 0.05,
  description:
    'The highest level at which the sequential test decides exactly as the fixed test; above it its p-values are valid but coarser.',
} as const;
