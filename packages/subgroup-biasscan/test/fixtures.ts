import {
  type Classifier,
  createDataset,
  createRng,
  type Dataset,
  defineSchema,
  type Rng,
  type Schema,
} from '@fb/core';
import type { ScanCoordinates } from '../src/index.js';

/** A logistic model over arbitrary features: p = σ(bias + Σ w_j x_j + per-category shifts). */
export class LogisticModel implements Classifier {
  readonly nClasses = 2;
  constructor(
    readonly nFeatures: number,
    private readonly logit: (x: Float64Array, off: number) => number,
  ) {}

  prob(x: Float64Array, off: number): number {
    return 1 / (1 + Math.exp(-this.logit(x, off)));
  }

  predictProba(x: Float64Array): Float64Array {
    const n = x.length / this.nFeatures;
    const out = new Float64Array(2 * n);
    for (let i = 0; i < n; i++) {
      const q = this.prob(x, i * this.nFeatures);
      out[2 * i] = 1 - q;
      out[2 * i + 1] = q;
    }
    return out;
  }

  predict(x: Float64Array): Int32Array {
    const n = x.length / this.nFeatures;
    const out = new Int32Array(n);
    for (let i = 0; i < n; i++) out[i] = this.prob(x, i * this.nFeatures) >= 0.5 ? 1 : 0;
    return out;
  }
}

export const auditSchema: Schema = defineSchema({
  attributes: [
    { name: 'sex', kind: 'categorical', protected: true, categories: ['m', 'f'] },
    { name: 'race', kind: 'categorical', protected: true, categories: ['a', 'b', 'c'] },
    { name: 'age', kind: 'ordinal', protected: false, min: 18, max: 67, step: 1 },
    { name: 'hours', kind: 'continuous', protected: false, min: 0, max: 80 },
    { name: 'job', kind: 'categorical', protected: false, categories: ['j0', 'j1', 'j2', 'j3'] },
  ],
  outcome: { name: 'approved', labels: ['no', 'yes'], favorable: 1 },
});

export const auditModel = new LogisticModel(5, (x, o) => {
  const job = x[o + 4]!;
  return (
    -1.5 +
    0.03 * (x[o + 2]! - 40) +
    0.02 * x[o + 3]! +
    (job === 3 ? 0.6 : job === 1 ? -0.3 : 0) +
    0.2 * x[o + 1]!
  );
});

/**
 * Rows of the audit schema with labels drawn from the model, except that inside `planted` the odds
 * of the favourable label are multiplied by `oddsFactor`.
 */
export function auditData(
  n: number,
  seed: string,
  planted: (x: Float64Array, off: number) => boolean = () => false,
  oddsFactor = 1,
): Dataset {
  const rng = createRng(seed);
  const d = 5;
  const x = new Float64Array(n * d);
  const y = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const o = i * d;
    x[o] = rng.int(0, 1);
    x[o + 1] = rng.weightedIndex([0.5, 0.3, 0.2]);
    x[o + 2] = rng.int(18, 67);
    x[o + 3] = Math.round(rng.uniform(0, 80) * 10) / 10;
    x[o + 4] = rng.int(0, 3);
    const p = auditModel.prob(x, o);
    const odds = (p / (1 - p)) * (planted(x, o) ? oddsFactor : 1);
    y[i] = rng.next() < odds / (1 + odds) ? 1 : 0;
  }
  return createDataset({ schema: auditSchema, x, y, name: seed });
}

/** Coded records with random expectations; outcomes drawn with odds × `oddsFactor` where `planted` holds. */
export function codedData(
  rng: Rng,
  n: number,
  arity: number[],
  planted: (codes: number[]) => boolean,
  oddsFactor: number,
): { coordinates: ScanCoordinates; expectations: Float64Array; outcomes: Float64Array } {
  const codes = arity.map(() => new Int32Array(n));
  const expectations = new Float64Array(n);
  const outcomes = new Float64Array(n);
  const row: number[] = new Array(arity.length);
  for (let i = 0; i < n; i++) {
    arity.forEach((k, m) => {
      row[m] = rng.int(0, k - 1);
      codes[m]![i] = row[m]!;
    });
    const p = rng.uniform(0.1, 0.9);
    expectations[i] = p;
    const odds = (p / (1 - p)) * (planted(row) ? oddsFactor : 1);
    outcomes[i] = rng.next() < odds / (1 + odds) ? 1 : 0;
  }
  return { coordinates: { n, codes, arity }, expectations, outcomes };
}
