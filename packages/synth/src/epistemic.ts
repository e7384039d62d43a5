/**
 * The epistemic annotations (`truth.epistemicSigma`, each subgroup's `meanEpistemicSigma`): the sd of
 * the ensemble members' probabilities at each row. They enter no other output and the ensemble draws
 * from a stream of its own (`seed/ensemble`), so they are computed when first read: a call whose
 * caller never reads them does not pay for fitting the ensemble or evaluating it at every row.
 */
import type { Rng, Schema } from '@fb/core';
import { type GaussianCopula, sampleCopula } from './copula.js';
import { sigmoid } from './normal.js';
import type { SynthOptions } from './options.js';
import { fitEnsemble, logitsOf, type OutcomeModel } from './outcome-model.js';

/** Rows whose member logits are held at a time. */
const CHUNK = 8192;

/** The members of the epistemic ensemble (see `fitEnsemble`). */
export function ensemble(
  copula: GaussianCopula,
  model: OutcomeModel,
  o: SynthOptions,
  erng: Rng,
): OutcomeModel[] {
  const training = sampleCopula(copula, o.ensembleTrainingRows, erng.fork('data'));
  return fitEnsemble(
    copula,
    model,
    training,
    o.ensembleTrainingRows,
    o.ensembleSize,
    o.ridge,
    erng.fork('fit'),
  );
}

/** Per row of x (n rows), the unbiased sd of the members' probabilities (0 without members). */
export function epistemicSigmas(
  schema: Schema,
  members: readonly OutcomeModel[],
  x: Float64Array,
  n: number,
): Float64Array {
  const out = new Float64Array(n);
  const k = members.length;
  if (k === 0) return out;
  const d = schema.attributes.length;
  for (let lo = 0; lo < n; lo += CHUNK) {
    const hi = Math.min(n, lo + CHUNK);
    const logits = logitsOf(schema, members, x.subarray(lo * d, hi * d), hi - lo);
    for (let i = 0; i < hi - lo; i++) {
      let sum = 0;
      let sq = 0;
      for (let m = 0; m < k; m++) {
        const q = sigmoid(logits[m]![i]!);
        sum += q;
        sq += q * q;
      }
      const mean = sum / k;
      out[lo + i] = Math.sqrt(Math.max(sq / k - mean * mean, 0) * (k / Math.max(k - 1, 1)));
    }
  }
  return out;
}

/** A value computed on first use. */
export function lazy<T>(make: () => T): () => T {
  let value: T | undefined;
  let made = false;
  return () => {
    if (!made) {
      value = make();
      made = true;
    }
    return value as T;
  };
}
