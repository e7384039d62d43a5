// Hand-built models with discrimination planted in a known region, for the individual detectors' own
// tests: the schema, the region, models deciding by a row-wise rule or probability, and data they label.
import {
  type Classifier,
  createDataset,
  createRng,
  type Dataset,
  type DiscoveryResult,
  DomainSampler,
  defineSchema,
  type Schema,
} from '@fb/core';
import { expect } from 'vitest';

/** sex (protected, 2 values), a in 0..99, b in 0..19, c in [0, 1], colour (4 categories). */
export const regionSchema: Schema = defineSchema({
  attributes: [
    { name: 'sex', kind: 'categorical', protected: true, categories: ['f', 'm'] },
    { name: 'a', kind: 'ordinal', protected: false, min: 0, max: 99, step: 1 },
    { name: 'b', kind: 'ordinal', protected: false, min: 0, max: 19, step: 1 },
    { name: 'c', kind: 'continuous', protected: false, min: 0, max: 1 },
    { name: 'colour', kind: 'categorical', protected: false, categories: ['r', 'g', 'b', 'y'] },
  ],
  outcome: { name: 'y', labels: ['no', 'yes'], favorable: 1 },
});

/** The planted region of `regionSchema`: 40 <= a <= 49 and b >= 10 (5 % of the domain). */
export function inRegion(row: ArrayLike<number>): boolean {
  return row[1]! >= 40 && row[1]! <= 49 && row[2]! >= 10;
}

/** A classifier deciding `label(row)` row by row, counting the rows it is asked about. */
export class RowModel implements Classifier {
  readonly nFeatures: number;
  readonly nClasses = 2;
  readonly description: string;
  rowsSeen = 0;
  private readonly label: (row: Float64Array) => number;

  constructor(description: string, d: number, label: (row: Float64Array) => number) {
    this.description = description;
    this.nFeatures = d;
    this.label = label;
  }

  predict(x: Float64Array): Int32Array {
    const d = this.nFeatures;
    const n = x.length / d;
    this.rowsSeen += n;
    const out = new Int32Array(n);
    for (let i = 0; i < n; i++) out[i] = this.label(x.subarray(i * d, (i + 1) * d));
    return out;
  }
}

/** On `regionSchema`: decides by sex inside the region, by `a > 70` outside it. */
export const regionModel = new RowModel('region', 5, (r) => (inRegion(r) ? r[0]! : r[1]! > 70 ? 1 : 0));

/** On `regionSchema`: never looks at sex. */
export const blindModel = new RowModel('blind', 5, (r) => (r[1]! + 5 * r[2]! > 100 ? 1 : 0));

/** A binary classifier from a row-wise probability of class 1 (label: p >= 0.5). */
export function probabilityModel(description: string, p1: (row: Float64Array) => number, d = 5): Classifier {
  const proba = (x: Float64Array) => {
    const n = x.length / d;
    const out = new Float64Array(2 * n);
    for (let i = 0; i < n; i++) {
      const p = p1(x.subarray(i * d, (i + 1) * d));
      out[2 * i] = 1 - p;
      out[2 * i + 1] = p;
    }
    return out;
  };
  return {
    nFeatures: d,
    nClasses: 2,
    description,
    predictProba: proba,
    predict: (x) => {
      const p = proba(x);
      return Int32Array.from({ length: x.length / d }, (_, i) => (p[2 * i + 1]! >= 0.5 ? 1 : 0));
    },
  };
}

/**
 * `n` rows drawn uniformly from the domain of `schema` with a fixed seed, labelled by `model`; the
 * first two rows are relabelled 0 and 1 so that both classes occur.
 */
export function labelledSample(model: Classifier, n = 300, schema: Schema = regionSchema): Dataset {
  const sampler = new DomainSampler(schema);
  const x = new Float64Array(n * sampler.d);
  sampler.fill(createRng('fixture'), x);
  const y = model.predict(x);
  y[0] = 0;
  y[1] = 1;
  return createDataset({ schema, x, y, name: 'fixture' });
}

/**
 * Assert that `result` lists one pair per discriminatory sample, every sample inside the planted region,
 * and that `model` gives the two rows of each pair the reported, different labels.
 */
export function expectPairsInRegion(result: DiscoveryResult, model: Classifier): void {
  const pairs = result.findings.kind === 'individual' ? result.findings.pairs : [];
  expect(pairs.length).toBe(result.metrics.dsn);
  for (const p of pairs) {
    expect(inRegion(p.sample)).toBe(true);
    const labels = model.predict(Float64Array.from([...p.sample, ...p.counterfactual]));
    expect([labels[0], labels[1]]).toEqual([p.sampleOutcome, p.counterfactualOutcome]);
    expect(labels[0]).not.toBe(labels[1]);
  }
}
