import {
  bounds,
  CheckStatus,
  DomainSampler,
  defineIndividualDetector,
  type IndividualSearch,
  keyResolution,
  OptionsError,
  type Schema,
} from '@fb/core';
import { VERSION } from './version.js';

export interface UniformDomainOptions {
  /** Inputs drawn and checked per model call. */
  batchSize: number;
  /** Most inputs drawn; null: until a budget (or an abort) stops the run. */
  inputs: number | null;
}

/**
 * How many distinct tested samples the domain holds: the product over non-protected attributes of
 * their cells at the checker's key resolution (Infinity when it is beyond a double's reach).
 */
function testedSamplesInDomain(schema: Schema): number {
  let cells = 1;
  for (const a of schema.attributes) {
    if (a.protected) continue;
    const [lo, hi] = bounds(a);
    cells *= Math.round((hi - lo) / keyResolution(a)) + 1;
  }
  return cells;
}

/**
 * A floor (an output that knows nothing about where discrimination lies): inputs drawn uniformly from
 * the schema's domain (core's `DomainSampler`: each attribute independently, a uniform value of a
 * discrete one, a uniform real in [min, max] of a continuous one), each checked with every protected
 * variant through the shared checker, batch after batch, until the budget (`maxQueries`, `maxTested`,
 * `maxSeconds`), the `inputs` cap, an abort, or every tested sample of the domain has been checked.
 * It asks the model through the counting wrapper like any method, so it is matched to a method on
 * queries, tested samples or seconds.
 */
async function drawUniform({ dataset, options, ctl, checker }: IndividualSearch<UniformDomainOptions>) {
  const { budget } = ctl;
  if (
    options.inputs === null &&
    budget.maxSeconds === undefined &&
    budget.maxTested === undefined &&
    budget.maxQueries === undefined &&
    ctl.signal === undefined
  ) {
    throw new OptionsError(
      'OPTIONS_INVALID',
      'uniform-domain draws until a budget stops it: give budget.maxSeconds, maxTested or maxQueries, an abort signal, or the option inputs',
      { option: '/inputs' },
    );
  }
  const rng = ctl.rng.fork('uniform-domain');
  const sampler = new DomainSampler(dataset.schema);
  const limit = options.inputs ?? Number.POSITIVE_INFINITY;
  const domain = testedSamplesInDomain(dataset.schema);
  const batch = new Float64Array(options.batchSize * dataset.d);
  let drawn = 0;
  while (drawn < limit && checker.tsn < domain) {
    if (await ctl.checkpoint({ phase: 'draw', done: drawn, total: options.inputs ?? undefined })) break;
    const m = Math.min(options.batchSize, limit - drawn);
    const x = batch.subarray(0, m * dataset.d);
    sampler.fill(rng, x);
    const { status } = checker.check(x);
    drawn += m;
    if (status.includes(CheckStatus.Skipped)) {
      ctl.shouldStop();
      break;
    }
  }
  return { inputsDrawn: drawn, domainExhausted: checker.tsn >= domain };
}

export const uniformDomain = defineIndividualDetector<UniformDomainOptions>({
  id: 'uniform-domain',
  version: VERSION,
  access: 'black-box',
  description:
    'Floor: inputs drawn uniformly from the schema’s domain, each checked with every protected variant, until the budget.',
  optionsSchema: {
    type: 'object',
    additionalProperties: false,
    properties: {
      batchSize: {
        type: 'integer',
        minimum: 1,
        default: 1024,
        description: 'inputs drawn and checked per model call',
      },
      inputs: {
        type: ['integer', 'null'],
        minimum: 1,
        default: null,
        description:
          'most inputs drawn; null: until budget.maxSeconds, maxTested or maxQueries (or an abort) stops the run, which then needs one of them',
      },
    },
  },
  search: drawUniform,
});
