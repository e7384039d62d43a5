/** Confusion counts of one set of rows (the favourable class is "positive"). */
export interface Confusion {
  tp: number;
  fp: number;
  tn: number;
  fn: number;
}

/**
 * Confusion counts per group: `counts[g]`, and `total` for all rows. `yTrue` may be null (only
 * predicted-positive counts are then meaningful: tp + fp = PP, tn + fn = PN). `codes` null puts every
 * row in group 0.
 */
export function confusionByGroup(
  yTrue: ArrayLike<number> | null,
  yPred: ArrayLike<number>,
  codes: Int32Array | null,
  groups: number,
  favorable: number,
): { counts: Confusion[]; total: Confusion } {
  const cells = tally(yTrue, yPred, codes, groups, favorable);
  const total = { tp: 0, fp: 0, tn: 0, fn: 0 };
  const counts = Array.from({ length: groups }, (_, g) => {
    const c = {
      tp: cells[4 * g + TP]!,
      fp: cells[4 * g + FP]!,
      tn: cells[4 * g + TN]!,
      fn: cells[4 * g + FN]!,
    };
    total.tp += c.tp;
    total.fp += c.fp;
    total.tn += c.tn;
    total.fn += c.fn;
    return c;
  });
  return { counts, total };
}

// A row's cell within its group's four: 2 x predicted positive + actually positive.
const TN = 0;
const FN = 1;
const FP = 2;
const TP = 3;

/**
 * Rows per (group, cell), four cells per group. Counted into an array, without a branch or an object
 * per row: a loop over objects' fields, optimised while its first call runs, met a cell it had not
 * yet seen and went back to V8's interpreter for the rest of the rows, on every call.
 */
function tally(
  yTrue: ArrayLike<number> | null,
  yPred: ArrayLike<number>,
  codes: Int32Array | null,
  groups: number,
  favorable: number,
): Float64Array {
  const cells = new Float64Array(4 * groups);
  for (let i = 0; i < yPred.length; i++) {
    const predPos = +(yPred[i] === favorable);
    const truePos = yTrue ? +(yTrue[i] === favorable) : predPos;
    cells[(codes ? 4 * codes[i]! : 0) + 2 * predPos + truePos]!++;
  }
  return cells;
}

export function minus(a: Confusion, b: Confusion): Confusion {
  return { tp: a.tp - b.tp, fp: a.fp - b.fp, tn: a.tn - b.tn, fn: a.fn - b.fn };
}

/** `num / den`, or null when `den` is 0 (the rate is undefined for that set of rows). */
const rate = (num: number, den: number): number | null => (den > 0 ? num / den : null);

/** The rates of seed 004; null means undefined (a zero denominator, e.g. a group with no actual positives). */
export const RATES = {
  /** PP / N. */
  selectionRate: (c: Confusion) => rate(c.tp + c.fp, c.tp + c.fp + c.tn + c.fn),
  /** TP / (TP + FN). */
  tpr: (c: Confusion) => rate(c.tp, c.tp + c.fn),
  /** FP / (FP + TN). */
  fpr: (c: Confusion) => rate(c.fp, c.fp + c.tn),
  /** FN / (TP + FN). */
  fnr: (c: Confusion) => rate(c.fn, c.tp + c.fn),
  /** TN / (TN + FP). */
  tnr: (c: Confusion) => rate(c.tn, c.tn + c.fp),
  /** FN / (FN + TN). */
  for: (c: Confusion) => rate(c.fn, c.fn + c.tn),
  /** FP / (TP + FP). */
  fdr: (c: Confusion) => rate(c.fp, c.tp + c.fp),
  /** TP / (TP + FP). */
  precision: (c: Confusion) => rate(c.tp, c.tp + c.fp),
  /** TN / (TN + FN). */
  npv: (c: Confusion) => rate(c.tn, c.tn + c.fn),
  /** (FP + FN) / N. */
  errorRate: (c: Confusion) => rate(c.fp + c.fn, c.tp + c.fp + c.tn + c.fn),
  /** (TP + FN) / N: the share of actual positives. */
  prevalence: (c: Confusion) => rate(c.tp + c.fn, c.tp + c.fp + c.tn + c.fn),
} as const;

export type RateName = keyof typeof RATES;
