import type { Rng } from '@fb/core';

/** Rows with a fixed number of (column, value) entries each, the layout `FeatureEncoder.encodeSparse` returns. */
export interface SparseDesign {
  readonly index: Int32Array;
  readonly value: Float64Array;
  readonly n: number;
  /** Entries per row (when `start` is absent). */
  readonly perRow: number;
  /** Rows of any length: row i holds entries start[i]..start[i + 1] (n + 1 offsets). */
  readonly start?: Int32Array;
  /** Number of columns. */
  readonly width: number;
}

/** `hinge`: max(0, 1 − m) (LIBLINEAR's L1-loss SVM); `squared-hinge`: max(0, 1 − m)² (L2-loss, LinearSVC's default). */
export type SvmLoss = 'hinge' | 'squared-hinge';

/** A hinge-loss SVM to solve: rows, their signs sᵢ = ±1 and costs Cᵢ, the tolerance, the most passes. */
export interface HingeProblem {
  readonly design: SparseDesign;
  /** The loss per row; `hinge` when absent. */
  readonly loss?: SvmLoss;
  readonly sign: Int8Array;
  readonly cost: Float64Array;
  readonly tol: number;
  readonly maxIter: number;
  readonly rng: Rng;
}

export interface HingeResult {
  readonly weights: Float64Array;
  readonly bias: number;
  /** Passes over the rows made, and whether the projected-gradient gap fell below tol. */
  readonly iterations: number;
  readonly converged: boolean;
  /** Whether the caller ended the solve before it converged or ran out of passes (`solveHingeDualAsync`). */
  readonly stopped: boolean;
}

/**
 * L2-regularised hinge-loss (L1-loss) linear SVM, min ½‖w‖² + ½b² + Σ Cᵢ max(0, 1 − sᵢ(w·xᵢ + b)) with
 * sᵢ = ±1, or with `loss: 'squared-hinge'` the L2-loss SVM, min ½‖w‖² + ½b² + Σ Cᵢ max(0, 1 − sᵢ(w·xᵢ + b))²
 * (its dual adds αᵢ/(2Cᵢ) to each gradient and has no upper bound on αᵢ), by dual coordinate descent with shrinking (Hsieh, Chang, Lin, Keerthi & Sundararajan, ICML
 * 2008, Algorithm 3, as in LIBLINEAR): the bias is an extra constant feature, regularised as in LIBLINEAR.
 * Active rows are visited in a fresh random order each pass; it stops once the spread of projected
 * gradients over a pass on all rows is at most tol. Rows with Cᵢ = 0 are ignored.
 */
export function solveHingeDual(problem: HingeProblem): HingeResult {
  const solver = new HingeDualSolver(problem);
  while (solver.pass());
  return solver.result(false);
}

/**
 * `solveHingeDual` that awaits `between()` after every pass that did not converge, and stops there when
 * it resolves to true: a caller's chance to yield to the event loop (an abort signal, a timer) and to
 * end the solve.
 */
export async function solveHingeDualAsync(
  problem: HingeProblem,
  between: () => Promise<boolean>,
): Promise<HingeResult> {
  const solver = new HingeDualSolver(problem);
  while (solver.pass()) if (await between()) return solver.result(true);
  return solver.result(false);
}

/** The solver's state between passes (see `solveHingeDual`). */
class HingeDualSolver {
  private readonly w: Float64Array;
  private b = 0;
  private readonly alpha: Float64Array;
  private readonly qii: Float64Array;
  /** Dual diagonal shift Dᵢ (0 for the hinge, 1/(2Cᵢ) for the squared hinge) and upper bound Uᵢ of αᵢ. */
  private readonly diag: Float64Array;
  private readonly upper: Float64Array;
  private readonly order: Int32Array;
  /** Row i's entries: start[i]..start[i + 1]. */
  private readonly start: Int32Array;
  private readonly all: number;
  private active: number;
  // Bounds of the projected gradient on the previous pass: a row at a bound whose gradient lies beyond
  // them is unlikely to move and is shrunk away until the final check.
  private pgMaxOld = Number.POSITIVE_INFINITY;
  private pgMinOld = Number.NEGATIVE_INFINITY;
  /** The projected gradients' range over the last pass. */
  private pgMax = Number.NEGATIVE_INFINITY;
  private pgMin = Number.POSITIVE_INFINITY;
  private iterations = 0;
  private converged = false;

  private readonly design: SparseDesign;
  private readonly sign: Int8Array;
  private readonly tol: number;
  private readonly maxIter: number;
  private readonly rng: Rng;

  constructor(problem: HingeProblem) {
    const { design, sign, cost } = problem;
    this.design = design;
    this.sign = sign;
    this.tol = problem.tol;
    this.maxIter = problem.maxIter;
    this.rng = problem.rng;
    const { value, n, perRow, width } = design;
    this.start = design.start ?? Int32Array.from({ length: n + 1 }, (_, i) => i * perRow);
    const start = this.start;
    this.w = new Float64Array(width);
    this.alpha = new Float64Array(n);
    this.qii = new Float64Array(n);
    this.diag = new Float64Array(n);
    this.upper = new Float64Array(n);
    const squared = problem.loss === 'squared-hinge';
    const rows: number[] = [];
    for (let i = 0; i < n; i++) {
      if (!(cost[i]! > 0)) continue;
      this.diag[i] = squared ? 0.5 / cost[i]! : 0;
      this.upper[i] = squared ? Number.POSITIVE_INFINITY : cost[i]!;
      let s = 1 + this.diag[i]!;
      for (let e = start[i]!; e < start[i + 1]!; e++) s += value[e]! * value[e]!;
      this.qii[i] = s;
      rows.push(i);
    }
    this.order = Int32Array.from(rows);
    this.all = this.order.length;
    this.active = this.all;
  }

  /**
   * One pass over the active rows, followed by one over every row whenever the shrunk rows converge;
   * false once the solve is over: converged, or out of passes.
   */
  pass(): boolean {
    for (;;) {
      if (this.converged || this.iterations >= this.maxIter) return false;
      this.iterations++;
      this.sweep();
      const { pgMax, pgMin } = this;
      if (this.active === 0 || pgMax - pgMin <= this.tol) {
        if (this.active === this.all) {
          this.converged = true;
          return false;
        }
        // Converged on the shrunk problem: check once more on every row.
        this.active = this.all;
        this.pgMaxOld = Number.POSITIVE_INFINITY;
        this.pgMinOld = Number.NEGATIVE_INFINITY;
        continue;
      }
      this.pgMaxOld = pgMax > 0 ? pgMax : Number.POSITIVE_INFINITY;
      this.pgMinOld = pgMin < 0 ? pgMin : Number.NEGATIVE_INFINITY;
      return this.iterations < this.maxIter;
    }
  }

  /** The coordinate steps of one pass, in a fresh random order, and the projected gradients' range. */
  private sweep(): void {
    const { index, value } = this.design;
    const { sign, upper, diag, w, alpha, qii, order, start, pgMaxOld, pgMinOld } = this;
    let { b, active } = this;
    this.rng.shuffle(order.subarray(0, active));
    let pgMax = Number.NEGATIVE_INFINITY;
    let pgMin = Number.POSITIVE_INFINITY;
    for (let r = 0; r < active; r++) {
      const i = order[r]!;
      const si = sign[i]!;
      const base = start[i]!;
      const end = start[i + 1]!;
      let margin = b;
      for (let e = base; e < end; e++) margin += w[index[e]!]! * value[e]!;
      const a = alpha[i]!;
      const g = si * margin - 1 + diag[i]! * a;
      const c = upper[i]!;
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
      for (let e = base; e < end; e++) w[index[e]!]! += step * value[e]!;
      b += step;
    }
    this.b = b;
    this.active = active;
    this.pgMax = pgMax;
    this.pgMin = pgMin;
  }

  result(stopped: boolean): HingeResult {
    const { w: weights, b: bias, iterations, converged } = this;
    return { weights, bias, iterations, converged, stopped };
  }
}
