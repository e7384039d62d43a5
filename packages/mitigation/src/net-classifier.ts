import { type Classifier, DataError, type Dataset, RunController } from '@fb/core';
import { type Subgroups, subgroupsOf } from '@fb/metrics';
import type { FeatureEncoder } from '@fb/models';
import { loadTensorflow } from '@fb/tensorflow';
import {
  type Dense,
  type EncodedRows,
  encodeBatch,
  encodeRows,
  PREDICT_BATCH,
  type Tensor,
  type Tf,
} from './tf-nets.js';

/**
 * A binary classifier whose network reads the encoded rows and gives the logit of the favourable outcome;
 * subclasses supply the network (`logit`) and own its layers.
 */
export abstract class NetClassifier implements Classifier {
  readonly nFeatures: number;
  readonly nClasses = 2;
  abstract readonly description: string;
  protected readonly tf: Tf;
  protected readonly encoder: FeatureEncoder;
  private readonly favorable: number;
  private readonly netLayers: readonly Dense[];

  constructor(tf: Tf, encoder: FeatureEncoder, favorable: number, layers: readonly Dense[]) {
    this.tf = tf;
    this.encoder = encoder;
    this.favorable = favorable;
    this.netLayers = layers;
    this.nFeatures = encoder.nFeatures;
  }

  /** The logit of the favourable outcome for a batch of encoded rows. */
  protected abstract logit(input: Tensor): Tensor;

  /** `f` applied to the encoded rows of `x` in batches: n x width, row-major. */
  protected forward(x: Float64Array, width: number, f: (input: Tensor) => Tensor): Float32Array {
    const n = x.length / this.nFeatures;
    const out = new Float32Array(n * width);
    const { tf } = this;
    for (let lo = 0; lo < n; lo += PREDICT_BATCH) {
      const hi = Math.min(n, lo + PREDICT_BATCH);
      const zb = encodeBatch(this.encoder, x.subarray(lo * this.nFeatures, hi * this.nFeatures));
      const t = tf.tidy(() => f(tf.tensor2d(zb, [hi - lo, this.encoder.encodedWidth])));
      out.set(t.dataSync() as Float32Array, lo * width);
      t.dispose();
    }
    return out;
  }

  predictProba(x: Float64Array): Float64Array {
    const { tf } = this;
    const p = this.forward(x, 1, (input) => tf.sigmoid(this.logit(input)));
    const out = new Float64Array(p.length * 2);
    for (let i = 0; i < p.length; i++) {
      out[i * 2 + this.favorable] = p[i]!;
      out[i * 2 + 1 - this.favorable] = 1 - p[i]!;
    }
    return out;
  }

  predict(x: Float64Array): Int32Array {
    const p = this.predictProba(x);
    const f = this.favorable;
    return Int32Array.from({ length: p.length / 2 }, (_, i) => (p[i * 2 + f]! >= 0.5 ? f : 1 - f));
  }

  /** Release the network's tensors. */
  dispose(): void {
    for (const l of this.netLayers) {
      l.w.dispose();
      l.b.dispose();
    }
  }
}

/** What a network trained against the protected groups starts from. */
export interface NetTraining extends EncodedRows {
  /** The protected groups of the rows, and how many there are. */
  groups: Subgroups;
  k: number;
  favorable: number;
  tf: Tf;
  ctl: RunController;
}

/**
 * Check that `ds` has a binary outcome and rows of at least two groups of `protectedAttributes` (null:
 * the schema's protected attributes), encode its rows and load TensorFlow. `needs` names what needs the
 * binary outcome and what needs the groups, for the errors.
 */
export async function prepareNetTraining(
  ds: Dataset,
  protectedAttributes: string[] | null,
  run: { seed: number | string; signal?: AbortSignal },
  needs: { outcome: string; groups: string },
): Promise<NetTraining> {
  if (ds.schema.outcome.labels.length !== 2) {
    throw new DataError('DATA_SHAPE', `${needs.outcome} needs a binary outcome`, {
      attribute: ds.schema.outcome.name,
    });
  }
  const groups = subgroupsOf(ds, protectedAttributes ?? undefined);
  const k = groups.keys.length;
  if (k < 2) throw new DataError('DATA_EMPTY_GROUP', `${needs.groups} needs rows of at least two groups`);
  const favorable = ds.schema.outcome.favorable;
  const rows = encodeRows(ds);
  const { tf } = await loadTensorflow();
  const ctl = new RunController({ seed: run.seed, ...(run.signal ? { signal: run.signal } : {}) });
  return { ...rows, groups, k, favorable, tf, ctl };
}
