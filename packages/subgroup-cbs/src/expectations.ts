import { createDataset, type Dataset, defineSchema, type Schema } from '@fb/core';
import { fitLogisticRegression, type LogisticRegression } from '@fb/models';
import type { Frame } from './frame.js';

/** Logistic-regression inputs: X (every attribute but the sensitive one), plus C when it varies. */
export interface Design {
  schema: Schema;
  /** Row-major inputs for every row of the dataset. */
  x: Float64Array;
  width: number;
}

/**
 * The inputs of the event model (X and C), of the propensity model (X only) and of the resampling
 * test's model of the protected class (X and C on every row, also in a value-conditional scan).
 */
export interface Designs {
  event: Design;
  propensity: Design;
  resampling: Design;
}

/**
 * The design matrix of the models: the covariates X, and C as one more input unless the scan is
 * value-conditional. Every attribute is marked protected only because a schema needs one; the
 * flag does not enter the regression.
 */
export function buildDesigns(dataset: Dataset, frame: Frame): Designs {
  const event = designOf(dataset, frame, frame.condition);
  return {
    event,
    propensity: frame.condition === null ? event : dropLast(event),
    resampling: frame.condition === null ? designOf(dataset, frame, frame.conditionAll) : event,
  };
}

/** Design of X, and of C as the last input when given. */
function designOf(dataset: Dataset, frame: Frame, c: Float64Array | null): Design {
  const attrs = frame.covariates.map((j) => ({ ...dataset.schema.attributes[j]!, protected: true }));
  if (c !== null) {
    let lo = Number.POSITIVE_INFINITY;
    let hi = Number.NEGATIVE_INFINITY;
    for (let i = 0; i < c.length; i++) {
      lo = Math.min(lo, c[i]!);
      hi = Math.max(hi, c[i]!);
    }
    attrs.push({
      name: '__condition',
      kind: 'continuous',
      protected: true,
      min: lo,
      max: hi === lo ? lo + 1 : hi,
    });
  }
  const width = attrs.length;
  const x = new Float64Array(frame.n * width);
  const { d } = dataset;
  for (let i = 0; i < frame.n; i++) {
    frame.covariates.forEach((j, k) => {
      x[i * width + k] = dataset.x[i * d + j]!;
    });
    if (c !== null) x[i * width + width - 1] = c[i]!;
  }
  const schema = defineSchema({
    attributes: attrs,
    outcome: { name: '__target', labels: ['0', '1'], favorable: 1 },
  });
  return { schema, x, width };
}

function rowsOf(design: Design, rows: Int32Array, labels: Int32Array): Dataset {
  const { width } = design;
  const x = new Float64Array(rows.length * width);
  for (let r = 0; r < rows.length; r++) {
    const i = rows[r]!;
    x.set(design.x.subarray(i * width, i * width + width), r * width);
  }
  return createDataset({ schema: design.schema, x, y: labels });
}

/**
 * Expectations Î of the event for the protected rows kept by the value-conditional filter
 * (seed 003, §3.2 and Appendix A.1):
 * 1. a logistic model of P(A = 1 | X) on all rows, giving odds weights wⱼ = pⱼ/(1 − pⱼ) to the
 *    non-protected rows;
 * 2. a weighted logistic model of E[I | C, X] on the kept non-protected rows (for a real-valued I,
 *    each row twice: label 1 with weight w·I, label 0 with weight w·(1 − I));
 * 3. Î = that model's probability for each kept protected row.
 * `a` is the class membership to use (the data's, or a permutation of it). Returns Î in the order of
 * `protectedRows` (the kept rows with a = 1) and the two fitted models. Null when `stop` says stop
 * between the two fits. `start`: the models fitted on the data's own class, which start the solver
 * of a resample's fits (the same optimum, in fewer Newton steps).
 */
export function expectations(
  designs: Designs,
  frame: Frame,
  a: Uint8Array,
  l2: number,
  stop: () => boolean = () => false,
  start?: ExpectationModels,
): { protectedRows: Int32Array; expected: Float64Array; models: ExpectationModels } | null {
  const n = frame.n;
  const all = Int32Array.from({ length: n }, (_, i) => i);
  const propensity = fitLogisticRegression(
    rowsOf(designs.propensity, all, Int32Array.from(a)),
    { l2 },
    undefined,
    start?.propensity,
  );
  if (stop()) return null;
  const pa = propensity.predictProba(designs.propensity.x);
  const design = designs.event;

  const control: number[] = [];
  const treated: number[] = [];
  for (let i = 0; i < n; i++) {
    if (!frame.kept[i]) continue;
    (a[i] ? treated : control).push(i);
  }
  const copies = frame.realEvent ? 2 : 1;
  const rows = new Int32Array(control.length * copies);
  const labels = new Int32Array(rows.length);
  const weights = new Float64Array(rows.length);
  control.forEach((i, r) => {
    const pi = pa[2 * i + 1]!;
    const w = pi / (1 - pi);
    const e = frame.event[i]!;
    if (frame.realEvent) {
      rows[2 * r] = i;
      labels[2 * r] = 1;
      weights[2 * r] = w * e;
      rows[2 * r + 1] = i;
      labels[2 * r + 1] = 0;
      weights[2 * r + 1] = w * (1 - e);
    } else {
      rows[r] = i;
      labels[r] = e;
      weights[r] = w;
    }
  });
  const eventModel = fitLogisticRegression(rowsOf(design, rows, labels), { l2 }, weights, start?.event);
  const protectedRows = Int32Array.from(treated);
  const probe = rowsOf(design, protectedRows, new Int32Array(protectedRows.length));
  const proba = eventModel.predictProba(probe.x);
  const expected = Float64Array.from(protectedRows, (_, r) => proba[2 * r + 1]!);
  return { protectedRows, expected, models: { propensity, event: eventModel } };
}

/** The propensity model P(A = 1 | X) and the weighted event model of one run of `expectations`. */
export interface ExpectationModels {
  propensity: LogisticRegression;
  event: LogisticRegression;
}

/**
 * P(A = 1 | X, C) for every row, from a logistic model fitted on all rows with the data's A: the
 * distribution the conditional randomization test draws the protected class from. Under the null
 * I ⊥ A | (C, X), the class given (X, C, I) follows it, so redrawing A keeps its relation to the
 * covariates, which permuting A over all rows breaks.
 */
export function classPropensity(designs: Designs, a: Uint8Array, l2: number): Float64Array {
  const n = a.length;
  const all = Int32Array.from({ length: n }, (_, i) => i);
  const model = fitLogisticRegression(rowsOf(designs.resampling, all, Int32Array.from(a)), { l2 });
  const proba = model.predictProba(designs.resampling.x);
  return Float64Array.from({ length: n }, (_, i) => proba[2 * i + 1]!);
}

function dropLast(design: Design): Design {
  const width = design.width - 1;
  const n = design.x.length / design.width;
  const x = new Float64Array(n * width);
  for (let i = 0; i < n; i++) x.set(design.x.subarray(i * design.width, i * design.width + width), i * width);
  const schema = defineSchema({
    attributes: design.schema.attributes.slice(0, width),
    outcome: design.schema.outcome,
  });
  return { schema, x, width };
}
