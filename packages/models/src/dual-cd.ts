import type { Rng } from '@fb/core';

/** Rows with a fixed number of (column, value) entries each, the layout `FeatureEncoder.encodeSparse` returns. */
export interface SparseDesign {
  readonly index: Int32Array;
  readonly value: Float64Array;
  readonly n: number;
  /** Entries per row. */
  readonly perRow: number;
  /** Number of columns. */
  readonly width: number;
}

export interface HingeResult {
  readonly weights: Float64Array;
  readonly bias: number;
  /** Passes over the rows made, and whether the projected-gradient gap fell below tol. */
  readonly iterations: number;
  readonly converged: boolean;
  /** Whether `stop` ended the solve before it converged or ran out of passes. */
  readonly stopped: boolean;
}

/**
 * L2-regularised hinge-loss (L1-loss) linear SVM, min ½‖w‖² + ½b² + Σ Cᵢ max(0, 1 − sᵢ(w·xᵢ + b)) with
 * sᵢ = ±1, by dual coordinate descent with shrinking (Hsieh, Chang, Lin, Keerthi & Sundararajan, ICML
 * 2008, Algorithm 3, as in LIBLINEAR): the bias is an extra constant feature, regularised as in LIBLINEAR.
 * Active rows are visited in a fresh random order each pass; it stops once the spread of projected
 * gradients over a pass on all rows is at most tol. Rows with Cᵢ = 0 are ignored. `stop`, when given,
 * is asked after every pass that did not converge, and ends the solve there when it says so.
 */
export function solveHingeDual(
  design: SparseDesign,
  sign: Int8Array,
  cost: Float64Array,
  tol: number,
  maxIter: number,
  rng: Rng,
  stop?: () => boolean,
): HingeResult {
  const { index, value, n, perRow, width } = design;
  const w = new Float64Array(width);
  let b = 0;
  const alpha = new Float64Array(n);
  const qii = new Float64Array(n);
  const rows: number[] = [];
  for (let i = 0; i < n; i++) {
    if (!(cost[i]! > 0)) continue;
    let s = 1;
    for (let e = i * perRow; e < (i + 1) * perRow; e++) s += value[e]! * value[e]!;
    qii[i] = s;
    rows.push(i);
  }
  const order = Int32Array.from(rows);
  const all = order.length;
  let active = all;
  // Bounds of the projected gradient on the previous pass: a row at a bound whose gradient lies beyond
  // them is unlikely to move and is shrunk away until the final check.
  let pgMaxOld = Number.POSITIVE_INFINITY;
  let pgMinOld = Number.NEGATIVE_INFINITY;
  let iterations = 0;
  let converged = false;
  let stopped = false;
  while (iterations < maxIter) {
    iterations++;
    rng.shuffle(order.subarray(0, active));
    let pgMax = Number.NEGATIVE_INFINITY;
    let pgMin = Number.POSITIVE_INFINITY;
    for (let r = 0; r < active; r++) {
      const i = order[r]!;
      const si = sign[i]!;
      const base = i * perRow;
      let margin = b;
      for (let e = base; e < base + perRow; e++) margin += w[index[e]!]! * value[e]!;
      const g = si * margin - 1;
      const a = alpha[i]!;
      const c = cost[i]!;
      let pg = 0;
      if (a === 0) {
        if (g > pgMaxOld) {
          active--;
          order[r] = order[active]!;
          order[active] = i;
          r--;
          continue;
        }
        if (g < 0) pg = g;
      } else if (a === c) {
        if (g < pgMinOld) {
          active--;
          order[r] = order[active]!;
          order[active] = i;
          r--;
          continue;
        }
        if (g > 0) pg = g;
      } else pg = g;
      if (pg > pgMax) pgMax = pg;
      if (pg < pgMin) pgMin = pg;
      if (Math.abs(pg) <= 1e-12) continue;
      const next = Math.min(Math.max(a - g / qii[i]!, 0), c);
      const step = (next - a) * si;
      if (step === 0) continue;
      alpha[i] = next;
      for (let e = base; e < base + perRow; e++) w[index[e]!]! += step * value[e]!;
      b += step;
    }
    if (active === 0 || pgMax - pgMin <= tol) {
      if (active === all) {
        converged = true;
        break;
      }
      // Converged on the shrunk problem: check once more on every row.
      active = all;
      pgMaxOld = Number.POSITIVE_INFINITY;
      pgMinOld = Number.NEGATIVE_INFINITY;
      continue;
    }
    pgMaxOld = pgMax > 0 ? pgMax : Number.POSITIVE_INFINITY;
    pgMinOld = pgMin < 0 ? pgMin : Number.NEGATIVE_INFINITY;
    if (stop?.() && iterations < maxIter) {
      stopped = true;
      break;
    }
  }
  return { weights: w, bias: b, iterations, converged, stopped };
}
