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

/**
 * The binary case of `LogisticLoss`, laid out for speed with the same bits. Only the rows of positive
 * weight are kept, and rows with the same encoded inputs share one pattern: its linear score, the
 * exponential and logarithm of the loss and its probability are computed once per pattern and
 * evaluation (the same operations on the same inputs give the same bits), and consecutive rows of
 * one pattern (the two copies of a row in a weighted two-label fit) update each gradient entry and
 * Hessian cell in one pass. Every sum is still accumulated row by row in row order with the same
 * terms as `LogisticLoss` (each gradient entry and Hessian cell receives its terms from one attribute,
 * or one pair of attributes), so every result is identical to its row-by-row loops; only the order
 * in which a row updates different cells changes. One-hot attributes (every value 1) skip the
 * products by 1, and a one-hot column's Hessian cell with the intercept, which receives the same terms
 * as its diagonal cell, is copied from it.
 *
 * `valueAndGradient` keeps each row's curvature wᵢ·pᵢ·(1 − pᵢ); `hessian` builds the Hessian from
 * it, so that a solver computes the Hessian only at the points where it takes a step.
 */
export class BinaryLogisticLoss {
  readonly size: number;
  private readonly d: number;
  /** Per live row (positive weight, in row order), its pattern, weight (null: all 1) and label. */
  private readonly pattern: Int32Array;
  private readonly w: Float64Array | null;
  private readonly y: Int32Array;
  /** End (exclusive) of each run of consecutive live rows with one pattern. */
  private readonly runEnd: Int32Array;
  /** Per pattern, its d (column, value) entries. */
  private readonly patIndex: Int32Array;
  private readonly patValue: Float64Array;
  /** Per pattern, the columns of its one-hot attributes (in attribute order), and those times `size`. */
  private readonly unitCols: Int32Array;
  private readonly unitRows: Int32Array;
  private readonly units: number;
  /** Attribute pairs (a ≥ c) with a value other than 1, flattened. */
  private readonly generalPairs: Int32Array;
  /** Attributes whose values are not all 1. */
  private readonly general: Int32Array;
  /** Per pattern at the last evaluation: η, e^(−|η|), log1p of it, and the probability. */
  private readonly eta: Float64Array;
  private readonly expo: Float64Array;
  private readonly log1pExpo: Float64Array;
  private readonly prob: Float64Array;
  private readonly resid: Float64Array;
  /** wᵢ·pᵢ·(1 − pᵢ) per live row at the point of the last `valueAndGradient`. */
  private readonly curvature: Float64Array;
  /** Columns of one-hot attributes seen in the live rows. */
  private readonly unitColumns: Int32Array;
  private readonly b0: number;
  private readonly invS: number;

  constructor(
    data: LogisticData,
    private readonly l2: number,
    totalWeight: number,
  ) {
    const { n, d, p, weights } = data;
    const { index, value } = data.rows;
    this.size = p + 1;
    this.b0 = p;
    this.d = d;
    this.invS = 1 / totalWeight;
    let live = 0;
    for (let i = 0; i < n; i++) if (weights?.[i] !== 0) live++;
    const rowOf = new Int32Array(live);
    for (let i = 0, r = 0; i < n; i++) if (weights?.[i] !== 0) rowOf[r++] = i;
    const { pattern, first, runEnd } = patterns(index, value, d, rowOf);
    this.pattern = pattern;
    this.runEnd = runEnd;
    const P = first.length;
    const y = new Int32Array(live);
    for (let r = 0; r < live; r++) y[r] = data.y[rowOf[r]!]!;
    this.y = y;
    this.w = null;
    if (weights) {
      const w = new Float64Array(live);
      for (let r = 0; r < live; r++) w[r] = weights[rowOf[r]!]!;
      this.w = w;
    }
    const patIndex = new Int32Array(P * d);
    const patValue = new Float64Array(P * d);
    this.patIndex = patIndex;
    this.patValue = patValue;
    const unitAttr = new Uint8Array(d).fill(1);
    for (let q = 0; q < P; q++) {
      const at = first[q]! * d;
      for (let j = 0; j < d; j++) {
        patIndex[q * d + j] = index[at + j]!;
        const v = value[at + j]!;
        patValue[q * d + j] = v;
        if (v !== 1) unitAttr[j] = 0;
      }
    }
    const units: number[] = [];
    const general: number[] = [];
    for (let j = 0; j < d; j++) (unitAttr[j] ? units : general).push(j);
    this.units = units.length;
    this.general = Int32Array.from(general);
    const pairs: number[] = [];
    for (let a = 0; a < d; a++)
      for (let c = 0; c <= a; c++) if (!unitAttr[a] || !unitAttr[c]) pairs.push(a, c);
    this.generalPairs = Int32Array.from(pairs);
    const m = this.size;
    const du = units.length;
    const unitCols = new Int32Array(P * du);
    const unitRows = new Int32Array(P * du);
    this.unitCols = unitCols;
    this.unitRows = unitRows;
    const unitList = Int32Array.from(units);
    const seen = new Uint8Array(p);
    for (let q = 0; q < P; q++) {
      for (let k = 0; k < du; k++) {
        const col = patIndex[q * d + unitList[k]!]!;
        unitCols[q * du + k] = col;
        unitRows[q * du + k] = col * m;
        seen[col] = 1;
      }
    }
    const unitColumns: number[] = [];
    for (let c = 0; c < p; c++) if (seen[c]) unitColumns.push(c);
    this.unitColumns = Int32Array.from(unitColumns);
    this.eta = new Float64Array(P);
    this.expo = new Float64Array(P);
    this.log1pExpo = new Float64Array(P);
    this.prob = new Float64Array(P);
    this.resid = new Float64Array(live);
    this.curvature = new Float64Array(live);
  }

  /** The penalised loss over the live rows; with `grad`, also the gradient and each row's curvature. */
  private evaluate(theta: Float64Array, grad: Float64Array | null): number {
    const { patIndex, patValue, eta, expo, log1pExpo, prob, d, b0 } = this;
    const P = eta.length;
    const b = theta[b0]!;
    for (let q = 0; q < P; q++) {
      const base = q * d;
      let t = b;
      for (let j = 0; j < d; j++) t += theta[patIndex[base + j]!]! * patValue[base + j]!;
      const e = Math.exp(-Math.abs(t));
      eta[q] = t;
      expo[q] = e;
      log1pExpo[q] = Math.log1p(e);
      if (grad) prob[q] = t >= 0 ? 1 / (1 + e) : e / (1 + e);
    }
    const { pattern, w, y, resid, curvature } = this;
    const live = pattern.length;
    let loss = 0;
    let g0 = 0;
    for (let r = 0; r < live; r++) {
      const wi = w ? w[r]! : 1;
      const q = pattern[r]!;
      const t = eta[q]!;
      const yi = y[r]!;
      loss += wi * (Math.max(t, 0) + log1pExpo[q]! - yi * t);
      if (!grad) continue;
      const pr = prob[q]!;
      const res = wi * (pr - yi);
      resid[r] = res;
      g0 += res;
      curvature[r] = wi * pr * (1 - pr);
    }
    let penalty = 0;
    for (let c = 0; c < b0; c++) penalty += theta[c]! * theta[c]!;
    if (grad) {
      grad.fill(0);
      const { runEnd } = this;
      for (let k = 0, r0 = 0; k < runEnd.length; k++) {
        const r1 = runEnd[k]!;
        const base = pattern[r0]! * d;
        for (let j = 0; j < d; j++) {
          const col = patIndex[base + j]!;
          const v = patValue[base + j]!;
          let g = grad[col]!;
          for (let r = r0; r < r1; r++) g += resid[r]! * v;
          grad[col] = g;
        }
        r0 = r1;
      }
      const s = this.invS;
      for (let c = 0; c < b0; c++) grad[c] = (grad[c]! + this.l2 * theta[c]!) * s;
      grad[b0] = g0 * s;
    }
    return (loss + 0.5 * this.l2 * penalty) * this.invS;
  }

  value(theta: Float64Array): number {
    return this.evaluate(theta, null);
  }

  /** f(theta) and its gradient; keeps each row's curvature for `hessian`. */
  valueAndGradient(theta: Float64Array, grad: Float64Array): number {
    return this.evaluate(theta, grad);
  }

  /** The Hessian at the point of the last `valueAndGradient` (size x size, row-major, symmetric). */
  hessian(hess: Float64Array): void {
    const { curvature: h, b0, d, patIndex, patValue, unitCols, unitRows, generalPairs, general } = this;
    const { pattern, runEnd } = this;
    const m = this.size;
    const du = this.units;
    hess.fill(0);
    // The lower triangle, as LogisticLoss fills it: cell (column of a, column of c) for c ≤ a gets
    // (h·value_a)·value_c from each row, which is h for two one-hot attributes.
    for (let k = 0, r0 = 0; k < runEnd.length; k++) {
      const r1 = runEnd[k]!;
      const base = pattern[r0]! * du;
      if (r1 === r0 + 1) {
        const hr = h[r0]!;
        for (let a = 0; a < du; a++) {
          const row = unitRows[base + a]!;
          for (let c = 0; c <= a; c++) hess[row + unitCols[base + c]!]! += hr;
        }
      } else {
        for (let a = 0; a < du; a++) {
          const row = unitRows[base + a]!;
          for (let c = 0; c <= a; c++) {
            const cell = row + unitCols[base + c]!;
            let v = hess[cell]!;
            for (let r = r0; r < r1; r++) v += h[r]!;
            hess[cell] = v;
          }
        }
      }
      r0 = r1;
    }
    const row = b0 * m;
    if (generalPairs.length > 0) {
      for (let k = 0, r0 = 0; k < runEnd.length; k++) {
        const r1 = runEnd[k]!;
        const base = pattern[r0]! * d;
        for (let q = 0; q < generalPairs.length; q += 2) {
          const a = base + generalPairs[q]!;
          const c = base + generalPairs[q + 1]!;
          const cell = patIndex[a]! * m + patIndex[c]!;
          const va = patValue[a]!;
          const vc = patValue[c]!;
          let v = hess[cell]!;
          for (let r = r0; r < r1; r++) v += h[r]! * va * vc;
          hess[cell] = v;
        }
        // The intercept's row for these attributes: h·value.
        for (const j of general) {
          const cell = row + patIndex[base + j]!;
          const vj = patValue[base + j]!;
          let v = hess[cell]!;
          for (let r = r0; r < r1; r++) v += h[r]! * vj;
          hess[cell] = v;
        }
        r0 = r1;
      }
    }
    // The intercept's row for one-hot columns: the diagonal's terms; then Σ h.
    for (const c of this.unitColumns) hess[row + c] = hess[c * m + c]!;
    let hb = 0;
    for (let r = 0; r < h.length; r++) hb += h[r]!;
    hess[row + b0] = hb;
    mirrorLower(hess, m);
    for (let c = 0; c < b0; c++) hess[c * m + c]! += this.l2;
    const s = this.invS;
    for (let c = 0; c < m * m; c++) hess[c] = hess[c]! * s;
  }
}

/**
 * Rows (`rows`, indices into the d-entry encoded rows) grouped by identical entries: each row's
 * pattern number (in order of first appearance), each pattern's first row (a position in `rows`),
 * and the ends of the runs of consecutive rows with one pattern.
 */
function patterns(
  index: Int32Array,
  value: Float64Array,
  d: number,
  rows: Int32Array,
): { pattern: Int32Array; first: Int32Array; runEnd: Int32Array } {
  const live = rows.length;
  const pattern = new Int32Array(live);
  const first: number[] = [];
  const runEnd: number[] = [];
  let slots = 16;
  while (slots < 2 * live) slots *= 2;
  const table = new Int32Array(slots).fill(-1);
  const bits = new Int32Array(value.buffer, value.byteOffset, value.length * 2);
  const same = (r: number, s: number) => {
    const a = rows[r]! * d;
    const b = rows[s]! * d;
    for (let j = 0; j < d; j++) {
      if (index[a + j] !== index[b + j]) return false;
      if (bits[2 * (a + j)] !== bits[2 * (b + j)] || bits[2 * (a + j) + 1] !== bits[2 * (b + j) + 1]) {
        return false;
      }
    }
    return true;
  };
  for (let r = 0; r < live; r++) {
    if (r > 0 && same(r, r - 1)) {
      pattern[r] = pattern[r - 1]!;
      runEnd[runEnd.length - 1] = r + 1;
      continue;
    }
    runEnd.push(r + 1);
    const a = rows[r]! * d;
    let hash = 0x811c9dc5;
    for (let j = 0; j < d; j++) {
      hash = Math.imul(hash ^ index[a + j]!, 0x01000193);
      hash = Math.imul(hash ^ bits[2 * (a + j)]!, 0x01000193);
      hash = Math.imul(hash ^ bits[2 * (a + j) + 1]!, 0x01000193);
    }
    let slot = (hash >>> 0) & (slots - 1);
    for (;;) {
      const q = table[slot]!;
      if (q === -1) {
        table[slot] = first.length;
        pattern[r] = first.length;
        first.push(r);
        break;
      }
      if (same(r, first[q]!)) {
        pattern[r] = q;
        break;
      }
      slot = (slot + 1) & (slots - 1);
    }
  }
  const firstRows = new Int32Array(first.length);
  for (let q = 0; q < first.length; q++) firstRows[q] = rows[first[q]!]!;
  return { pattern, first: firstRows, runEnd: Int32Array.from(runEnd) };
}
