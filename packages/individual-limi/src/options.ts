import { type OptionsSchema, resolveOptions, type VariantMode, variantModeOption } from '@fb/core';

/** The generative model whose latent space LIMI searches. */
export type LimiGenerator = 'tvae' | 'vae' | 'pca';

export interface LimiOptions {
  generator: LimiGenerator;
  latentDim: number;
  hiddenUnits: number;
  epochs: number;
  trainSteps: number;
  gmmModes: number;
  learningRate: number;
  trainBatchSize: number;
  boundarySamples: number;
  boundaryShare: number;
  confidence: number;
  perClassLimit: number;
  svmC: number;
  svmLoss: 'squared-hinge' | 'hinge';
  svmMaxIter: number;
  lambda: number;
  maxTested: number;
  maxLatentVectors: number | null;
  probeBatchSize: number;
  naturalnessSample: number;
  variantMode: VariantMode;
}

export const optionsSchema: OptionsSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    generator: {
      type: 'string',
      enum: ['tvae', 'vae', 'pca'],
      default: 'tvae',
      description:
        "Generative model of the data with a latent space: 'tvae', a TVAE with CTGAN's mode-specific normalisation and conditional vector (the original's SDV family); 'vae', a plain tabular variational autoencoder trained with TensorFlow.js; 'pca', a linear-Gaussian generator from principal components (fast, for quick runs).",
    },
    latentDim: {
      type: 'integer',
      minimum: 1,
      default: 10,
      description:
        "Dimension of the latent noise (VAE and PCA: at most the width of the encoded data). The TVAE's latent vector is this noise followed by its condition vector.",
    },
    hiddenUnits: {
      type: 'integer',
      minimum: 1,
      default: 128,
      description: 'TVAE and VAE: units of the hidden layer of the encoder and of the decoder.',
    },
    epochs: {
      type: 'integer',
      minimum: 1,
      default: 30,
      description: 'VAE: passes over the data during training.',
    },
    trainSteps: {
      type: 'integer',
      minimum: 1,
      default: 1000,
      description:
        'TVAE: Adam steps of trainBatchSize rows (training-by-sampling), whatever the number of rows.',
    },
    gmmModes: {
      type: 'integer',
      minimum: 1,
      maximum: 16,
      default: 10,
      description: "TVAE: most Gaussian-mixture modes per numeric attribute (CTGAN's max_clusters).",
    },
    learningRate: {
      type: 'number',
      exclusiveMinimum: 0,
      default: 0.001,
      description: 'TVAE and VAE: Adam step size.',
    },
    trainBatchSize: {
      type: 'integer',
      minimum: 1,
      default: 256,
      description: 'TVAE and VAE: rows per training step.',
    },
    boundarySamples: {
      type: 'integer',
      minimum: 2,
      default: 100000,
      description:
        'Latent vectors sampled, decoded and labelled by the model to learn the surrogate boundary (the paper’s auxiliary set D_aux of 100K); under a query budget also at most boundaryShare of it.',
    },
    boundaryShare: {
      type: 'number',
      exclusiveMinimum: 0,
      maximum: 1,
      default: 0.1,
      description:
        'Under a budget of model queries (budget.maxQueries), the labelling of the boundary samples stops once it has spent this share of the budget in distinct queries; the probes get the rest.',
    },
    confidence: {
      type: 'number',
      minimum: 0,
      maximum: 1,
      default: 0.7,
      description:
        'Only samples whose predicted class has probability above this train the surrogate boundary (needs predictProba; without it every sample is used).',
    },
    perClassLimit: {
      type: 'integer',
      minimum: 1,
      default: 50000,
      description: 'Most confident samples kept per class for the surrogate boundary.',
    },
    svmC: {
      type: 'number',
      exclusiveMinimum: 0,
      default: 1,
      description: 'C of the linear SVM fitted in the latent space (LinearSVC’s default).',
    },
    svmLoss: {
      type: 'string',
      enum: ['squared-hinge', 'hinge'],
      default: 'squared-hinge',
      description:
        'Loss of the latent SVM: LinearSVC’s default squared hinge, as the original, or the hinge.',
    },
    svmMaxIter: {
      type: 'integer',
      minimum: 1,
      default: 500000,
      description:
        'Most passes of the SVM’s dual coordinate descent (the original’s LinearSVC max_iter). Under a time budget the passes are also limited to what half the remaining time allows; extras.boundary says whether the fit converged and what stopped it.',
    },
    lambda: {
      type: 'number',
      minimum: 0,
      default: 0.3,
      description:
        'Probe offset: each latent vector is projected onto the surrogate boundary (z0), and z0 ± lambda·w (unit normal w) are probed too.',
    },
    maxTested: {
      type: 'integer',
      minimum: 1,
      default: 1000000,
      description:
        'Probing stops after this many distinct tested inputs (new to the counterfactual checker): the original’s 1,000,000 test cases.',
    },
    maxLatentVectors: {
      type: ['integer', 'null'],
      minimum: 1,
      default: 10000000,
      description:
        'Probing also stops after this many latent vectors (the original’s other cap, 1,000,000 in some of its scripts). The default, ten times that, only ends runs without a time budget whose generator stops producing new inputs; null: no such cap.',
    },
    probeBatchSize: {
      type: 'integer',
      minimum: 1,
      maximum: 65536,
      default: 1024,
      description: 'Latent vectors probed per batch (three checker calls per batch: z0, then +, then -).',
    },
    naturalnessSample: {
      type: 'integer',
      minimum: 0,
      default: 500,
      description:
        'Generated rows (and discriminatory rows) whose distance to the nearest real row is measured for the naturalness report; 0 skips it.',
    },
    variantMode: variantModeOption(
      'Counterfactual variants checked per candidate: every combination of protected values, or each protected attribute changed alone.',
    ),
  },
};

/** Options with their defaults filled in (throws OptionsError on unknown or ill-typed ones). */
export function limiOptions(options: Partial<LimiOptions> = {}): LimiOptions {
  return resolveOptions<LimiOptions>(optionsSchema, options);
}
