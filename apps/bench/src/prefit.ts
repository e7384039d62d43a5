import type { Dataset, Detector } from '@fb/core';
import {
  type FittedLimiGenerator,
  fitLimiGenerator,
  generatorDataKey,
  limiOptions,
  limiWith,
} from '@fb/individual-limi';
import { findMethod } from './methods.js';

/**
 * Methods with a phase that sees only the data, never the model, fitted once per audited data set
 * and seed and shared by every model's cell on those rows. LIMI's generator is one: its paper trains
 * the generative model before the timed search, and inside a cell's budget a VAE does not finish on
 * real data.
 * The fit's seconds are in the preparation time of the cell that made it.
 */
const fits = new Map<string, Promise<FittedLimiGenerator>>();
const MAX_FITS = 4;

export async function methodForCell(
  method: string,
  options: Record<string, unknown>,
  dataset: Dataset,
  seed: number,
): Promise<Detector<object>> {
  const detector = findMethod(method);
  if (method !== 'limi' || limiOptions(options).generator !== 'vae') return detector;
  const key = JSON.stringify([generatorDataKey(dataset), options, seed]);
  let fit = fits.get(key);
  if (!fit) {
    fit = fitLimiGenerator(dataset, options, seed);
    fits.set(key, fit);
    while (fits.size > MAX_FITS) fits.delete(fits.keys().next().value!);
    fit.catch(() => fits.delete(key));
  }
  return limiWith(await fit) as unknown as Detector<object>;
}
