import { type Classifier, createDataset, createRng, type Dataset, defineSchema, type Schema } from '@fb/core';

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

/** A three-class softmax model over the audit schema: class scores depend on age and job. */
export class SoftmaxModel implements Classifier {
  readonly nClasses = 3;
  readonly nFeatures = 5;

  probs(x: Float64Array, o: number): [number, number, number] {
    const z1 = 0.03 * (x[o + 2]! - 40) + (x[o + 4] === 1 ? 0.5 : 0);
    const z2 = -0.5 + 0.02 * x[o + 3]! + (x[o + 4] === 3 ? 0.7 : 0);
    const m = Math.max(0, z1, z2);
    const e = [Math.exp(-m), Math.exp(z1 - m), Math.exp(z2 - m)];
    const s = e[0]! + e[1]! + e[2]!;
    return [e[0]! / s, e[1]! / s, e[2]! / s];
  }

  predictProba(x: Float64Array): Float64Array {
    const n = x.length / this.nFeatures;
    const out = new Float64Array(3 * n);
    for (let i = 0; i < n; i++) out.set(this.probs(x, i * this.nFeatures), 3 * i);
    return out;
  }

  predict(x: Float64Array): Int32Array {
    const p = this.predictProba(x);
    return Int32Array.from({ length: p.length / 3 }, (_, i) => {
      const r = p.subarray(3 * i, 3 * i + 3);
      return r[0]! >= r[1]! && r[0]! >= r[2]! ? 0 : r[1]! >= r[2]! ? 1 : 2;
    });
  }
}

export const threeClassSchema: Schema = defineSchema({
  attributes: auditSchema.attributes,
  outcome: { name: 'grade', labels: ['low', 'mid', 'high'], favorable: 2 },
});

/** Rows of the three-class schema with labels drawn from `model`, except that `planted` rows are moved to `forced`. */
export function threeClassData(
  n: number,
  seed: string,
  model: SoftmaxModel,
  planted: (x: Float64Array, off: number) => boolean,
  forced: number,
  rate: number,
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
    y[i] = planted(x, o) && rng.next() < rate ? forced : rng.weightedIndex(model.probs(x, o));
  }
  return createDataset({ schema: threeClassSchema, x, y, name: seed });
}

/**
 * The best penalised score over every subgroup of rows with small-arity attributes (codes 0..arity − 1
 * in `x`, d = arities.length per row): per attribute every non-empty value set, all values meaning
 * unconstrained (no penalty); `score` gets the member rows of each non-empty subgroup.
 */
export function bruteForceBest(
  x: Float64Array,
  arities: readonly number[],
  penalty: number,
  score: (rows: number[]) => number,
): number {
  const d = arities.length;
  const n = x.length / d;
  const setsOf = (k: number) => {
    const out: number[][] = [];
    for (let mask = 1; mask < 1 << k; mask++) out.push([...Array(k).keys()].filter((v) => mask & (1 << v)));
    return out;
  };
  const choices = arities.map(setsOf);
  let best = Number.NEGATIVE_INFINITY;
  const chosen: number[][] = [];
  const visit = (j: number) => {
    if (j === d) {
      const rows: number[] = [];
      for (let i = 0; i < n; i++) if (chosen.every((vals, m) => vals.includes(x[d * i + m]!))) rows.push(i);
      if (rows.length === 0) return;
      const cost =
        penalty * chosen.reduce((c, vals, m) => c + (vals.length < arities[m]! ? vals.length : 0), 0);
      best = Math.max(best, score(rows) - cost);
      return;
    }
    for (const vals of choices[j]!) {
      chosen[j] = vals;
      visit(j + 1);
    }
  };
  visit(0);
  return best;
}

/** Three small attributes (arities 2, 3, 4), for brute force over every subgroup. */
export const smallSchema: Schema = defineSchema({
  attributes: [
    { name: 'sex', kind: 'categorical', protected: true, categories: ['m', 'f'] },
    { name: 'region', kind: 'categorical', protected: false, categories: ['n', 'e', 's'] },
    { name: 'level', kind: 'ordinal', protected: false, min: 0, max: 3, step: 1 },
  ],
  outcome: { name: 'ok', labels: ['no', 'yes'], favorable: 1 },
});

export const smallModel = new LogisticModel(3, (x, o) => -0.3 + 0.4 * x[o + 2]! - 0.3 * x[o + 1]!);

/** 300 rows of the small schema; women outside level 1 get the favourable label at 0.4 times the model's odds. */
export function smallData(seed: string): Dataset {
  const rng = createRng(seed);
  const n = 300;
  const x = new Float64Array(3 * n);
  const y = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    x.set([rng.int(0, 1), rng.int(0, 2), rng.int(0, 3)], 3 * i);
    const p = smallModel.prob(x, 3 * i);
    const odds = (p / (1 - p)) * (x[3 * i] === 1 && x[3 * i + 2] !== 1 ? 0.4 : 1);
    y[i] = rng.next() < odds / (1 + odds) ? 1 : 0;
  }
  return createDataset({ schema: smallSchema, x, y });
}
