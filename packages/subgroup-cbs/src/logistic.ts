import type { Schema } from '@fb/core';
import {
  CellLists,
  type LazyHessianObjective,
  minimiseNewton,
  NEWTON_MAX_PARAMETERS,
  type NewtonWork,
  newtonWork,
} from '@fb/models';

/**
 * The binary logistic fits of CBS, built for its resamples: the same arithmetic as `@fb/models`'
 * `fitLogisticRegression` (default options: one-hot categorical attributes, other attributes
 * standardised with the fit's weighted moments, damped Newton with a Cholesky solve, tol 1e-6, at most
 * 100 steps), so the same bits, with everything that depends only on the design prepared once: each
 * row's encoded columns, its pattern (rows with the same inputs), and the Hessian cells its one-hot
 * attributes add to. A fit then costs its Newton steps and one pass over its rows; no data set,
 * encoder or model object is built. Every sum keeps the row order of `fitLogisticRegression`'s loops.
 *
 * `fit` returns null when `fitLogisticRegression` would not take this path (a weight that is not
 * finite or is negative, a zero total weight, one label only, or more parameters than Newton takes):
 * the caller then fits with `@fb/models`, which fits or throws as before.
 *
 * The solver is `@fb/models`' own `minimiseNewton` (with its arrays kept from fit to fit); the loss's
 * arithmetic repeats that of `@fb/models` (logistic-loss.ts) operation for operation on the rows'
 * patterns, since any other order of the same operations would give other bits. `test/logistic.test.ts`
 * checks the two against each other byte for byte; a change to either side must keep them equal.
 */

/** What starts a fit, and what a fit gives: the coefficients on the encoded columns and the intercept. */
export interface LogitCoefficients {
  readonly coefficients: Float64Array;
  readonly intercepts: Float64Array;
}

/**
 * The first point of the fits on every row with weight 1 from one warm start (the resamples'
 * propensity fits): per pattern its linear score, log1p(e^(−|η|)) and probability, and the Hessian,
 * none of which depends on the labels. Filled by the first such fit.
 */
interface StartPoint {
  warm: LogitCoefficients;
  l2: number;
  terms: { eta: Float64Array; log1pExpo: Float64Array; prob: Float64Array } | null;
  hess: Float64Array | null;
}

/** One fit's encoding of the standardised attributes (the categorical ones are fixed by the design). */
interface Encoding {
  /** Per attribute, its mean (0 for one-hot). */
  mean: Float64Array;
  /** Per attribute, 1/sd (0 for one-hot). */
  slope: Float64Array;
}

/**
 * A fit: its coefficients and encoding, and, for a fit on every row whose last evaluation was at its
 * final coefficients, every row's probability from that evaluation (the bits `probabilities` gives).
 */
interface DesignFit {
  coefficients: LogitCoefficients;
  encoding: Encoding;
  everyRow: Float64Array | null;
}

/** `fitLogisticRegression`'s stopping rule at its defaults. */
const STOPPING = { tol: 1e-6, maxIter: 100 };

/** A design's fixed part: the rows of X (and C), encoded as far as the design alone decides. */
export class DesignFitter {
  readonly n: number;
  readonly d: number;
  /** Encoded width p; the parameters are p coefficients and the intercept. */
  readonly p: number;
  private readonly m: number;
  private readonly x: Float64Array;
  /** Per attribute, 1 when one-hot (categorical). */
  private readonly oneHot: Uint8Array;
  /** Per row, its d encoded columns. */
  private readonly cols: Int32Array;
  /** The attributes that are standardised, and the (a, c) pairs with a >= c and one of them standardised. */
  private readonly general: Int32Array;
  private readonly generalPairs: Int32Array;
  /** One-hot columns (the intercept's Hessian row copies their diagonal cells). */
  private readonly unitColumns: Int32Array;
  /** Per pattern, its first row; per row, its pattern. */
  private readonly first: Int32Array;
  private readonly patternOf: Int32Array;
  /** The one-hot attributes: each pattern's pairs of them are its Hessian's one-hot cells. */
  private readonly units: Int32Array;
  /** Whether the fast path applies at all (codes in range, finite values, Newton's size). */
  readonly usable: boolean;
  // Work space of one fit, reused (a fit runs to its end before the next starts).
  private readonly stamp: Int32Array;
  private readonly local: Int32Array;
  private stampValue = 0;
  private loss?: FastLoss;
  private start: StartPoint | null = null;
  private byPattern?: Float64Array;
  /** The encoding of every row with weight 1: the same for every such fit (its moments use no label). */
  private wholeEncoding?: Encoding;

  constructor(schema: Schema, x: Float64Array, width: number) {
    const d = width;
    const n = x.length / d;
    this.n = n;
    this.d = d;
    this.x = x;
    const oneHot = new Uint8Array(d);
    const levels = new Int32Array(d);
    const offset = new Int32Array(d);
    let p = 0;
    schema.attributes.forEach((a, j) => {
      offset[j] = p;
      if (a.kind === 'categorical') {
        oneHot[j] = 1;
        levels[j] = a.categories!.length;
        p += levels[j]!;
      } else p += 1;
    });
    this.p = p;
    this.m = p + 1;
    this.oneHot = oneHot;
    let usable = this.m <= NEWTON_MAX_PARAMETERS;
    const cols = new Int32Array(n * d);
    for (let i = 0; i < n && usable; i++) {
      for (let j = 0; j < d; j++) {
        const v = x[i * d + j]!;
        if (!Number.isFinite(v)) usable = false;
        if (oneHot[j]) {
          const c = Math.round(v);
          if (!(c >= 0 && c < levels[j]!)) usable = false;
          cols[i * d + j] = offset[j]! + c;
        } else cols[i * d + j] = offset[j]!;
      }
    }
    this.usable = usable;
    this.cols = cols;
    const general: number[] = [];
    const units: number[] = [];
    for (let j = 0; j < d; j++) (oneHot[j] ? units : general).push(j);
    this.general = Int32Array.from(general);
    const pairs: number[] = [];
    for (let a = 0; a < d; a++) for (let c = 0; c <= a; c++) if (!oneHot[a] || !oneHot[c]) pairs.push(a, c);
    this.generalPairs = Int32Array.from(pairs);
    const unitColumns: number[] = [];
    for (const j of units) for (let c = 0; c < levels[j]!; c++) unitColumns.push(offset[j]! + c);
    this.unitColumns = Int32Array.from(unitColumns);
    const { pattern, first } = rowPatterns(x, n, d);
    this.patternOf = pattern;
    this.first = first;
    this.units = Int32Array.from(units);
    this.stamp = new Int32Array(first.length).fill(-1);
    this.local = new Int32Array(first.length);
  }

  /**
   * Fit on the rows `src[r]` of the design with labels `y[r]` and weights `w[r]` (null: all 1), from
   * `warm` (else from zero and the prior's intercept); null when `fitLogisticRegression` must fit it.
   */
  fit(
    src: Int32Array,
    y: Int32Array,
    w: Float64Array | null,
    l2: number,
    warm: LogitCoefficients | undefined,
    whole = false,
  ): DesignFit | null {
    if (!this.usable) return null;
    const rows = src.length;
    let total = rows;
    if (w !== null) {
      total = 0;
      for (let r = 0; r < rows; r++) {
        const v = w[r]!;
        if (!Number.isFinite(v) || v < 0) return null;
        total += v;
      }
      if (!(total > 0)) return null;
    }
    let w0 = 0;
    let w1 = 0;
    for (let r = 0; r < rows; r++) {
      const wr = w ? w[r]! : 1;
      if (y[r] === 1) w1 += wr;
      else w0 += wr;
    }
    if (!(w0 > 0 && w1 > 0)) return null;
    const everyRow = whole && w === null && rows === this.n;
    const encoding = everyRow ? (this.wholeEncoding ??= this.moments(src, w)) : this.moments(src, w);
    const { p } = this;
    const theta = new Float64Array(p + 1);
    theta[p] = Math.log(w1 / w0);
    if (warm !== undefined) {
      theta.set(warm.coefficients);
      theta.set(warm.intercepts, p);
    }
    this.loss ??= new FastLoss(this);
    const loss = this.loss;
    // On every row with weight 1 from one warm start, the first point's scores, probabilities and
    // Hessian do not depend on the labels: they are computed for the first such fit and reused.
    let start: StartPoint | null = null;
    if (whole && w === null && warm !== undefined && rows === this.n) {
      if (this.start?.warm !== warm || this.start.l2 !== l2)
        this.start = { warm, l2, terms: null, hess: null };
      start = this.start;
    }
    loss.reset(src, y, w, encoding, l2, total, start);
    minimiseNewton(loss, theta, STOPPING, loss.work);
    return {
      coefficients: { coefficients: theta.slice(0, p), intercepts: theta.slice(p) },
      encoding,
      everyRow: everyRow ? loss.everyRowAt(theta) : null,
    };
  }

  /** P(label 1) of the rows `rows` (null: every row) under a fit, as `predictProba` computes it. */
  probabilities(fit: DesignFit, rows: Int32Array | null): Float64Array {
    if (rows === null && fit.everyRow !== null) return fit.everyRow;
    const { coefficients, intercepts } = fit.coefficients;
    const count = rows === null ? this.n : rows.length;
    const out = new Float64Array(count);
    this.byPattern ??= new Float64Array(this.first.length);
    const { byPattern } = this;
    const { stamp, value } = this.nextStamp();
    const { d, x, cols, oneHot, patternOf } = this;
    const { mean, slope } = fit.encoding;
    const b = intercepts[0]!;
    for (let k = 0; k < count; k++) {
      const i = rows === null ? k : rows[k]!;
      const q = patternOf[i]!;
      if (stamp[q] !== value) {
        stamp[q] = value;
        let s = b;
        for (let j = 0; j < d; j++) {
          const v = oneHot[j] ? 1 : (x[i * d + j]! - mean[j]!) * slope[j]!;
          s += coefficients[cols[i * d + j]!]! * v;
        }
        byPattern[q] = sigmoid(s);
      }
      out[k] = byPattern[q]!;
    }
    return out;
  }

  /** The weighted mean and 1/sd of each standardised attribute over the fit's rows, as the encoder fits them. */
  private moments(src: Int32Array, w: Float64Array | null): Encoding {
    const { d, x } = this;
    const mean = new Float64Array(d);
    const slope = new Float64Array(d);
    for (const j of this.general) {
      let total = 0;
      let sum = 0;
      for (let r = 0; r < src.length; r++) {
        const wi = w ? w[r]! : 1;
        total += wi;
        sum += wi * x[src[r]! * d + j]!;
      }
      const mu = sum / total;
      let ss = 0;
      for (let r = 0; r < src.length; r++) {
        const dv = x[src[r]! * d + j]! - mu;
        ss += (w ? w[r]! : 1) * dv * dv;
      }
      const sd = Math.sqrt(ss / total);
      const constant = !(sd > 1e-12 * Math.max(1, Math.abs(mu)));
      mean[j] = mu;
      slope[j] = 1 / (constant ? 1 : sd);
    }
    return { mean, slope };
  }

  /**
   * A fresh mark for numbering one fit's patterns: `stamp[g] === value` when pattern g has its local
   * number `local[g]` in this fit.
   */
  nextStamp(): { stamp: Int32Array; value: number; local: Int32Array } {
    this.stampValue++;
    if (this.stampValue > 0x3fffffff) {
      this.stamp.fill(-1);
      this.stampValue = 1;
    }
    return { stamp: this.stamp, value: this.stampValue, local: this.local };
  }

  get shape() {
    return {
      m: this.m,
      x: this.x,
      cols: this.cols,
      oneHot: this.oneHot,
      general: this.general,
      generalPairs: this.generalPairs,
      unitColumns: this.unitColumns,
      first: this.first,
      patternOf: this.patternOf,
      units: this.units,
    };
  }
}

/** Rows with bitwise equal raw values share a pattern (numbered in order of first appearance). */
function rowPatterns(x: Float64Array, n: number, d: number): { pattern: Int32Array; first: Int32Array } {
  const pattern = new Int32Array(n);
  const first: number[] = [];
  let slots = 16;
  while (slots < 2 * n) slots *= 2;
  const table = new Int32Array(slots).fill(-1);
  const bits = new Int32Array(x.buffer, x.byteOffset, x.length * 2);
  const same = (a: number, b: number) => {
    for (let k = 2 * a * d, l = 2 * b * d, e = 2 * a * d + 2 * d; k < e; k++, l++)
      if (bits[k] !== bits[l]) return false;
    return true;
  };
  for (let i = 0; i < n; i++) {
    let hash = 0x811c9dc5;
    for (let k = 2 * i * d; k < 2 * i * d + 2 * d; k++) hash = Math.imul(hash ^ bits[k]!, 0x01000193);
    // Mixed down before the low bits pick a slot: a product carries bits only upwards, and values that
    // differ only in their high words (small integers, such as category codes, have a zero low word)
    // would otherwise share their low bits, and every row would probe one run of slots.
    hash = Math.imul(hash ^ (hash >>> 16), 0x85ebca6b);
    hash ^= hash >>> 13;
    let slot = (hash >>> 0) & (slots - 1);
    for (;;) {
      const q = table[slot]!;
      if (q === -1) {
        table[slot] = first.length;
        pattern[i] = first.length;
        first.push(i);
        break;
      }
      if (same(i, first[q]!)) {
        pattern[i] = q;
        break;
      }
      slot = (slot + 1) & (slots - 1);
    }
  }
  return { pattern, first: Int32Array.from(first) };
}

export function sigmoid(t: number): number {
  if (t >= 0) return 1 / (1 + Math.exp(-t));
  const e = Math.exp(t);
  return e / (1 + e);
}

/** Per design-wide pattern, the lower-triangle Hessian cells of its pairs of one-hot attributes (T each). */
function unitCells(design: DesignFitter, out: Int32Array): void {
  const { first, cols, units, m } = design.shape;
  const { d } = design;
  for (let q = 0, t = 0; q < first.length; q++) {
    const at = first[q]! * d;
    for (let a = 0; a < units.length; a++) {
      const row = cols[at + units[a]!]! * m;
      for (let c = 0; c <= a; c++) out[t++] = row + cols[at + units[c]!]!;
    }
  }
}

/**
 * `BinaryLogisticLoss` of `@fb/models` on one fit's rows: per pattern its linear score, exponential,
 * logarithm and probability; per live row (positive weight) its loss term, residual and curvature, in
 * row order; the gradient and the Hessian from the residuals and curvatures, each entry in row order
 * (the one-hot pairs' cells listed once per design-wide pattern, the other cells per fit's pattern). The
 * linear scores, the gradient and the Hessian, scattered additions that were most of a fit's time, run
 * on `@fb/models`' `CellLists` (WebAssembly, with the same operations in the same order).
 */
class FastLoss implements LazyHessianObjective {
  readonly size: number;
  private readonly d: number;
  private readonly b0: number;
  private invS = 1;
  private l2 = 0;
  /** Live rows and local patterns of this fit (the buffers below are longer). */
  private live = 0;
  private patterns = 0;
  /** Per live row: its local pattern, weight (null: 1) and label. */
  private pattern: Int32Array;
  private w: Float64Array | null = null;
  private wBuffer: Float64Array;
  private y: Int32Array;
  /**
   * Per live row its residual and its list of encoded columns (the gradient's terms), and its curvature
   * and its one-hot pairs' Hessian cells: views of `columns` and `cells` (see `reserve`).
   */
  private resid: Float64Array;
  private columnBase: Int32Array;
  private curvature: Float64Array;
  private cellBase: Int32Array;
  private pairBase: Int32Array;
  private readonly columns: CellLists;
  private readonly cells: CellLists;
  /**
   * Per local pattern, the Hessian's other cells: each pair of encoded columns with a standardised
   * attribute (its two values), each standardised column's intercept cell (its value and 1) and the
   * intercept's own cell (1 and 1), `pairT` entries.
   */
  private readonly pairs: CellLists;
  private readonly pairT: number;
  /** Per local pattern: its design-wide pattern, columns and encoded values. */
  private readonly global: Int32Array;
  private patIndex: Int32Array;
  private patValue: Float64Array;
  private readonly eta: Float64Array;
  private readonly log1pExpo: Float64Array;
  private readonly prob: Float64Array;
  private readonly T: number;
  private readonly general: Int32Array;
  private readonly generalPairs: Int32Array;
  private readonly unitColumns: Int32Array;
  /** The solver's work space. */
  readonly work: NewtonWork;
  /** The encoding of the fit on every row whose pattern columns and values `patIndex`/`patValue` hold. */
  private filledFor: Encoding | null = null;
  /** The point of the last evaluation with a gradient (whose probabilities `prob` holds), if any. */
  private readonly probAt: Float64Array;
  private probValid = false;
  /** The fit's label-free first point (null: none), and the evaluations and Hessians so far. */
  private start: StartPoint | null = null;
  private evaluations = 0;
  private hessians = 0;

  constructor(private readonly design: DesignFitter) {
    const shape = design.shape;
    const { d } = design;
    const P = shape.first.length;
    this.d = d;
    this.size = shape.m;
    this.b0 = design.p;
    const du = shape.units.length;
    this.T = (du * (du + 1)) / 2;
    this.cells = new CellLists({ lists: P, T: this.T, size: this.size * this.size, kind: 'unit' });
    unitCells(design, this.cells.index);
    this.columns = new CellLists({ lists: P, T: d, size: this.size, kind: 'scaled' });
    this.pairT = shape.generalPairs.length / 2 + shape.general.length + 1;
    this.pairs = new CellLists({ lists: P, T: this.pairT, size: this.size * this.size, kind: 'pairs' });
    this.general = shape.general;
    this.generalPairs = shape.generalPairs;
    this.unitColumns = shape.unitColumns;
    this.global = new Int32Array(P);
    this.patIndex = this.columns.index;
    this.patValue = this.columns.value;
    this.eta = new Float64Array(P);
    this.log1pExpo = new Float64Array(P);
    this.prob = new Float64Array(P);
    this.pattern = new Int32Array(0);
    this.wBuffer = new Float64Array(0);
    this.y = new Int32Array(0);
    this.resid = this.columns.weights;
    this.columnBase = this.columns.bases;
    this.curvature = this.cells.weights;
    this.cellBase = this.cells.bases;
    this.pairBase = this.pairs.bases;
    this.work = newtonWork(this.size);
    this.probAt = new Float64Array(this.size);
  }

  /** Room for k live rows in the lists' row arrays, whose views are then made again. */
  private reserve(k: number): void {
    this.columns.reserve(k);
    this.cells.reserve(k);
    this.pairs.reserve(k);
    this.resid = this.columns.weights;
    this.columnBase = this.columns.bases;
    this.patIndex = this.columns.index;
    this.patValue = this.columns.value;
    this.curvature = this.cells.weights;
    this.cellBase = this.cells.bases;
    this.pairBase = this.pairs.bases;
  }

  /** Set up the loss of one fit: its live rows (positive weight) in order and their patterns. */
  reset(
    src: Int32Array,
    y: Int32Array,
    w: Float64Array | null,
    encoding: Encoding,
    l2: number,
    total: number,
    start: StartPoint | null,
  ): void {
    const shape = this.design.shape;
    const { d } = this;
    this.start = start;
    this.probValid = false;
    this.evaluations = 0;
    this.hessians = 0;
    this.l2 = l2;
    this.invS = 1 / total;
    if (this.pattern.length < src.length) {
      const k = src.length;
      this.pattern = new Int32Array(k);
      this.wBuffer = new Float64Array(k);
      this.y = new Int32Array(k);
      this.reserve(k);
    }
    const { pattern, y: yl, global, cellBase, columnBase, pairBase, T, pairT } = this;
    const wl = w === null ? null : this.wBuffer;
    this.w = wl;
    const { stamp, value, local: localOf } = this.design.nextStamp();
    let P = 0;
    let l = 0;
    for (let r = 0; r < src.length; r++) {
      if (w !== null && w[r] === 0) continue;
      const g = shape.patternOf[src[r]!]!;
      if (stamp[g] !== value) {
        stamp[g] = value;
        localOf[g] = P;
        global[P++] = g;
      }
      const q = localOf[g]!;
      pattern[l] = q;
      cellBase[l] = g * T;
      pairBase[l] = q * pairT;
      columnBase[l] = q * d;
      yl[l] = y[r]!;
      if (wl !== null) wl[l] = w![r]!;
      l++;
    }
    this.live = l;
    this.patterns = P;
    // Fits on every row with weight 1 number the patterns alike and share one encoding: the
    // patterns' columns and values filled for the last of them still hold.
    const everyRow = w === null && l === shape.patternOf.length;
    if (everyRow && this.filledFor === encoding) return;
    this.filledFor = everyRow ? encoding : null;
    const { patIndex, patValue } = this;
    const { mean, slope } = encoding;
    for (let q = 0; q < P; q++) {
      const i = shape.first[global[q]!]!;
      for (let j = 0; j < d; j++) {
        patIndex[q * d + j] = shape.cols[i * d + j]!;
        patValue[q * d + j] = shape.oneHot[j] ? 1 : (shape.x[i * d + j]! - mean[j]!) * slope[j]!;
      }
    }
    this.fillPairs(P);
  }

  /** The pairs' lists of the first P local patterns, from their columns and values. */
  private fillPairs(P: number): void {
    const { patIndex, patValue, generalPairs, general, d, b0 } = this;
    const { index, value, other } = this.pairs;
    const m = this.size;
    const row = b0 * m;
    for (let q = 0, t = 0; q < P; q++) {
      const at = q * d;
      for (let k = 0; k < generalPairs.length; k += 2, t++) {
        const a = at + generalPairs[k]!;
        const c = at + generalPairs[k + 1]!;
        index[t] = patIndex[a]! * m + patIndex[c]!;
        value[t] = patValue[a]!;
        other[t] = patValue[c]!;
      }
      for (let g = 0; g < general.length; g++, t++) {
        const j = at + general[g]!;
        index[t] = row + patIndex[j]!;
        value[t] = patValue[j]!;
        other[t] = 1;
      }
      index[t] = row + b0;
      value[t] = 1;
      other[t++] = 1;
    }
  }

  private evaluate(theta: Float64Array, grad: Float64Array | null): number {
    const { eta, log1pExpo, prob, b0 } = this;
    const P = this.patterns;
    const b = theta[b0]!;
    const start = this.evaluations++ === 0 && grad !== null ? this.start : null;
    if (start?.terms) {
      eta.set(start.terms.eta);
      log1pExpo.set(start.terms.log1pExpo);
      prob.set(start.terms.prob);
    } else {
      this.columns.dots(P, theta, b, eta);
      for (let q = 0; q < P; q++) {
        const t = eta[q]!;
        const e = Math.exp(-Math.abs(t));
        log1pExpo[q] = Math.log1p(e);
        if (grad) prob[q] = t >= 0 ? 1 / (1 + e) : e / (1 + e);
      }
      if (start) {
        start.terms = { eta: eta.slice(0, P), log1pExpo: log1pExpo.slice(0, P), prob: prob.slice(0, P) };
      }
    }
    if (grad) {
      this.probAt.set(theta);
      this.probValid = true;
    }
    const { pattern, w, y, resid, curvature, live } = this;
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
      // Each column's residuals times its values, in row order (every other entry 0).
      this.columns.sum(live, grad);
      const s = this.invS;
      for (let c = 0; c < b0; c++) grad[c] = (grad[c]! + this.l2 * theta[c]!) * s;
      grad[b0] = g0 * s;
    }
    return (loss + 0.5 * this.l2 * penalty) * this.invS;
  }

  value(theta: Float64Array): number {
    return this.evaluate(theta, null);
  }

  /**
   * For a fit on every row in order (each row live, so its local patterns are the design's), every
   * row's P(label 1) at `theta` when the last evaluation with a gradient was there: the same
   * operations as `DesignFitter.probabilities` (the linear score, then the logistic of it by the
   * exponential of −|t|), so the same bits. Null otherwise.
   */
  everyRowAt(theta: Float64Array): Float64Array | null {
    if (!this.probValid) return null;
    for (let c = 0; c < theta.length; c++) if (!Object.is(theta[c], this.probAt[c])) return null;
    const { pattern, prob, live } = this;
    const out = new Float64Array(live);
    for (let r = 0; r < live; r++) out[r] = prob[pattern[r]!]!;
    return out;
  }

  valueAndGradient(theta: Float64Array, grad: Float64Array): number {
    return this.evaluate(theta, grad);
  }

  /** The Hessian at the point of the last `valueAndGradient`. */
  hessian(hess: Float64Array): void {
    const { curvature: h, b0 } = this;
    const m = this.size;
    const start = this.hessians++ === 0 ? this.start : null;
    if (start?.hess) {
      hess.set(start.hess);
      return;
    }
    // Every cell receives its rows' terms in row order (cells are independent): the one-hot pairs'
    // cells their curvatures; the other cells, each filled by one of the pairs' lists, the curvature
    // times the two values, (h·a)·c as the plain loop multiplies (a value of 1 changes nothing).
    this.cells.sum(this.live, hess);
    this.pairs.weights.set(h.subarray(0, this.live));
    this.pairs.sum(this.live, hess, true);
    const row = b0 * m;
    const { unitColumns } = this;
    for (let k = 0; k < unitColumns.length; k++) {
      const c = unitColumns[k]!;
      hess[row + c] = hess[c * m + c]!;
    }
    for (let i = 0; i < m; i++) for (let j = i + 1; j < m; j++) hess[i * m + j] = hess[j * m + i]!;
    for (let c = 0; c < b0; c++) hess[c * m + c]! += this.l2;
    const s = this.invS;
    for (let c = 0; c < m * m; c++) hess[c] = hess[c]! * s;
    if (start) start.hess = hess.slice();
  }
}
