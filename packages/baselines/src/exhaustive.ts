import { CheckStatus, defineIndividualDetector, type IndividualSearch } from '@fb/core';

export interface ExhaustiveOptions {
  /** Rows checked per model call. */
  batchSize: number;
}

/**
 * Every audited row through the shared counterfactual checker, in data order: the model's exact
 * counterfactual behaviour on the data, as far as the budget reaches. An individual method that
 * searches the input space should find at least what this finds on the rows themselves.
 */
async function checkEveryRow({ dataset, options, ctl, checker }: IndividualSearch<ExhaustiveOptions>) {
  const d = dataset.d;
  let checked = 0;
  while (checked < dataset.n) {
    if (await ctl.checkpoint({ phase: 'rows', done: checked, total: dataset.n })) break;
    const m = Math.min(options.batchSize, dataset.n - checked);
    const { status } = checker.check(dataset.x.subarray(checked * d, (checked + m) * d));
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
  version: '0.1.0',
  access: 'black-box',
  description:
    'Baseline: the counterfactual check of every data row (every combination of protected values), in data order.',
  optionsSchema: {
    type: 'object',
    additionalProperties: false,
    properties: {
      batchSize: { type: 'integer', minimum: 1, default: 1024, description: 'rows checked per model call' },
    },
  },
  search: checkEveryRow,
});
