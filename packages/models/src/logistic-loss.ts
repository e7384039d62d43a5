import type { SparseRows } from './encoder.js';
import type { TwiceDifferentiableObjective } from './objective.js';

export interface LogisticData {
  /** Encoded rows, one (column, value) entry per raw attribute. */
  readonly rows: SparseRows;
  readonly n: number;
  /** Entries per row (the raw attribute count). */
  readonly d: number;
  /** Encoded width. */
  readonly p: number;
  readonly y: Int32Array;
  /** Sample weights, or null for all 1. */
  readonly weights: Float64Array | null;
  readonly nClasses: number;
}

/** Number of coefficient rows: 1 for a binary model (class 1 against class 0), else one per class. */
export function coefficientRows(nClasses: number): number {
  return nClasses === 2 ? 1 : nClasses;
}

/** log(1 + e^t) without overflow. */
export function softplus(t: number): number {
  return t > 0 ? t + Math.log1p(Math.exp(-t)) : Math.log1p(Math.exp(t));
}

export function sigmoid(t: number): number {
  if (t >= 0) return 1 / (1 + Math.exp(-t));
  const e = Math.exp(t);
  return e / (1 + e);
}

/**
 * The penalised logistic loss, divided by the total sample weight S:
 *
 *   f(W, b) = (1/S) · [ Σᵢ wᵢ · (−log P(yᵢ | xᵢ)) + (l2/2) · ‖W‖² ]
 *
 * with P the logistic (binary) or softmax (multinomial) model; intercepts b are not penalised.
 * Parameters: the coefficient rows W (rows x p, row-major) followed by the intercepts b (rows).
 */
export class LogisticLoss implements TwiceDifferentiableObjective {
  readonly size: number;
  private readonly rowsOut: number;
  private readonly invS: number;
  private readonly eta: Float64Array;
  private readonly prob: Float64Array;

  constructor(
    private readonly data: LogisticData,
    private readonly l2: number,
    totalWeight: number,
  ) {
    this.rowsOut = coefficientRows(data.nClasses);
    this.size = this.rowsOut * (data.p + 1);
    this.invS = 1 / totalWeight;
    this.eta = new Float64Array(data.nClasses);
    this.prob = new Float64Array(data.nClasses);
  }

  value(theta: Float64Array): number {
    return this.evaluate(theta, null, null);
  }

  valueAndGradient(theta: Float64Array, grad: Float64Array): number {
    return this.evaluate(theta, grad, null);
  }

  /**
   * Also the Hessian. For the multinomial model, shifting every intercept by the same amount changes
   * nothing, so H is singular along u = (1, ..., 1)/√K on the intercepts; the gradient is always
   * orthogonal to u, so adding u·uᵀ to H leaves the Newton step unchanged and makes H invertible.
   */
  valueGradientHessian(theta: Float64Array, grad: Float64Array, hess: Float64Array): number {
    const f = this.evaluate(theta, grad, hess);
    const K = this.data.nClasses;
    if (K > 2) {
      const m = this.size;
      const b0 = this.rowsOut * this.data.p;
      for (let k = 0; k < K; k++) for (let l = 0; l < K; l++) hess[(b0 + k) * m + b0 + l]! += 1 / K;
    }
    return f;
  }

  private evaluate(theta: Float64Array, grad: Float64Array | null, hess: Float64Array | null): number {
    const { n, d, p, y, weights, nClasses: K } = this.data;
    const { index, value } = this.data.rows;
    const R = this.rowsOut;
    const m = this.size;
    const b0 = R * p;
    if (grad) grad.fill(0);
    if (hess) hess.fill(0);
    let loss = 0;
    if (K === 2) {
      const b = theta[b0]!;
      for (let i = 0; i < n; i++) {
        const wi = weights ? weights[i]! : 1;
        if (wi === 0) continue;
        const base = i * d;
        let eta = b;
        for (let j = 0; j < d; j++) eta += theta[index[base + j]!]! * value[base + j]!;
        const yi = y[i]!;
        // softplus(eta) and sigmoid(eta) from one exponential, each exactly as its own function computes it.
        const e = Math.exp(-Math.abs(eta));
        loss += wi * ((eta > 0 ? eta : 0) + Math.log1p(e) - yi * eta);
        if (!grad) continue;
        const pr = eta >= 0 ? 1 / (1 + e) : e / (1 + e);
        const r = wi * (pr - yi);
        for (let j = 0; j < d; j++) grad[index[base + j]!]! += r * value[base + j]!;
        grad[b0]! += r;
        if (!hess) continue;
        // The lower triangle only (the encoder gives attribute j's columns before attribute j + 1's,
        // and the intercept is last); the upper one is mirrored from it below.
        const h = wi * pr * (1 - pr);
        for (let a = 0; a < d; a++) {
          const va = h * value[base + a]!;
          const row = index[base + a]! * m;
          for (let c = 0; c <= a; c++) hess[row + index[base + c]!]! += va * value[base + c]!;
        }
        const row = b0 * m;
        for (let c = 0; c < d; c++) hess[row + index[base + c]!]! += h * value[base + c]!;
        hess[row + b0]! += h;
      }
      if (hess) mirrorLower(hess, m);
    } else {
      const eta = this.eta;
      const prob = this.prob;
      for (let i = 0; i < n; i++) {
        const wi = weights ? weights[i]! : 1;
        if (wi === 0) continue;
        const base = i * d;
        let top = Number.NEGATIVE_INFINITY;
        for (let k = 0; k < K; k++) {
          let e = theta[b0 + k]!;
          const wk = k * p;
          for (let j = 0; j < d; j++) e += theta[wk + index[base + j]!]! * value[base + j]!;
          eta[k] = e;
          if (e > top) top = e;
        }
        let sum = 0;
        for (let k = 0; k < K; k++) sum += prob[k] = Math.exp(eta[k]! - top);
        const yi = y[i]!;
        loss += wi * (top + Math.log(sum) - eta[yi]!);
        if (!grad) continue;
        for (let k = 0; k < K; k++) prob[k] = prob[k]! / sum;
        for (let k = 0; k < K; k++) {
          const r = wi * (prob[k]! - (k === yi ? 1 : 0));
          const wk = k * p;
          for (let j = 0; j < d; j++) grad[wk + index[base + j]!]! += r * value[base + j]!;
          grad[b0 + k]! += r;
        }
        if (!hess) continue;
        for (let k = 0; k < K; k++) {
          for (let l = 0; l < K; l++) {
            const h = wi * prob[k]! * ((k === l ? 1 : 0) - prob[l]!);
            if (h === 0) continue;
            for (let a = 0; a <= d; a++) {
              const ca = a < d ? k * p + index[base + a]! : b0 + k;
              const va = h * (a < d ? value[base + a]! : 1);
              const row = ca * m;
              const lp = l * p;
              for (let c = 0; c < d; c++) hess[row + lp + index[base + c]!]! += va * value[base + c]!;
              hess[row + b0 + l]! += va;
            }
          }
        }
      }
    }
    let penalty = 0;
    for (let c = 0; c < b0; c++) penalty += theta[c]! * theta[c]!;
    const s = this.invS;
    if (grad) {
      for (let c = 0; c < b0; c++) grad[c] = (grad[c]! + this.l2 * theta[c]!) * s;
      for (let c = b0; c < m; c++) grad[c] = grad[c]! * s;
    }
    if (hess) {
      for (let c = 0; c < b0; c++) hess[c * m + c]! += this.l2;
      for (let c = 0; c < m * m; c++) hess[c] = hess[c]! * s;
    }
    return (loss + 0.5 * this.l2 * penalty) * s;
  }
}

/** Copy the lower triangle of the m x m row-major matrix onto its upper triangle. */
function mirrorLower(a: Float64Array, m: number): void {
  for (let i = 0; i < m; i++) for (let j = i + 1; j < m; j++) a[i * m + j] = a[j * m + i]!;
}
