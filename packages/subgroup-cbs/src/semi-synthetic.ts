import {
  type Condition,
  createDataset,
  type Dataset,
  defineSchema,
  isDiscrete,
  OptionsError,
  type Rng,
} from '@fb/core';

/** Parameters of the semi-synthetic evaluation of seed 003, Section 4 (its defaults). */
export interface SemiSyntheticOptions {
  /** SD of the per-individual term of the true log-odds (σ_true). */
  sigmaTrue: number;
  /** SD of the prediction noise on the log-odds (σ_predict). */
  sigmaPredict: number;
  /** SD of the per-attribute-value weights of the true log-odds. */
  weightSd: number;
  /** Attributes S_bias is drawn on (n_bias). */
  nBias: number;
  /** Probability that each value of those attributes is in S_bias (p_bias). */
  pBias: number;
  /** Increase of the predicted log-odds in S_bias of the protected class (μ_sep). */
  muSep: number;
  /** Decrease of the true log-odds in S_bias of the protected class (μ_suf). */
  muSuf: number;
  /** Base-rate shift of both log-odds in S_bias of the protected class (δ). */
  delta: number;
}

export const SEMI_SYNTHETIC_DEFAULTS: SemiSyntheticOptions = {
  sigmaTrue: 0.6,
  sigmaPredict: 0.2,
  weightSd: 0.2,
  nBias: 2,
  pBias: 0.5,
  muSep: 0,
  muSuf: 0,
  delta: 0,
};

export interface SemiSyntheticData {
  /** The covariates with a synthetic outcome (1 = the positive outcome, favourable code 1). */
  dataset: Dataset;
  /** Synthetic predicted probabilities of outcome 1, per row. */
  p: Float64Array;
  /** The protected class: one value of one attribute. */
  protectedAttribute: string;
  protectedValue: number;
  /** S_bias as conditions on the other attributes. */
  biasConditions: Condition[];
  /** 1 for the protected rows in S_bias (the injected subgroup). */
  injected: Uint8Array;
}

const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));

/**
 * One semi-synthetic dataset (seed 003, Section 4): a random attribute value defines the protected
 * class; S_bias takes each value of `nBias` random other attributes with probability `pBias`; the true
 * log-odds are a sum of N(0, weightSd²) weights per attribute value plus N(0, σ_true²); the predicted
 * log-odds add N(0, σ_predict²). In S_bias of the protected class the predicted log-odds rise by μ_sep,
 * the true log-odds fall by μ_suf, and both rise by δ. Outcomes are drawn from the true log-odds.
 * Every attribute of `covariates` must be discrete.
 */
export function semiSynthetic(
  covariates: Dataset,
  options: Partial<SemiSyntheticOptions>,
  rng: Rng,
): SemiSyntheticData {
  const o = { ...SEMI_SYNTHETIC_DEFAULTS, ...options };
  const { n, d, x, schema } = covariates;
  schema.attributes.forEach((a) => {
    if (!isDiscrete(a)) {
      throw new OptionsError(
        'OPTIONS_INVALID',
        `attribute "${a.name}" is continuous: the generator needs discrete covariates`,
        {
          attribute: a.name,
        },
      );
    }
  });
  if (o.nBias >= d)
    throw new OptionsError('OPTIONS_INVALID', `nBias ${o.nBias} needs more than ${d} attributes`, {
      option: '/nBias',
    });
  const valuesOf = (j: number) =>
    [...new Set(Array.from({ length: n }, (_, i) => x[i * d + j]!))].sort((u, v) => u - v);
  const sensitive = rng.int(0, d - 1);
  const protectedValue = rng.choice(valuesOf(sensitive));
  const others = Array.from({ length: d }, (_, j) => j).filter((j) => j !== sensitive);
  const biasAttrs = rng.sample(others, o.nBias).sort((u, v) => u - v);
  const biasSets = biasAttrs.map((j) => {
    const values = valuesOf(j);
    for (;;) {
      const kept = values.filter(() => rng.next() < o.pBias);
      if (kept.length > 0) return new Set(kept);
    }
  });
  const weights = others.map((j) => new Map(valuesOf(j).map((v) => [v, rng.normal(0, o.weightSd)])));

  const y = new Int32Array(n);
  const p = new Float64Array(n);
  const injected = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    let truth = rng.normal(0, o.sigmaTrue);
    others.forEach((j, k) => {
      truth += weights[k]!.get(x[i * d + j]!)!;
    });
    let predicted = truth + rng.normal(0, o.sigmaPredict);
    const inBias =
      x[i * d + sensitive] === protectedValue && biasAttrs.every((j, k) => biasSets[k]!.has(x[i * d + j]!));
    if (inBias) {
      injected[i] = 1;
      truth += o.delta - o.muSuf;
      predicted += o.delta + o.muSep;
    }
    y[i] = rng.next() < sigmoid(truth) ? 1 : 0;
    p[i] = sigmoid(predicted);
  }
  const outcome = { name: 'synthetic_outcome', labels: ['0', '1'], favorable: 1 };
  const dataset = createDataset({
    schema: defineSchema({
      attributes: schema.attributes.map((a, j) => ({ ...a, protected: j === sensitive })),
      outcome,
    }),
    x,
    y,
    name: `${covariates.name ?? 'covariates'}-semi-synthetic`,
  });
  return {
    dataset,
    p,
    protectedAttribute: schema.attributes[sensitive]!.name,
    protectedValue,
    biasConditions: biasAttrs.map((j, k) => ({
      attribute: schema.attributes[j]!.name,
      values: [...biasSets[k]!].sort((u, v) => u - v),
    })),
    injected,
  };
}

/** Jaccard similarity |A ∩ B| / |A ∪ B| of two row masks (1 when both are empty). */
export function jaccard(a: Uint8Array, b: Uint8Array): number {
  let inter = 0;
  let union = 0;
  for (let i = 0; i < a.length; i++) {
    inter += a[i]! & b[i]!;
    union += a[i]! | b[i]!;
  }
  return union === 0 ? 1 : inter / union;
}
