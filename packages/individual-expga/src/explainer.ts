import { clampToDomain, type Dataset, type Schema } from '@fb/core';
import { factorRidge, RidgeSolver } from '@fb/models';
import type { Draws } from './draws.js';

/**
 * A LIME-style local linear explanation (Ribeiro et al., KDD 2016, tabular explainer without
 * discretisation), computed for many inputs with batched model queries.
 *
 * Perturbed samples are drawn from the training marginals, not around the input (LIME's default):
 * a numeric attribute from N(mean, sd) snapped onto its domain, a categorical one from its observed
 * frequencies. The first sample is the input itself. Each sample is weighted by the exponential
 * kernel sqrt(exp(-d² / width²)) of its Euclidean distance to the input in standardised space
 * (categorical attributes as 0/1 "same value as the input"), width = 0.75 sqrt(d); a weighted ridge
 * regression of the model's score on those features gives one coefficient per attribute.
 */
export class LocalExplainer {
  readonly d: number;
  readonly samples: number;
  private readonly schema: Schema;
  private readonly categorical: Uint8Array;
  private readonly mean: Float64Array;
  private readonly sd: Float64Array;
  /** Observed frequency of each code, per categorical attribute (empty for numeric ones). */
  private readonly frequencies: Float64Array[];
  private readonly width: number;
  private readonly alpha: number;
  private readonly z: Float64Array;
  private readonly w: Float64Array;

  constructor(dataset: Dataset, samples: number, alpha: number) {
    const { schema, n, d, x } = dataset;
    this.schema = schema;
    this.d = d;
    this.samples = samples;
    this.alpha = alpha;
    this.width = 0.75 * Math.sqrt(d);
    this.categorical = Uint8Array.from(schema.attributes, (a) => (a.kind === 'categorical' ? 1 : 0));
    this.mean = new Float64Array(d);
    this.sd = new Float64Array(d);
    this.frequencies = schema.attributes.map((a) =>
      a.kind === 'categorical' ? new Float64Array(a.categories!.length) : new Float64Array(0),
    );
    for (let j = 0; j < d; j++) {
      let s = 0;
      for (let i = 0; i < n; i++) s += x[i * d + j]!;
      const mean = s / n;
      let v = 0;
      for (let i = 0; i < n; i++) v += (x[i * d + j]! - mean) ** 2;
      this.mean[j] = mean;
      // A constant column: LIME's scaler falls back to a scale of 1.
      this.sd[j] = Math.sqrt(v / n) || 1;
      if (this.categorical[j]) for (let i = 0; i < n; i++) this.frequencies[j]![x[i * d + j]!]!++;
    }
    this.z = new Float64Array(samples * d);
    this.w = new Float64Array(samples);
  }

  /** Write the `samples` perturbed rows of the input `x[off..]` at `out[outOff..]`; the first is the input. */
  perturb(rng: Draws, x: Float64Array, off: number, out: Float64Array, outOff: number): void {
    const { d, schema } = this;
    out.set(x.subarray(off, off + d), outOff);
    for (let s = 1; s < this.samples; s++) {
      const base = outOff + s * d;
      for (let j = 0; j < d; j++) {
        out[base + j] = this.categorical[j]
          ? rng.weightedIndex(this.frequencies[j]!)
          : clampToDomain(schema.attributes[j]!, rng.normal(this.mean[j]!, this.sd[j]!));
      }
    }
  }

  /**
   * Coefficients of the local linear model for the input whose perturbed rows are
   * `rows[off..]` (first row = input) and whose model scores are `score[scoreOff..]`; null when
   * `shouldStop`, polled by the ridge factorisation (every millisecond or so of it), said stop.
   */
  explain(
    rows: Float64Array,
    off: number,
    score: Float64Array,
    scoreOff: number,
    shouldStop?: () => boolean,
  ): Float64Array | null {
    const { d, samples, z, w } = this;
    for (let s = 0; s < samples; s++) {
      let dist = 0;
      for (let j = 0; j < d; j++) {
        const v = rows[off + s * d + j]!;
        const f = this.categorical[j] ? (v === rows[off + j]! ? 1 : 0) : (v - this.mean[j]!) / this.sd[j]!;
        z[s * d + j] = f;
        const diff = f - z[j]!;
        dist += diff * diff;
      }
      w[s] = Math.sqrt(Math.exp(-dist / (this.width * this.width)));
    }
    const options = { alpha: this.alpha, sampleWeight: w };
    const factor = factorRidge(z, d, options, shouldStop);
    if (!factor) return null;
    return new RidgeSolver(z, d, options, factor).fit(score.subarray(scoreOff, scoreOff + samples)).weights;
  }
}

/**
 * 0-based position of attribute `j` when attributes are sorted by decreasing |coefficient|, ties
 * kept in attribute order (a stable sort, as LIME's ranking).
 */
export function rankOf(coef: Float64Array, j: number): number {
  const c = Math.abs(coef[j]!);
  let rank = 0;
  for (let k = 0; k < coef.length; k++) {
    const a = Math.abs(coef[k]!);
    if (a > c || (a === c && k < j)) rank++;
  }
  return rank;
}
