import { createDataset, type Dataset, defineSchema, type Schema } from '@fb/core';
import { fitLogisticRegression, type LogisticRegression } from '@fb/models';
import { cbsFitCache, type DesignKey } from './fit-cache.js';
import type { Frame } from './frame.js';
import { DesignFitter, type LogitCoefficients } from './logistic.js';

/** Logistic-regression inputs: X (every attribute but the sensitive one), plus C when it varies. */
export interface Design {
  schema: Schema;
  /** Row-major inputs for every row of the dataset. */
  x: Float64Array;
  width: number;
  /** Its identity in the fit cache (content hash with the L2 penalty). */
  key: DesignKey;
  /** What its fits share (built at the first fit), and its rows in order. */
  fitter?: DesignFitter;
  every?: Int32Array;
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
export function buildDesigns(dataset: Dataset, frame: Frame, l2: number): Designs {
  const event = designOf(dataset, frame, frame.condition, l2);
  return {
    event,
    propensity: frame.condition === null ? event : dropLast(event, l2),
    resampling: frame.condition === null ? designOf(dataset, frame, frame.conditionAll, l2) : event,
  };
}

function keyOf(schema: Schema, width: number, x: Float64Array, l2: number): DesignKey {
  const text = JSON.stringify([schema.attributes, schema.outcome]);
  return cbsFitCache.designKey(text, width, x, l2);
}

/** Design of X, and of C as the last input when given. */
function designOf(dataset: Dataset, frame: Frame, c: Float64Array | null, l2: number): Design {
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
  const columns = Int32Array.from(frame.covariates);
  for (let i = 0; i < frame.n; i++) {
    for (let k = 0; k < columns.length; k++) x[i * width + k] = dataset.x[i * d + columns[k]!]!;
    if (c !== null) x[i * width + width - 1] = c[i]!;
  }
  const schema = defineSchema({
    attributes: attrs,
    outcome: { name: '__target', labels: ['0', '1'], favorable: 1 },
  });
  return { schema, x, width, key: keyOf(schema, width, x, l2) };
}

/** Probability of label 1 per row from a binary model's interleaved class probabilities. */
function positive(model: LogisticRegression, x: Float64Array): Float64Array {
  const proba = model.predictProba(x);
  const out = new Float64Array(proba.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = proba[2 * i + 1]!;
  return out;
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

/** Every row of a design, in order. */
function everyRow(design: Design): Int32Array {
  return Int32Array.from({ length: design.x.length / design.width }, (_, i) => i);
}

/**
 * The logistic fit of `labels` on the design's rows `rows` (weighted by `weights`, from `warm`), and
 * its P(label 1) for the rows `probe` (null: every row): by the design's `DesignFitter`, or, where it
 * does not apply, by `fitLogisticRegression` (which then fits or throws as it always did). Both give
 * the same bits.
 */
export function fitDesign(
  design: Design,
  rows: Int32Array | null,
  labels: Int32Array,
  weights: Float64Array | null,
  l2: number,
  warm: LogitCoefficients | undefined,
  probe: Int32Array | null,
): { model: LogitCoefficients; proba: Float64Array } {
  design.fitter ??= new DesignFitter(design.schema, design.x, design.width);
  design.every ??= everyRow(design);
  const src = rows ?? design.every;
  const fast = design.fitter.fit(src, labels, weights, l2, warm, rows === null);
  if (fast !== null) return { model: fast.coefficients, proba: design.fitter.probabilities(fast, probe) };
  const model = fitLogisticRegression(
    rowsOf(design, src, labels),
    { l2 },
    weights ?? undefined,
    warmModel(warm),
  );
  const x = probe === null ? design.x : rowsOf(design, probe, new Int32Array(probe.length)).x;
  return {
    model: { coefficients: model.coefficients, intercepts: model.intercepts },
    proba: positive(model, x),
  };
}

/** A warm start as `fitLogisticRegression` reads one (its classes, encoded width and coefficients). */
function warmModel(warm: LogitCoefficients | undefined): LogisticRegression | undefined {
  if (warm === undefined) return undefined;
  const fields = { nClasses: 2, encoder: { encodedWidth: warm.coefficients.length }, ...warm };
  return fields as unknown as LogisticRegression;
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
  const propensity = propensityFit(designs.propensity, a, l2, start);
  if (stop()) return null;
  const pa = propensity.proba;
  const design = designs.event;

  let controls = 0;
  let treated = 0;
  for (let i = 0; i < n; i++) {
    if (!frame.kept[i]) continue;
    if (a[i]) treated++;
    else controls++;
  }
  const copies = frame.realEvent ? 2 : 1;
  const rows = new Int32Array(controls * copies);
  const labels = new Int32Array(rows.length);
  const weights = new Float64Array(rows.length);
  const protectedRows = new Int32Array(treated);
  for (let i = 0, r = 0, t = 0; i < n; i++) {
    if (!frame.kept[i]) continue;
    if (a[i]) {
      protectedRows[t++] = i;
      continue;
    }
    const pi = pa[i]!;
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
    r++;
  }
  const event = fitDesign(design, rows, labels, weights, l2, start?.event, protectedRows);
  const expected = event.proba;
  const eventModel = event.model;
  return {
    protectedRows,
    expected,
    models: { propensity: propensity.model, propensityKey: propensity.key, event: eventModel },
  };
}

/**
 * P(A = 1 | X) on every row, from the fit cache or fitted: with the data's own class (`start`
 * undefined) the model is kept as the warm start of the resamples' fits; a resample's fit starts from
 * it and only its probabilities are kept. A resampled class is a new A, so its propensity is refitted
 * (the paper's test redoes the estimation on the resampled data); only the same A on the same design
 * reuses a fit.
 */
function propensityFit(
  design: Design,
  a: Uint8Array,
  l2: number,
  start: ExpectationModels | undefined,
): { proba: Float64Array; model: LogitCoefficients | null; key: string } {
  const warm = start?.propensity ?? undefined;
  return cbsFitCache.fit(design.key, a, start?.propensityKey ?? '', start === undefined, () =>
    fitDesign(design, null, Int32Array.from(a), null, l2, warm, null),
  );
}

/** The propensity model P(A = 1 | X) and the weighted event model of one run of `expectations`. */
export interface ExpectationModels {
  /** Kept for the data's own class (the resamples' warm start); null for a resample's fit. */
  propensity: LogitCoefficients | null;
  /** The propensity fit's entry in the fit cache. */
  propensityKey: string;
  event: LogitCoefficients;
}

/**
 * P(A = 1 | X, C) for every row, from a logistic model fitted on all rows with the data's A: the
 * distribution the conditional randomization test draws the protected class from. Under the null
 * I ⊥ A | (C, X), the class given (X, C, I) follows it, so redrawing A keeps its relation to the
 * covariates, which permuting A over all rows breaks.
 */
export function classPropensity(designs: Designs, a: Uint8Array, l2: number): Float64Array {
  const design = designs.resampling;
  return cbsFitCache.fit(design.key, a, '', false, () =>
    fitDesign(design, null, Int32Array.from(a), null, l2, undefined, null),
  ).proba;
}

function dropLast(design: Design, l2: number): Design {
  const width = design.width - 1;
  const n = design.x.length / design.width;
  const x = new Float64Array(n * width);
  for (let i = 0; i < n; i++) x.set(design.x.subarray(i * design.width, i * design.width + width), i * width);
  const schema = defineSchema({
    attributes: design.schema.attributes.slice(0, width),
    outcome: design.schema.outcome,
  });
  return { schema, x, width, key: keyOf(schema, width, x, l2) };
}
