import type { DifferentiableClassifier, ProtectedVariants } from '@fb/core';

/** Which gradient drives the search: ADF's loss gradient or EIDIG's output gradient. */
export type GradientKind = 'loss' | 'output';

/** Probabilities are kept this far from 0 and 1 when dividing by them. */
const P_FLOOR = 1e-12;

/**
 * Gradients of an input and of its twin, the protected variant ADF pairs it with: the first variant
 * the model decides differently, else the variant whose score differs most (the original's rule).
 *
 * Both gradients are oriented so that a step along +sign moves the input towards the decision
 * boundary: for `loss`, the gradient of the cross-entropy against the input's own predicted class
 * (ADF); for `output`, the gradient of the score, negated for inputs predicted 1 (EIDIG's
 * convention, whose step is along -sign of the unnegated one). A binary model predicts 1 when its
 * score, the probability of class 1, is at least 0.5.
 */
export class TwinGradients {
  readonly d: number;
  /** Rows whose gradient was asked for so far (inputs and all their variants). */
  gradientRows = 0;
  private readonly model: DifferentiableClassifier;
  private readonly variants: ProtectedVariants;
  private readonly kind: GradientKind;

  constructor(model: DifferentiableClassifier, variants: ProtectedVariants, kind: GradientKind) {
    this.model = model;
    this.variants = variants;
    this.kind = kind;
    this.d = variants.d;
  }

  /**
   * For the m inputs in `x` (m x d), write the input's oriented gradient into `gx` and its twin's into
   * `gt` (both m x d), with one gradient call for the inputs and all their variants.
   */
  compute(x: Float64Array, m: number, gx: Float64Array, gt: Float64Array): void {
    const { d } = this;
    const v = this.variants.perInput;
    const block = v + 1;
    const rows = new Float64Array(m * block * d);
    for (let i = 0; i < m; i++) {
      rows.set(x.subarray(i * d, (i + 1) * d), i * block * d);
      this.variants.write(x, i * d, rows, (i * block + 1) * d);
    }
    const { score, gradient } = this.model.scoreGradient(rows);
    this.gradientRows += m * block;
    for (let i = 0; i < m; i++) {
      const r = i * block;
      const s = score[r]!;
      const label = s >= 0.5;
      let twin = -1;
      let best = -1;
      for (let k = 1; k <= v; k++) {
        const t = score[r + k]!;
        if (t >= 0.5 !== label) {
          twin = r + k;
          break;
        }
        const diff = Math.abs(t - s);
        if (diff > best) {
          best = diff;
          twin = r + k;
        }
      }
      this.orient(score, gradient, r, gx, i * d);
      // An input without variants (no protected value to change) is its own twin.
      this.orient(score, gradient, twin < 0 ? r : twin, gt, i * d);
    }
  }

  private orient(score: Float64Array, gradient: Float64Array, row: number, out: Float64Array, off: number) {
    const { d } = this;
    const s = score[row]!;
    let factor: number;
    if (this.kind === 'output') factor = s >= 0.5 ? -1 : 1;
    else factor = s >= 0.5 ? -1 / Math.max(s, P_FLOOR) : 1 / Math.max(1 - s, P_FLOOR);
    for (let j = 0; j < d; j++) out[off + j] = factor * gradient[row * d + j]!;
  }
}
