import { type Dataset, DomainSampler, type Rng } from '@fb/core';
import { TabularCodec } from './codec.js';
import type { LatentGenerator } from './generator.js';
import { meanNearest, REFERENCE_ROWS } from './naturalness.js';

/** Latent vectors decoded for the diversity check. */
export const DIVERSITY_SAMPLES = 10000;
/** Rows per group of the naturalness check. */
const NATURALNESS_SAMPLE = 500;

export interface GeneratorChecks {
  /** Distinct rows among `latentSamples` decoded latent vectors (all attributes). */
  diversity: { latentSamples: number; distinctRows: number };
  /**
   * Mean distance (standardised numbers, one-hot categories) to the nearest of up to 2,000 training
   * rows: from generated rows, from held-out rows (the real-data baseline) and from uniform random
   * inputs. Generated near `heldOut` is natural; far below it copies training rows, toward `uniform`
   * is noise. `heldOutInTraining`: the generator saw the held-out rows too (the VAE and PCA fit all rows).
   */
  naturalness: {
    sample: number;
    generated: number;
    heldOut: number | null;
    uniform: number;
    heldOutInTraining: boolean;
  };
}

/** The rows a generator is fitted on and those held out from it (at most 500, a tenth of the data). */
export function holdOut(n: number, rng: Rng): { train: Int32Array; heldOut: Int32Array } {
  const order = rng.sampleIndices(n, n);
  const h = Math.min(NATURALNESS_SAMPLE, Math.floor(n / 10));
  return { heldOut: order.slice(0, h), train: order.slice(h) };
}

function rowsOf(dataset: Dataset, index: ArrayLike<number>): Float64Array {
  const { d, x } = dataset;
  const out = new Float64Array(index.length * d);
  for (let i = 0; i < index.length; i++) out.set(x.subarray(index[i]! * d, (index[i]! + 1) * d), i * d);
  return out;
}

/** The diversity and naturalness checks of a fitted generator (no model queries). */
export function generatorChecks(
  dataset: Dataset,
  generator: LatentGenerator,
  split: { train: Int32Array; heldOut: Int32Array },
  heldOutInTraining: boolean,
  rng: Rng,
  stop: () => boolean = () => false,
): GeneratorChecks | null {
  const { d } = dataset;
  if (stop()) return null;
  const decoded = generator.decode(
    generator.sampleLatent(rng.fork('diversity'), DIVERSITY_SAMPLES),
    DIVERSITY_SAMPLES,
  );
  const distinct = new Set<string>();
  for (let i = 0; i < DIVERSITY_SAMPLES; i++) distinct.add(decoded.subarray(i * d, (i + 1) * d).join(','));

  const codec = new TabularCodec(dataset);
  const p = codec.width;
  const picks = rng.fork('reference');
  const r = Math.min(REFERENCE_ROWS, split.train.length);
  const reference = codec.encode(rowsOf(dataset, picks.sample(Array.from(split.train), r)), r);
  const distance = (rows: Float64Array, m: number) =>
    meanNearest(codec.encode(rows, m), m, reference, r, p, stop);
  const sample = NATURALNESS_SAMPLE;
  const uniform = new Float64Array(sample * d);
  new DomainSampler(dataset.schema).fill(rng.fork('uniform'), uniform);
  const h = split.heldOut.length;
  const generated = distance(decoded.subarray(0, sample * d), sample);
  const heldOut = h > 0 ? distance(rowsOf(dataset, split.heldOut), h) : null;
  const uniformDistance = distance(uniform, sample);
  // Inside a run whose budget ended during the checks: none (they are diagnostics, not the search).
  if (stop()) return null;
  return {
    diversity: { latentSamples: DIVERSITY_SAMPLES, distinctRows: distinct.size },
    naturalness: {
      sample,
      generated,
      heldOut,
      uniform: uniformDistance,
      heldOutInTraining,
    },
  };
}
