import { DataError, type Dataset, type Rng } from '@fb/core';
import { FeatureEncoder } from '@fb/models';
import type { Tensorflow } from '@fb/tensorflow';

export type Tf = Tensorflow['tf'];
export type Tensor = ReturnType<Tf['tensor']>;
export type Variable = ReturnType<Tf['variable']>;

/** A dense layer's weights, initialised Glorot-uniform from the run's seeded stream. */
export interface Dense {
  readonly w: Variable;
  readonly b: Variable;
}

export function dense(tf: Tf, rng: Rng, fanIn: number, fanOut: number): Dense {
  const limit = Math.sqrt(6 / (fanIn + fanOut));
  const init = new Float32Array(fanIn * fanOut);
  for (let i = 0; i < init.length; i++) init[i] = rng.uniform(-limit, limit);
  return {
    w: tf.variable(tf.tensor2d(init, [fanIn, fanOut])),
    b: tf.variable(tf.zeros([fanOut])),
  };
}

export function apply(tf: Tf, layer: Dense, x: Tensor): Tensor {
  return tf.add(tf.matMul(x as ReturnType<Tf['tensor2d']>, layer.w as ReturnType<Tf['tensor2d']>), layer.b);
}

/** Rows encoded for a network (one-hot categories, standardised numbers) as float32, n x width. */
export interface EncodedRows {
  readonly encoder: FeatureEncoder;
  readonly z: Float32Array;
  readonly width: number;
}

export function encodeRows(ds: Dataset): EncodedRows {
  if (ds.n === 0) throw new DataError('DATA_EMPTY', 'the dataset has no rows');
  const encoder = FeatureEncoder.fit(ds.schema, ds.x, ds.n);
  return { encoder, z: Float32Array.from(encoder.encode(ds.x, ds.n)), width: encoder.encodedWidth };
}

export function encodeBatch(encoder: FeatureEncoder, x: Float64Array): Float32Array {
  return Float32Array.from(encoder.encode(x, x.length / encoder.nFeatures));
}

/** Mini-batches of a fresh seeded permutation of 0..n-1, one epoch. */
export function* epochBatches(rng: Rng, n: number, batchSize: number): Generator<Int32Array> {
  const order = rng.shuffle(Int32Array.from({ length: n }, (_, i) => i));
  for (let lo = 0; lo < n; lo += batchSize) yield order.subarray(lo, Math.min(n, lo + batchSize));
}

/** Gather rows `idx` of an n x width float32 matrix. */
export function gatherRows(src: Float32Array, width: number, idx: Int32Array): Float32Array {
  const out = new Float32Array(idx.length * width);
  for (let r = 0; r < idx.length; r++)
    out.set(src.subarray(idx[r]! * width, (idx[r]! + 1) * width), r * width);
  return out;
}

/** Rows per forward pass at prediction time. */
export const PREDICT_BATCH = 8192;
