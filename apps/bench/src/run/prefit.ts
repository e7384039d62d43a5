import type { Dataset, Detector } from '@fb/core';
import {
  type FittedLimiGenerator,
  fitLimiGenerator,
  generatorDataKey,
  generatorOptions,
  limiOptions,
  limiWith,
} from '@fb/individual-limi';
import { findMethod } from '../methods.js';
import { type Cell, contentHash, rowsKey } from '../plan/cells.js';
import { PromiseCache } from './promise-cache.js';

/**
 * Methods with a phase that sees only the data, never the model, fitted once per audited data set
 * and seed and shared by every model's cell on those rows. LIMI's generator is one: its paper trains
 * the generative model before the timed search, and inside a cell's budget a TVAE or VAE does not finish on
 * real data.
 * The fit's seconds are in the preparation time of the cell that made it.
 */
const fits = new PromiseCache<FittedLimiGenerator>(4);

export async function methodForCell(
  method: string,
  options: Record<string, unknown>,
  dataset: Dataset,
  seed: number,
): Promise<Detector<object>> {
  const detector = findMethod(method);
  if (method !== 'limi' || limiOptions(options).generator === 'pca') return detector;
  // Keyed by what the fit reads: plans that differ in other options (a tuning grid's share of the
  // budget) share one generator.
  const key = JSON.stringify([generatorDataKey(dataset), generatorOptions(options), seed]);
  const fitted = await fits.get(key, () => fitLimiGenerator(dataset, options, seed));
  return limiWith(fitted) as unknown as Detector<object>;
}

/**
 * The data-only fit a cell needs, as a key equal for every cell that shares it (its rows and the fit's
 * options), or null: what a time estimate counts once per key, as a study run makes each fit once.
 */
export function dataFitKey(cell: Pick<Cell, 'plan' | 'dataset' | 'seed' | 'auditShare'>): string | null {
  const { method, options } = cell.plan;
  if (method !== 'limi' || limiOptions(options).generator === 'pca') return null;
  return contentHash([rowsKey(cell.dataset, cell.seed), cell.auditShare, generatorOptions(options)]);
}
