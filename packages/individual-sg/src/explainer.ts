import type { Classifier, Dataset, Rng } from '@fb/core';
import { type DecisionTree, fitDecisionTree } from '@fb/models';
import type { Predicate } from './constraints.js';

/**
 * The perturbed samples of one explanation into `rows`: row 0 is `t`, and each attribute j of each
 * later row is attribute j of a data row drawn uniformly, rows in order and attributes in order within
 * a row: the draws of `rng.int(0, n - 1)`, made at once into `picks` ((samples - 1) x d of them).
 */
export function drawSamples(
  rows: Float64Array,
  t: Float64Array,
  x: Float64Array,
  n: number,
  d: number,
  samples: number,
  rng: Rng,
  picks: Int32Array,
): void {
  rows.set(t);
  const count = (samples - 1) * d;
  rng.intsBelow(n, picks, count);
  for (let k = 0; k < count; ) {
    for (let j = 0; j < d; j++, k++) rows[k + d] = x[picks[k]! * d + j]!;
  }
}

/** Whether every label equals the first (a loop: no closure per explanation). */
function allSame(labels: Int32Array): boolean {
  const first = labels[0];
  for (let i = 1; i < labels.length; i++) if (labels[i] !== first) return false;
  return true;
}

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
  private readonly picks: Int32Array;

  constructor(dataset: Dataset, samples: number) {
    this.dataset = dataset;
    this.samples = samples;
    this.rows = new Float64Array(samples * dataset.d);
    this.picks = new Int32Array(Math.max(0, samples - 1) * dataset.d);
  }

  /** The decision path of `t` in a local tree; empty when the model gives every sample the same label. */
  explain(model: Classifier, t: Float64Array, rng: Rng, treeSeed: number): Predicate[] {
    const { n, d, x, schema } = this.dataset;
    const rows = this.rows;
    drawSamples(rows, t, x, n, d, this.samples, rng, this.picks);
    const labels = model.predict(rows);
    if (allSame(labels)) return [];
    // The tree's fit checks its data set against the schema (core's `checkDataset`), as `createDataset`
    // did here before: the samples are passed as they are, and checked once.
    const tree = fitDecisionTree({ schema, n: this.samples, d, x: rows, y: labels }, { seed: treeSeed });
    return pathPredicates(tree, t);
  }
}

/** The decision path of `t` in `tree`, as predicates with their confidence (the share of the node's samples). */
export function pathPredicates(tree: DecisionTree, t: Float64Array): Predicate[] {
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
