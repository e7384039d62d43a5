import { type Classifier, createDataset, type Dataset, type Rng } from '@fb/core';
import { fitDecisionTree } from '@fb/models';
import type { Predicate } from './constraints.js';

/**
 * SG's local explanation, the LIME way with every attribute treated as categorical: `samples`
 * perturbed inputs, each attribute drawn independently from its empirical distribution in the data
 * (the first sample is the input itself), labelled by the model in one query; a decision tree fitted
 * on them; and the input's decision path in that tree, as predicates with their confidence.
 */
export class PathExplainer {
  readonly samples: number;
  private readonly dataset: Dataset;
  private readonly rows: Float64Array;

  constructor(dataset: Dataset, samples: number) {
    this.dataset = dataset;
    this.samples = samples;
    this.rows = new Float64Array(samples * dataset.d);
  }

  /** The decision path of `t` in a local tree; empty when the model gives every sample the same label. */
  explain(model: Classifier, t: Float64Array, rng: Rng, treeSeed: number): Predicate[] {
    const { n, d, x, schema } = this.dataset;
    const rows = this.rows;
    rows.set(t);
    for (let s = 1; s < this.samples; s++)
      for (let j = 0; j < d; j++) rows[s * d + j] = x[rng.int(0, n - 1) * d + j]!;
    const labels = model.predict(rows);
    if (labels.every((v) => v === labels[0])) return [];
    const tree = fitDecisionTree(createDataset({ schema, x: rows, y: labels }), { seed: treeSeed });
    const nodes = tree.decisionPath(t);
    const path: Predicate[] = [];
    for (let k = 0; k + 1 < nodes.length; k++) {
      const node = nodes[k]!;
      const child = nodes[k + 1]!;
      path.push({
        feature: tree.feature[node]!,
        le: child === tree.left[node],
        threshold: tree.threshold[node]!,
        confidence: tree.nodeSamples[child]! / tree.nodeSamples[node]!,
      });
    }
    return path;
  }
}
