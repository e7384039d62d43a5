import { CheckStatus, DomainSampler, type IndividualSearch } from '@fb/core';
import type { Options } from './options.js';

/**
 * Placeholder search, to be replaced by the paper's algorithm: uniform random inputs over the
 * schema's domains, checked batch by batch with the shared counterfactual checker.
 */
export async function uniformRandomSearch({
  dataset,
  options,
  ctl,
  checker,
}: IndividualSearch<Options>): Promise<Record<string, unknown>> {
  const rng = ctl.rng.fork('uniform');
  const sampler = new DomainSampler(dataset.schema);
  const d = dataset.d;
  const batch = new Float64Array(options.batchSize * d);
  let drawn = 0;
  while (drawn < options.samples) {
    if (await ctl.checkpoint({ phase: 'uniform', done: drawn, total: options.samples })) break;
    const m = Math.min(options.batchSize, options.samples - drawn);
    const rows = batch.subarray(0, m * d);
    sampler.fill(rng, rows);
    const { status } = checker.check(rows);
    drawn += m;
    // The checker skips inputs only once a tested-sample or query budget is spent.
    if (status.includes(CheckStatus.Skipped)) {
      ctl.shouldStop();
      break;
    }
  }
  return { drawn };
}
