import {
  DomainSampler,
  defineIndividualDetector,
  defineSubgroupDetector,
  domainValues,
  type IndividualDetector,
  memberMask,
  type SubgroupDetector,
  type SubgroupFinding,
} from '@fb/core';

export interface RandomOptions {
  samples: number;
  batchSize: number;
}

/** Random testing: uniform inputs from the domain, each checked by the shared checker. */
export const randomTesting: IndividualDetector<RandomOptions> = defineIndividualDetector<RandomOptions>({
  id: 'random-testing',
  version: '0.0.0',
  access: 'black-box',
  description: 'uniform random inputs, counterfactually checked',
  optionsSchema: {
    type: 'object',
    properties: {
      samples: { type: 'integer', minimum: 1, default: 300, description: 'inputs to draw' },
      batchSize: { type: 'integer', minimum: 1, default: 64, description: 'inputs per model batch' },
    },
  },
  async search({ dataset, options, ctl, checker }) {
    const rng = ctl.rng.fork('random');
    const sampler = new DomainSampler(dataset.schema);
    for (let done = 0; done < options.samples; done += options.batchSize) {
      if (await ctl.checkpoint({ phase: 'sample', done, total: options.samples })) break;
      const m = Math.min(options.batchSize, options.samples - done);
      const x = new Float64Array(m * dataset.d);
      sampler.fill(rng, x);
      checker.check(x);
    }
    return {};
  },
});

export interface GapOptions {
  minSize: number;
  spinSeconds: number;
}

/** Reports each protected value whose favourable rate is below the overall rate. */
export const protectedGaps: SubgroupDetector<GapOptions> = defineSubgroupDetector<GapOptions>({
  id: 'protected-gaps',
  version: '0.0.0',
  access: 'data-only',
  description: 'protected values with a lower favourable rate',
  requiresModel: false,
  optionsSchema: {
    type: 'object',
    properties: {
      minSize: { type: 'integer', minimum: 1, default: 5, description: 'smallest subgroup reported' },
      spinSeconds: {
        type: 'number',
        minimum: 0,
        default: 0,
        description: 'extra busy work, to test budgets',
      },
    },
  },
  async scan({ dataset, options, ctl }) {
    const fav = dataset.schema.outcome.favorable;
    let total = 0;
    for (let i = 0; i < dataset.n; i++) total += dataset.y[i] === fav ? 1 : 0;
    const overall = total / dataset.n;
    const found: Omit<SubgroupFinding, 'rank'>[] = [];
    for (const a of dataset.schema.attributes.filter((a) => a.protected)) {
      for (const v of domainValues(a)) {
        const conditions = [{ attribute: a.name, values: [v] }];
        const mask = memberMask(dataset, conditions);
        let size = 0;
        let fav1 = 0;
        for (let i = 0; i < dataset.n; i++) {
          size += mask[i]!;
          if (mask[i] && dataset.y[i] === fav) fav1++;
        }
        if (size < options.minSize || fav1 / size >= overall) continue;
        found.push({
          conditions,
          size,
          score: overall - fav1 / size,
          effect: fav1 / size - overall,
          pValue: null,
          direction: 'lower',
          details: {},
        });
      }
    }
    const until = performance.now() + options.spinSeconds * 1000;
    while (performance.now() < until) if (await ctl.checkpoint({ phase: 'spin' })) break;
    found.sort((a, b) => b.score - a.score);
    return { subgroups: found.map((s, k) => ({ ...s, rank: k + 1 })) };
  },
});
