import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Classifier, type Dataset, Hasher } from '@fb/core';
import * as datasets from '@fb/datasets';
import { type TruthView, truthView } from '@fb/eval';
import * as models from '@fb/models';
import * as synth from '@fb/synth';
import type { Cell, DatasetSpec } from './cells.js';
import type { ModelSpec } from './config.js';

/** The data and model of a block, shared by every method run on it. */
export interface Prepared {
  dataset: Dataset;
  /** Null for real data (no ground truth). */
  truth: TruthView | null;
  model: Classifier;
  /** Hash of the model's predictions on the data: equal for every method of a block. */
  modelFingerprint: string;
  modelAccuracy: number;
}

/**
 * Regenerate a synthetic data set from its options and seed, with its truth. One thread: the study's
 * pool already runs one cell per core (the output does not depend on it).
 */
function generateSynthetic(spec: Extract<DatasetSpec, { kind: 'synthetic' }>, seed: number) {
  if (spec.generator === 'planted-pair') return synth.generatePlantedPair(spec.options, seed);
  return synth.generate({ ...spec.options, seed, threads: 1 });
}

const loaders: Record<string, (options: { dataDir?: string }) => Promise<Dataset>> = {
  adult: datasets.loadAdult,
  compas: datasets.loadCompas,
  german: datasets.loadGerman,
  bank: datasets.loadBank,
};

/** The shared copies of the real data files, when this checkout sits next to them. */
function dataDir(): string | undefined {
  if (process.env['FB_DATA_DIR']) return process.env['FB_DATA_DIR'];
  const shared = resolve(fileURLToPath(new URL('../../../../shared/datasets', import.meta.url)));
  return existsSync(shared) ? shared : undefined;
}

function loadReal(name: string): Promise<Dataset> {
  const load = loaders[name];
  if (!load) throw new Error(`unknown real data set "${name}"`);
  const dir = dataDir();
  return load(dir ? { dataDir: dir } : {});
}

/** Fit the cell's model; models with a seed option get the cell's seed unless the study sets one. */
function train(spec: ModelSpec, dataset: Dataset, seed: number): Promise<Classifier> {
  const seeded = 'seed' in models.modelOptionsSchemas[spec.kind].properties;
  return models.fit(dataset, {
    model: spec.kind,
    ...(seeded ? { seed } : {}),
    ...spec.options,
  } as models.FitOptions);
}

async function prepareBlock(cell: Cell): Promise<Prepared> {
  let dataset: Dataset;
  let truth: TruthView | null = null;
  if (cell.dataset.kind === 'synthetic') {
    const g = generateSynthetic(cell.dataset, cell.seed);
    dataset = g.dataset;
    truth = truthView(g.truth, dataset);
  } else {
    dataset = await loadReal(cell.dataset.name);
  }
  const model = await train(cell.model, dataset, cell.seed);
  const predictions = model.predict(dataset.x);
  let hits = 0;
  for (let i = 0; i < dataset.n; i++) if (predictions[i] === dataset.y[i]) hits++;
  return {
    dataset,
    truth,
    model,
    modelFingerprint: new Hasher().numbers(predictions).digest(),
    modelAccuracy: hits / dataset.n,
  };
}

const cache = new Map<string, Promise<Prepared>>();

/** The block's data and model, built once per worker and reused by the block's next cells. */
export function prepare(cell: Cell): Promise<Prepared> {
  let p = cache.get(cell.block);
  if (!p) {
    p = prepareBlock(cell);
    cache.set(cell.block, p);
    // Cells arrive block by block: keep the two most recent blocks.
    while (cache.size > 2) cache.delete(cache.keys().next().value!);
    p.catch(() => cache.delete(cell.block));
  }
  return p;
}
