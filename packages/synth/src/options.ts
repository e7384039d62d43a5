import type { OptionsSchema } from '@fb/core';

/** A marginal declared for one attribute (prescriptive mode). */
export interface MarginalSpec {
  /** Discrete attributes: probability of each domain value, in domain order. */
  probabilities?: number[];
  /** Continuous attributes: values at equally spaced probabilities 0, 1/(m-1), ..., 1. */
  quantiles?: number[];
}

/** A predefined pair: both subgroups as conjunctions of core conditions; optional bias of side A. */
export interface PairSpec {
  a: import('@fb/core').Condition[];
  b: import('@fb/core').Condition[];
  bias?: number;
}

/** Options of `generate`; every one has a documented default (see `synthOptionsSchema`). */
export interface SynthOptions {
  seed: number | string;
  source: import('@fb/core').Dataset | null;
  schema: import('@fb/core').Schema | null;
  attributes: number;
  protectedShare: number;
  minArity: number;
  maxArity: number;
  continuousShare: number;
  marginals: (MarginalSpec | null)[] | null;
  correlation: number[][] | null;
  correlationStrength: number;
  seedRows: number;
  pairs: number;
  predefinedPairs: PairSpec[];
  minIntersectionality: number;
  maxIntersectionality: number;
  minGranularity: number;
  maxGranularity: number;
  minSimilarity: number;
  maxSimilarity: number;
  valueSampling: 'marginal' | 'uniform';
  continuousBins: number;
  maxAttempts: number;
  disjointSubgroups: boolean;
  minGroupSize: number;
  maxGroupSize: number;
  minImbalance: number;
  maxImbalance: number;
  backgroundShare: number;
  membership: 'quota' | 'population';
  rows: number | null;
  maxCellShare: number;
  minBias: number;
  maxBias: number;
  biasSign: 'negative' | 'positive' | 'random';
  minAleatoric: number;
  maxAleatoric: number;
  weights: 'auto' | 'fit' | 'random' | (number | number[])[];
  intercept: number | null;
  signal: number;
  baseRate: number;
  fitRows: number;
  ridge: number;
  ensembleSize: number;
  ensembleTrainingRows: number;
  labels: 'bernoulli' | 'threshold';
  threshold: number;
  maxProtectedCombinations: number;
  shuffle: boolean;
  threads: number | 'auto';
  referenceCompat: boolean;
  compatOutcomeCategories: number;
}

const num = (description: string, def: number, min?: number, max?: number) => ({
  type: 'number',
  description,
  default: def,
  ...(min !== undefined ? { minimum: min } : {}),
  ...(max !== undefined ? { maximum: max } : {}),
});
const int = (description: string, def: number, min?: number, max?: number) => ({
  ...num(description, def, min, max),
  type: 'integer',
});

const condition = {
  oneOf: [
    {
      type: 'object',
      properties: {
        attribute: { type: 'string' },
        values: { type: 'array', items: { type: 'number' }, minItems: 1 },
      },
      required: ['attribute', 'values'],
      additionalProperties: false,
    },
    {
      type: 'object',
      properties: {
        attribute: { type: 'string' },
        min: { type: 'number' },
        max: { type: 'number' },
        maxInclusive: { type: 'boolean' },
      },
      required: ['attribute', 'min', 'max', 'maxInclusive'],
      additionalProperties: false,
    },
  ],
};

/** JSON Schema of the generator's options (draft 2020-12); `resolveOptions` fills the defaults. */
export const synthOptionsSchema: OptionsSchema = {
  type: 'object',
  properties: {
    seed: {
      type: ['integer', 'string'],
      description: 'seed of every random draw: one seed, one dataset, bit for bit',
      default: 0,
    },
    source: {
      type: ['object', 'null'],
      description:
        'descriptive mode: a Dataset to fit the copula (and, with weights "auto"/"fit", the outcome weights) to; null = prescriptive mode',
      default: null,
    },
    schema: {
      type: ['object', 'null'],
      description:
        'prescriptive mode: the abstract schema; null = a schema generated from attributes/protectedShare/arity',
      default: null,
    },
    attributes: int('generated schema: number of attributes', 10, 2, 1000),
    protectedShare: num('generated schema: share of protected attributes (at least one)', 0.2, 0, 1),
    minArity: int('generated schema: fewest values of a discrete attribute', 2, 2),
    maxArity: int('generated schema: most values of a discrete attribute', 5, 2),
    continuousShare: num(
      'generated schema: share of non-protected attributes that are continuous in [0, 1]',
      0,
      0,
      1,
    ),
    marginals: {
      type: ['array', 'null'],
      items: {
        type: ['object', 'null'],
        properties: {
          probabilities: { type: 'array', items: { type: 'number' } },
          quantiles: { type: 'array', items: { type: 'number' } },
        },
        additionalProperties: false,
      },
      description:
        'prescriptive mode: one marginal per attribute ({probabilities} for discrete, {quantiles} for continuous) or null entries; null = random Dirichlet(1) probabilities and random skewed quantiles',
      default: null,
    },
    correlation: {
      type: ['array', 'null'],
      items: { type: 'array', items: { type: 'number' } },
      description:
        'prescriptive mode: target latent correlation (d x d), repaired to positive definite if needed; null = a random one-factor-pair correlation scaled by correlationStrength',
      default: null,
    },
    correlationStrength: num(
      'prescriptive mode without a declared correlation: weight of the random common structure (0 = independent)',
      0.5,
      0,
      0.99,
    ),
    seedRows: int(
      "prescriptive mode: 0 = use the declared copula directly; > 0 = draw this many seed rows from it and fit the copula on them (the paper's route)",
      0,
      0,
    ),
    pairs: int('number of random subgroup pairs (in addition to predefinedPairs)', 20, 0),
    predefinedPairs: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          a: { type: 'array', items: condition, minItems: 1 },
          b: { type: 'array', items: condition, minItems: 1 },
          bias: { type: 'number' },
        },
        required: ['a', 'b'],
        additionalProperties: false,
      },
      description:
        'pairs given explicitly as core Conditions (single values or ranges); bias of side A drawn if absent',
      default: [],
    },
    minIntersectionality: int('fewest protected attributes defining a pair', 1, 1),
    maxIntersectionality: int(
      'most protected attributes defining a pair (capped at the protected attributes available)',
      3,
      1,
    ),
    minGranularity: int('fewest non-protected attributes defining a pair', 0, 0),
    maxGranularity: int('most non-protected attributes defining a pair (capped at those available)', 3, 0),
    minSimilarity: num(
      'lower end of the similarity s ~ U(min, max): share of defining values S_B keeps from S_A',
      0,
      0,
      1,
    ),
    maxSimilarity: num('upper end of the similarity range', 1, 0, 1),
    valueSampling: {
      type: 'string',
      enum: ['marginal', 'uniform'],
      description:
        'how defining values are drawn: from the marginal, or uniformly over values with positive probability',
      default: 'marginal',
    },
    continuousBins: int(
      'a continuous defining attribute is constrained to one of this many equal-probability ranges',
      4,
      2,
    ),
    maxAttempts: int(
      'candidate draws per pair before giving up on an identical or nested subgroup (population membership: candidate shapes, each with all its value assignments)',
      200,
      1,
    ),
    disjointSubgroups: {
      type: 'boolean',
      description:
        'no two subgroups of different pairs may share a row (a candidate that could is redrawn): every planted subgroup is then exactly the rows its bias shifted',
      default: false,
    },
    minGroupSize: int(
      'fewest rows of a pair (both subgroups; population membership: of each subgroup)',
      20,
      2,
    ),
    maxGroupSize: int('most rows of a pair', 200, 2),
    minImbalance: num(
      'lower end of the size imbalance f ~ U(min, max); |S_A| = floor((n + floor(n f)) / 2)',
      0,
      0,
      1,
    ),
    maxImbalance: num('upper end of the size imbalance', 0.5, 0, 1),
    backgroundShare: num(
      'share of all rows that are background individuals outside every subgroup',
      0.2,
      0,
      0.99,
    ),
    membership: {
      type: 'string',
      enum: ['quota', 'population'],
      description:
        'quota = each subgroup gets its own rows by conditional sampling (minGroupSize..maxGroupSize per pair) and background rows lie outside every subgroup; population = `rows` rows drawn unconditionally first, a subgroup being the rows that meet its conditions (each subgroup minGroupSize..maxGroupSize rows and at most maxCellShare of its protected cell; backgroundShare not enforced)',
      default: 'quota',
    },
    rows: {
      type: ['integer', 'null'],
      minimum: 1,
      description:
        'population membership: rows of the data set; null = round((pairs + predefined pairs)·(minGroupSize + maxGroupSize) / (1 − backgroundShare)); ignored in quota mode',
      default: null,
    },
    maxCellShare: {
      type: 'number',
      exclusiveMinimum: 0,
      maximum: 1,
      description:
        "population membership: largest share of its protected cell (the rows meeting its protected conditions) a random pair's subgroup may hold; a candidate holding more is redrawn",
      default: 0.25,
    },
    minBias: num('lower end of the injected logit bias magnitude of S_A (S_B gets none)', 0.5, 0),
    maxBias: num('upper end of the bias magnitude', 2, 0),
    biasSign: {
      type: 'string',
      enum: ['negative', 'positive', 'random'],
      description: "sign of S_A's bias: negative = S_A disadvantaged",
      default: 'random',
    },
    minAleatoric: num('lower end of the per-pair aleatoric noise sd on the logit', 0.05, 0),
    maxAleatoric: num('upper end of the aleatoric noise sd', 0.3, 0),
    weights: {
      oneOf: [
        { type: 'string', enum: ['auto', 'fit', 'random'] },
        {
          type: 'array',
          items: { oneOf: [{ type: 'number' }, { type: 'array', items: { type: 'number' } }] },
        },
      ],
      description:
        'outcome weights W: "fit" = ridge logistic regression on the source; "random" = N(0, signal²/m); "auto" = fit with a source, else random; or one entry per attribute (a number per standard deviation, or one number per category); protected entries must be 0',
      default: 'auto',
    },
    intercept: {
      type: ['number', 'null'],
      description: 'outcome intercept b; null = fitted, or logit(baseRate) for random/declared weights',
      default: null,
    },
    signal: num('random weights: sd of the base logit', 1.5, 0),
    baseRate: num(
      'random/declared weights without intercept: favourable rate of the base model',
      0.5,
      0.001,
      0.999,
    ),
    fitRows: int('rows of the source used to fit W (a seeded subsample when larger)', 5000, 10),
    ridge: num('L2 penalty of the logistic fits', 1, 0),
    ensembleSize: int('ensemble members for the epistemic sigma (0 = none)', 10, 0),
    ensembleTrainingRows: int(
      'fresh rows each ensemble member is bootstrapped from (never dataset rows: the estimate is out-of-sample)',
      2000,
      10,
    ),
    labels: {
      type: 'string',
      enum: ['bernoulli', 'threshold'],
      description: 'labels drawn y ~ Bernoulli(p) or thresholded y = [p >= threshold]',
      default: 'bernoulli',
    },
    threshold: num(
      'decision threshold on the noise-free probability (and on p for thresholded labels)',
      0.5,
      0,
      1,
    ),
    maxProtectedCombinations: int('largest joint protected domain enumerated for counterfactuals', 4096, 2),
    shuffle: {
      type: 'boolean',
      description: 'shuffle the rows so that order reveals no membership',
      default: true,
    },
    threads: {
      oneOf: [
        { type: 'integer', minimum: 1 },
        { type: 'string', enum: ['auto'] },
      ],
      description:
        'threads of the conditional sampling, the calling one included ("auto" = one per core, up to 8); the output does not depend on it',
      default: 'auto',
    },
    referenceCompat: {
      type: 'boolean',
      description:
        "reproduce the Python version's 'optimal subgroups' generator (its semantics and quirks) instead",
      default: false,
    },
    compatOutcomeCategories: int(
      'referenceCompat: outcome bins K of the Python discretisation (it yields K + 1 classes)',
      6,
      1,
    ),
  },
};
