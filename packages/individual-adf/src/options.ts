import { type OptionsSchema, type VariantMode, variantModeOption } from '@fb/core';

/** Which search ADF runs: the paper's, or EIDIG's refinement of it. */
export type AdfRefinement = 'none' | 'eidig';

/** How a local walk decides whether to move to a candidate (ADF's basin-hopping rule, or stricter). */
export type AdfAcceptance = 'metropolis' | 'greedy';

export interface AdfOptions {
  /** Seeds taken from the data, round-robin over the clusters. */
  maxGlobal: number;
  /** Local steps from each discriminatory seed. */
  maxLocal: number;
  /** Gradient steps per seed in the global phase. */
  maxIter: number;
  clusters: number;
  globalStepSize: number;
  localStepSize: number;
  continuousSteps: number;
  acceptance: AdfAcceptance;
  temperature: number;
  refinement: AdfRefinement;
  momentumDecay: number;
  updateInterval: number;
  batchSize: number;
  variantMode: VariantMode;
}

export const optionsSchema: OptionsSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    maxGlobal: {
      type: 'integer',
      minimum: 1,
      default: 1000,
      description:
        'Seeds for the global phase (max_global of the original code), taken round-robin from the k-means clusters of the data; at most the number of rows.',
    },
    maxLocal: {
      type: 'integer',
      minimum: 0,
      default: 1000,
      description:
        'Local steps from each new discriminatory input of the global phase (max_local); 0 runs the global phase only.',
    },
    maxIter: {
      type: 'integer',
      minimum: 0,
      default: 10,
      description:
        'Gradient steps per seed in the global phase (max_iter); a seed is checked at most maxIter + 1 times.',
    },
    clusters: {
      type: 'integer',
      minimum: 1,
      default: 4,
      description: 'Number of k-means clusters of the data the seeds are drawn from (cluster_num).',
    },
    globalStepSize: {
      type: 'number',
      exclusiveMinimum: 0,
      default: 1,
      description:
        'Global step s_g, in grid steps of each attribute (categories: 1; continuous attributes: (max - min) / continuousSteps).',
    },
    localStepSize: {
      type: 'number',
      exclusiveMinimum: 0,
      default: 1,
      description: 'Local step s_l, in the same units as globalStepSize.',
    },
    continuousSteps: {
      type: 'integer',
      minimum: 1,
      default: 100,
      description: 'Continuous attributes without a step move by stepSize x (max - min) / continuousSteps.',
    },
    acceptance: {
      type: 'string',
      enum: ['metropolis', 'greedy'],
      default: 'metropolis',
      description:
        "ADF local walk: 'metropolis' is basin-hopping's test on the objective '0 if discriminatory, else 1' (a non-discriminatory candidate is taken from a discriminatory point with probability exp(-1/temperature)); 'greedy' moves only to discriminatory candidates. Ignored with refinement 'eidig', which returns to the seed after a failure.",
    },
    temperature: {
      type: 'number',
      exclusiveMinimum: 0,
      default: 1,
      description: 'Metropolis temperature of the local walk (basin-hopping T = 1.0 in the original).',
    },
    refinement: {
      type: 'string',
      enum: ['none', 'eidig'],
      default: 'none',
      description:
        "'none': ADF as published. 'eidig': EIDIG (Zhang et al., ISSTA 2021): momentum on the output gradients in the global phase, and a local phase that reuses the probabilities computed at the seed, returns to the seed after each failure and refreshes them after updateInterval consecutive successes.",
    },
    momentumDecay: {
      type: 'number',
      minimum: 0,
      maximum: 1,
      default: 0.5,
      description: "Refinement 'eidig': momentum decay of the global phase (EIDIG's decay).",
    },
    updateInterval: {
      type: 'integer',
      minimum: 0,
      default: 5,
      description:
        "Refinement 'eidig': consecutive local successes after which the probabilities are recomputed at the current input (EIDIG-5); 0 never recomputes them (EIDIG-INF).",
    },
    batchSize: {
      type: 'integer',
      minimum: 1,
      maximum: 4096,
      default: 64,
      description:
        'Seeds (and then their local walks) advanced in lockstep, so that each step makes one model query and one gradient call for the whole batch.',
    },
    variantMode: variantModeOption(),
  },
};

/**
 * Named option sets. `original` holds the defaults of the original ADF code (also the schema's
 * defaults); `clearbias` the settings of the Python re-implementation suite described with the method.
 */
export const adfPresets = {
  original: { maxGlobal: 1000, maxLocal: 1000, clusters: 4, globalStepSize: 1, localStepSize: 1 },
  clearbias: { maxGlobal: 2000, maxLocal: 2000, clusters: 10, globalStepSize: 0.4, localStepSize: 0.4 },
} as const satisfies Record<string, Partial<AdfOptions>>;
