import { CheckStatus, defineIndividualDetector, type IndividualSearch } from '@fb/core';
import { VERSION } from './version.js';

export interface ExhaustiveOptions {
  /** Rows checked per model call. */
  batchSize: number;
  /** The order the audited rows are checked in: the data's, or a seeded random permutation of it. */
  order: 'data' | 'random';
}

/**
 * Every audited row through the shared counterfactual checker, in data order or (`order: 'random'`) in
 * a seeded random order: the model's exact counterfactual behaviour on the data, as far as the budget
 * reaches. An individual method that searches the input space should find at least what this finds
 * on the rows themselves.
 *
 * With `order: 'random'` it is a floor (an output that knows nothing about where discrimination lies):
 * under a `maxTested` budget of m it is "m random audited rows checked exhaustively", matched to a
 * method on its tested samples (or queries, or seconds).
 */
async function checkEveryRow({ dataset, options, ctl, checker }: IndividualSearch<ExhaustiveOptions>) {
  const { d, n, x } = dataset;
  const order =
    options.order === 'random'
      ? ctl.rng.fork('exhaustive-order').shuffle(Int32Array.from({ length: n }, (_, i) => i))
      : null;
  const gathered = order ? new Float64Array(Math.min(options.batchSize, n) * d) : null;
  let checked = 0;
  while (checked < n) {
    if (await ctl.checkpoint({ phase: 'rows', done: checked, total: n })) break;
    const m = Math.min(options.batchSize, n - checked);
    let rows = x.subarray(checked * d, (checked + m) * d);
    if (order && gathered) {
      for (let r = 0; r < m; r++) {
        const i = order[checked + r]!;
        gathered.set(x.subarray(i * d, (i + 1) * d), r * d);
      }
      rows = gathered.subarray(0, m * d);
    }
    const { status } = checker.check(rows);
    checked += m;
    if (status.includes(CheckStatus.Skipped)) {
      ctl.shouldStop();
      break;
    }
  }
  return { rowsChecked: checked };
}

export const exhaustiveCounterfactual = defineIndividualDetector<ExhaustiveOptions>({
  id: 'exhaustive-counterfactual',
  version: VERSION,
  access: 'black-box',
  description:
    'Baseline: the counterfactual check of every data row (every combination of protected values), in data order or a seeded random order.',
  optionsSchema: {
    type: 'object',
    additionalProperties: false,
    properties: {
      batchSize: { type: 'integer', minimum: 1, default: 1024, description: 'rows checked per model call' },
      order: {
        type: 'string',
        enum: ['data', 'random'],
        default: 'data',
        description:
          "order the audited rows are checked in: 'data' (as stored) or 'random' (a permutation drawn from the run's seed)",
      },
    },
  },
  search: checkEveryRow,
});
