import type { Classifier, Dataset, Rng } from '@fb/core';
import { type DecisionTree, fitDecisionTree } from '@fb/models';
import type { Predicate } from './constraints.js';

/**
 * `rng.int(0, span - 1)`'s rejection threshold (Lemire's): a 32-bit draw at or above it is drawn again.
 * A function of the data set's row count only, so computed once per explainer.
 */
export function rejectionLimit(span: number): number {
  if (!(Number.isInteger(span) && span >= 1 && span <= 0x100000000))
    throw new RangeError(`a data set of ${span} rows cannot be sampled`);
  return 0x100000000 - (0x100000000 % span);
}

/**
 * The perturbed samples of one explanation into `rows`: row 0 is `t`, and each attribute j of each
 * later row is attribute j of a data row drawn uniformly, rows in order and attributes in order within
 * a row. The draws are `rng.int(0, n - 1)`'s, made from `rng.nextU32()` with the rejection threshold
 * computed once (`limit`, from `rejectionLimit(n)`), without `int`'s argument checks per draw, and the
 * remainder taken without a floating-point `%` (see `remainder`).
 */
export function drawSamples(
  rows: Float64Array,
  t: Float64Array,
  x: Float64Array,
  n: number,
  d: number,
  samples: number,
  limit: number,
  rng: Rng,
): void {
  rows.set(t);
  const end = samples * d;
  const inverse = 1 / n;
  for (let k = d; k < end; ) {
    for (let j = 0; j < d; j++, k++) {
      let r = rng.nextU32();
      while (r >= limit) r = rng.nextU32();
      rows[k] = x[remainder(r, n, inverse) * d + j]!;
    }
  }
}

/**
 * `r % n` for integers 0 <= r < 2^32 and 1 <= n <= 2^32, `inverse` being `1 / n`. A 32-bit draw of 2^31
 * or more is not a small integer to V8, and its `%` calls the floating-point remainder; this takes the
 * quotient from one multiplication instead. `r * inverse` is within 2^-19 of r / n, so its floor is the
 * quotient or one off it, which the comparisons correct; every product and difference is an integer
 * below 2^34, exact in a double.
 */
export function remainder(r: number, n: number, inverse: number): number {
  const i = r - Math.floor(r * inverse) * n;
  return i < 0 ? i + n : i >= n ? i - n : i;
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
  private readonly limit: number;

  constructor(dataset: Dataset, samples: number) {
    this.dataset = dataset;
    this.samples = samples;
    this.rows = new Float64Array(samples * dataset.d);
    this.limit = rejectionLimit(dataset.n);
  }

  /** The decision path of `t` in a local tree; empty when the model gives every sample the same label. */
  explain(model: Classifier, t: Float64Array, rng: Rng, treeSeed: number): Predicate[] {
    const { n, d, x, schema } = this.dataset;
    const rows = this.rows;
    drawSamples(rows, t, x, n, d, this.samples, this.limit, rng);
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
