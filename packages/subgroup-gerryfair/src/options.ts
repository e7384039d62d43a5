import type { OptionsSchema } from '@fb/core';

export type FairnessDefinition = 'FP' | 'FN';
/** The side of the baseline error rate a group's rate lies on. */
export type Side = 'higher' | 'lower';

export interface Options {
  fairnessDefinition: FairnessDefinition;
  direction: 'both' | Side;
  groupAttributes: string[] | null;
  predictions: 'labels' | 'probabilities';
  gamma: number;
  permutations: number;
}

export const optionsSchema: OptionsSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    fairnessDefinition: {
      type: 'string',
      enum: ['FP', 'FN'],
      default: 'FP',
      description:
        'Error rate audited (the reference default FP): "FP" = rate of favourable predictions among rows with an unfavourable outcome; "FN" = rate of unfavourable predictions among rows with the favourable outcome.',
    },
    direction: {
      type: 'string',
      enum: ['both', 'higher', 'lower'],
      default: 'both',
      description:
        '"both": the reference auditor, which returns whichever side (group error rate above or below the baseline) has the larger gamma-unfairness; "higher" / "lower": audit one side only, as the CBS paper (appendix B.1) adapts it.',
    },
    groupAttributes: {
      type: ['array', 'null'],
      items: { type: 'string' },
      minItems: 1,
      uniqueItems: true,
      default: null,
      description:
        'Attributes X′ the linear threshold groups are defined over; null = the attributes the schema marks protected.',
    },
    predictions: {
      type: 'string',
      enum: ['labels', 'probabilities'],
      default: 'labels',
      description:
        "What is audited: the model's predicted labels (1 when the favourable class is predicted), or its probability of the favourable class (needs predictProba).",
    },
    gamma: {
      type: 'number',
      minimum: 0,
      default: 0.01,
      description:
        'Fairness tolerance (the reference default 0.01): a group is reported only when its gamma-unfairness alpha·beta is positive and at least gamma.',
    },
    permutations: {
      type: 'integer',
      minimum: 0,
      default: 99,
      description:
        'Permutations of the audited predictions among the audited rows behind the p-value of the gamma-unfairness (0: no test, pValue null).',
    },
  },
};
