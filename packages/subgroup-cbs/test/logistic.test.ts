import { createDataset, createRng, defineSchema, type Schema } from '@fb/core';
import { fitLogisticRegression, type LogisticRegression } from '@fb/models';
import { describe, expect, it } from 'vitest';
import { fitDesign } from '../src/expectations.js';
import { DesignFitter, type LogitCoefficients } from '../src/logistic.js';

/**
 * The resamples' fits (`DesignFitter`) against `fitLogisticRegression` of `@fb/models` with its
 * defaults, the fit CBS made before: the same coefficients, intercept and probabilities, bit for bit.
 */

const bytes = (a: Float64Array) => Array.from(new Uint8Array(a.buffer, a.byteOffset, a.byteLength));

function design(
  n: number,
  continuous: boolean,
  seed: string,
): { schema: Schema; x: Float64Array; width: number } {
  const rng = createRng(seed);
  const attributes = [
    { name: 'a', kind: 'categorical' as const, protected: true, categories: ['0', '1', '2'] },
    { name: 'b', kind: 'categorical' as const, protected: true, categories: ['0', '1'] },
    { name: 'c', kind: 'categorical' as const, protected: true, categories: ['0', '1', '2', '3', '4'] },
    ...(continuous
      ? [
          { name: 'age', kind: 'continuous' as const, protected: true, min: 0, max: 10 },
          { name: '__condition', kind: 'continuous' as const, protected: true, min: -3, max: 3 },
        ]
      : []),
  ];
  const width = attributes.length;
  const x = new Float64Array(n * width);
  for (let i = 0; i < n; i++) {
    x[i * width] = rng.int(0, 2);
    x[i * width + 1] = rng.int(0, 1);
    x[i * width + 2] = rng.int(0, 4);
    if (continuous) {
      // Few distinct values, so that rows repeat (patterns), and one value of many digits.
      x[i * width + 3] = rng.int(0, 3) * 2.5;
      x[i * width + 4] = rng.next() < 0.5 ? -1.2345678901 : rng.next() * 6 - 3;
    }
  }
  const schema = defineSchema({
    attributes,
    outcome: { name: '__target', labels: ['0', '1'], favorable: 1 },
  });
  return { schema, x, width };
}

/** One fit: the design's rows, their labels and weights, the model it starts from, the rows predicted. */
interface FitCase {
  d: { schema: Schema; x: Float64Array; width: number };
  rows: Int32Array;
  labels: Int32Array;
  weights: Float64Array | null;
  warm?: LogisticRegression;
  probe: Int32Array;
  /** The fitter to use (a new one when not given), and the warm start as it sees it. */
  fitter?: DesignFitter;
  start?: LogitCoefficients;
  /** Whether `rows` are every row in order (the fits that reuse their label-free first point). */
  whole?: boolean;
}

/** The fit as CBS made it before: a data set of the rows, `fitLogisticRegression`, `predictProba`. */
function reference({ d, rows, labels, weights, warm, probe }: FitCase) {
  const take = (idx: Int32Array) => {
    const x = new Float64Array(idx.length * d.width);
    idx.forEach((i, r) => {
      x.set(d.x.subarray(i * d.width, (i + 1) * d.width), r * d.width);
    });
    return x;
  };
  const ds = createDataset({ schema: d.schema, x: take(rows), y: labels });
  const model = fitLogisticRegression(ds, { l2: 1 }, weights ?? undefined, warm);
  const proba = model.predictProba(take(probe));
  return { model, proba: Float64Array.from({ length: probe.length }, (_, i) => proba[2 * i + 1]!) };
}

function compare(c: FitCase): LogisticRegression {
  const { d, rows, labels, weights, warm, probe } = c;
  const expected = reference(c);
  const fitter = c.fitter ?? new DesignFitter(d.schema, d.x, d.width);
  const start: LogitCoefficients | undefined =
    c.start ??
    (warm === undefined ? undefined : { coefficients: warm.coefficients, intercepts: warm.intercepts });
  const fit = fitter.fit(rows, labels, weights, 1, start, c.whole ?? false);
  expect(fit).not.toBeNull();
  expect(bytes(fit!.coefficients.coefficients)).toEqual(bytes(expected.model.coefficients));
  expect(bytes(fit!.coefficients.intercepts)).toEqual(bytes(expected.model.intercepts));
  expect(bytes(fitter.probabilities(fit!, probe))).toEqual(bytes(expected.proba));
  // Every row in order: a whole fit's probabilities come from its last evaluation, the same bytes.
  if (probe.length === fitter.n && probe.every((r, i) => r === i))
    expect(bytes(fitter.probabilities(fit!, null))).toEqual(bytes(expected.proba));
  return expected.model;
}

describe('DesignFitter', () => {
  for (const continuous of [false, true]) {
    const kind = continuous ? 'one-hot and standardised attributes' : 'one-hot attributes only';
    it(`fits every row as fitLogisticRegression does, cold and warm (${kind})`, () => {
      const n = 400;
      const d = design(n, continuous, `fit-${kind}`);
      const rng = createRng(`labels-${kind}`);
      const all = Int32Array.from({ length: n }, (_, i) => i);
      const a = Int32Array.from({ length: n }, (_, i) =>
        rng.next() < 0.2 + 0.5 * (d.x[i * d.width]! / 2) ? 1 : 0,
      );
      const cold = compare({ d, rows: all, labels: a, weights: null, probe: all });
      // Resampled classes, started from the data's fit: the first one computes the label-free first
      // point (scores, probabilities, Hessian), the others reuse it.
      const fitter = new DesignFitter(d.schema, d.x, d.width);
      const start = { coefficients: cold.coefficients, intercepts: cold.intercepts };
      for (let k = 0; k < 4; k++) {
        const b = Int32Array.from({ length: n }, () => (rng.next() < 0.2 + 0.1 * k ? 1 : 0));
        compare({
          d,
          rows: all,
          labels: b,
          weights: null,
          warm: cold,
          probe: all,
          fitter,
          start,
          whole: true,
        });
      }
    });

    it(`fits a weighted two-copy layout with zero weights as fitLogisticRegression does (${kind})`, () => {
      const n = 300;
      const d = design(n, continuous, `event-${kind}`);
      const rng = createRng(`weights-${kind}`);
      const controls = Int32Array.from({ length: n }, (_, i) => i).filter((i) => i % 3 !== 0);
      const treated = Int32Array.from({ length: n }, (_, i) => i).filter((i) => i % 3 === 0);
      // Each control twice, label 1 with weight w·e and label 0 with w·(1 − e), for a real-valued
      // event e that is sometimes exactly 0 or 1 (a copy of weight 0).
      const rows = Int32Array.from({ length: 2 * controls.length }, (_, k) => controls[k >> 1]!);
      const labels = Int32Array.from(rows, (_, k) => 1 - (k % 2));
      const event = Float64Array.from(controls, (_, r) => (r % 17 === 0 ? 1 : r % 19 === 0 ? 0 : rng.next()));
      const odds = Float64Array.from(controls, () => rng.next() * 3);
      const weights = Float64Array.from(rows, (_, k) => {
        const e = event[k >> 1]!;
        return odds[k >> 1]! * (k % 2 === 0 ? e : 1 - e);
      });
      const cold = compare({ d, rows, labels, weights, probe: treated });
      for (let k = 0; k < weights.length; k += 2) weights[k] = weights[k]! * (0.5 + rng.next());
      compare({ d, rows, labels, weights, warm: cold, probe: treated });
    });
  }

  it('leaves to fitLogisticRegression the fits it would refuse', () => {
    const d = design(50, true, 'refuse');
    const fitter = new DesignFitter(d.schema, d.x, d.width);
    const rows = Int32Array.from({ length: 50 }, (_, i) => i);
    expect(fitter.fit(rows, new Int32Array(50), null, 1, undefined)).toBeNull();
    const weights = new Float64Array(50).fill(1);
    weights[3] = Number.POSITIVE_INFINITY;
    const labels = Int32Array.from(rows, (i) => i % 2);
    expect(fitter.fit(rows, labels, weights, 1, undefined)).toBeNull();
    weights[3] = -1;
    expect(fitter.fit(rows, labels, weights, 1, undefined)).toBeNull();
    expect(fitter.fit(rows, labels, new Float64Array(50), 1, undefined)).toBeNull();
  });

  it('fits or throws through fitLogisticRegression where the fitter does not apply', () => {
    const d = design(60, true, 'fallback');
    const target = { ...d, key: { key: 'fallback', x: d.x } };
    const rows = Int32Array.from({ length: 60 }, (_, i) => i);
    const error = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        return (e as { code?: string }).code;
      }
      return 'no error';
    };
    const oneLabel = new Int32Array(60);
    const ds = createDataset({ schema: d.schema, x: d.x, y: oneLabel });
    expect(error(() => fitDesign(target, null, oneLabel, null, 1, undefined, null))).toBe(
      'DATA_SINGLE_CLASS',
    );
    expect(error(() => fitLogisticRegression(ds, { l2: 1 }))).toBe('DATA_SINGLE_CLASS');
    const labels = Int32Array.from(rows, (i) => i % 2);
    const weights = new Float64Array(60).fill(1);
    weights[7] = Number.POSITIVE_INFINITY;
    expect(error(() => fitDesign(target, rows, labels, weights, 1, undefined, rows))).toBe('DATA_NOT_FINITE');
  });
});
