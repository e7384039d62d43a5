import type { OptionsSchema, Schema } from '@fb/core';

export interface OnnxClassifierOptions {
  nFeatures: number | null;
  nClasses: number | null;
  inputName: string | null;
  outputName: string | null;
  output: 'probabilities' | 'logits';
  batchSize: number;
  timeoutMs: number;
  description: string | null;
  schema: Schema | null;
}

export const onnxClassifierOptionsSchema = {
  type: 'object',
  properties: {
    nFeatures: {
      type: ['integer', 'null'],
      minimum: 1,
      default: null,
      description: 'Row width; null reads it from the input shape [batch, d] (an error when d is symbolic).',
    },
    nClasses: {
      type: ['integer', 'null'],
      minimum: 2,
      default: null,
      description:
        'Number of classes; null reads it from the output shape [batch, K] (a one-column or rank-1 output means two classes, the value being class 1).',
    },
    inputName: {
      type: ['string', 'null'],
      default: null,
      description: 'Model input fed with the rows; null takes the only input.',
    },
    outputName: {
      type: ['string', 'null'],
      default: null,
      description:
        'Model output read as class scores; null takes "probabilities" (skl2onnx), else the only tensor output.',
    },
    output: {
      type: 'string',
      enum: ['probabilities', 'logits'],
      default: 'probabilities',
      description:
        'What the output holds: probabilities (checked to lie in [0, 1] and sum to 1), or logits turned into probabilities by softmax (sigmoid for one column).',
    },
    batchSize: {
      type: 'integer',
      minimum: 1,
      default: 65536,
      description: 'Rows per session run.',
    },
    timeoutMs: {
      type: 'integer',
      minimum: 1,
      default: 600000,
      description: 'Synchronous classifier only: longest wait for one batch before a ModelError.',
    },
    description: {
      type: ['string', 'null'],
      default: null,
      description: 'Description recorded in results; null gives onnx(<file name or byte count>).',
    },
    schema: {
      type: ['object', 'null'],
      default: null,
      description:
        "The data's schema (@fb/core). With it, a model whose inputs are named after attributes (a scikit-learn pipeline exported by skl2onnx) gets one [batch, 1] tensor per input: category labels for string inputs, values for numeric ones; and class labels are matched to the outcome's labels.",
    },
  },
  additionalProperties: false,
} satisfies OptionsSchema;
