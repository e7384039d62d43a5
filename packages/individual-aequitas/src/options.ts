import { gammaOption, type OptionsSchema, type VariantMode, variantModeOption } from '@fb/core';

/** Local-search strategy of AEQUITAS (paper §4). */
export type AequitasStrategy = 'random' | 'semi-directed' | 'fully-directed';

/** How a local walk decides whether to move to a candidate. */
export type AcceptanceRule = 'metropolis' | 'greedy';

export interface AequitasOptions {
  /** Inputs drawn uniformly from the domain in the global phase. */
  globalIterations: number;
  /** Where the global phase draws its inputs: the whole domain (the paper) or the data set's rows. */
  globalInputs: 'domain' | 'rows';
  /** Where a local move may go: anywhere in the domain (the paper) or within the data's support. */
  localMoves: 'domain' | 'support';
  /** Steps of the local walk started from each discriminatory global input. */
  localIterations: number;
  strategy: AequitasStrategy;
  /** Size of one local move, in grid steps (discrete) or in `(max - min) / continuousSteps` (continuous). */
  perturbationUnit: number;
  continuousSteps: number;
  /** Change of a direction probability after each directed step (times `perturbationUnit`). */
  deltaV: number;
  /** Change of an attribute's selection weight after each fully-directed step. */
  deltaPr: number;
  acceptance: AcceptanceRule;
  temperature: number;
  variantMode: VariantMode;
  /** Discrimination threshold γ on the favourable-class probability; 0 counts a changed decision. */
  gamma: number;
}

export const optionsSchema: OptionsSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    globalIterations: {
      type: 'integer',
      minimum: 1,
      default: 1000,
      description:
        'Number of inputs drawn uniformly from the schema domain in the global phase (global_iteration_limit of the original code).',
    },
    globalInputs: {
      type: 'string',
      enum: ['domain', 'rows'],
      default: 'domain',
      description:
        '"domain" (the paper): the global phase draws every attribute uniformly from its domain; "rows": it draws the data set\'s rows uniformly with replacement, so that the local walks start from inputs like the people in the data (a departure from the paper for audits that report realistic pairs).',
    },
    localMoves: {
      type: 'string',
      enum: ['domain', 'support'],
      default: 'domain',
      description:
        '"domain" (the paper): a local move changes one attribute by one unit anywhere in its domain; "support": it moves to the next value of that attribute the data set\'s rows hold and sets the attributes it determines on every row (education-num with education) to their values, and a move that would leave the rows\' support is not made; with globalInputs "rows", every input a walk visits is in the support (a departure from the paper for audits that report realistic pairs).',
    },
    localIterations: {
      type: 'integer',
      minimum: 0,
      default: 1000,
      description:
        'Steps of the local walk around each discriminatory input found by the global phase (local_iteration_limit); 0 runs the global phase only.',
    },
    strategy: {
      type: 'string',
      enum: ['random', 'semi-directed', 'fully-directed'],
      default: 'fully-directed',
      description:
        'Local step function: random attribute and direction; semi-directed (learned direction per attribute); fully-directed (learned direction and learned attribute weights).',
    },
    perturbationUnit: {
      type: 'number',
      exclusiveMinimum: 0,
      default: 1,
      description:
        'Size of one local move: grid steps for discrete attributes (the result is snapped onto the grid), multiples of (max - min) / continuousSteps for continuous ones.',
    },
    continuousSteps: {
      type: 'integer',
      minimum: 1,
      default: 100,
      description:
        'Continuous attributes without a step move by perturbationUnit x (max - min) / continuousSteps.',
    },
    deltaV: {
      type: 'number',
      minimum: 0,
      maximum: 1,
      default: 0.001,
      description:
        'Change of the per-attribute direction probability after each semi- or fully-directed step (multiplied by perturbationUnit, as in the original code).',
    },
    deltaPr: {
      type: 'number',
      minimum: 0,
      exclusiveMaximum: 1,
      default: 0.001,
      description:
        'Fully-directed only: added to the selection weight of the chosen attribute when its move found discrimination, subtracted (floored at 0) otherwise; weights are renormalised after each step.',
    },
    acceptance: {
      type: 'string',
      enum: ['metropolis', 'greedy'],
      default: 'metropolis',
      description:
        'metropolis: basin-hopping acceptance on the 0/1 objective (a non-discriminatory candidate is accepted from a discriminatory point with probability exp(-1/temperature)); greedy: move only to discriminatory candidates.',
    },
    temperature: {
      type: 'number',
      exclusiveMinimum: 0,
      default: 1,
      description: 'Metropolis temperature (basin-hopping T; the original uses 1.0).',
    },
    variantMode: variantModeOption(),
    gamma: gammaOption(),
  },
};
