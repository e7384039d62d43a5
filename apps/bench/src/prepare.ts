import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Classifier, type Dataset, Hasher } from '@fb/core';
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

type Loose = Record<string, unknown>;

/** Regenerate a synthetic data set from its options and seed, with its truth. */
function generateSynthetic(spec: Extract<DatasetSpec, { kind: 'synthetic' }>, seed: number) {
  if (spec.generator === 'planted-pair') return synth.generatePlantedPair(spec.options, seed);
  const generate = (synth as unknown as Loose)['generate'];
  if (typeof generate !== 'function') {
    throw new Error('@fb/synth does not export generate() yet: use the planted-pair generator');
  }
  return (generate as (o: Loose) => { dataset: Dataset; truth: Parameters<typeof truthView>[0] })({
    ...spec.options,
    seed,
  });
}

const loaders: Record<string, string> = {
  adult: 'loadAdult',
  compas: 'loadCompas',
  german: 'loadGerman',
  bank: 'loadBank',
};

/** The shared copies of the real data files, when this checkout sits next to them. */
function dataDir(): string | undefined {
  if (process.env['FB_DATA_DIR']) return process.env['FB_DATA_DIR'];
  const shared = resolve(fileURLToPath(new URL('../../../../shared/datasets', import.meta.url)));
  return existsSync(shared) ? shared : undefined;
}

async function loadReal(name: string): Promise<Dataset> {
  const datasets = (await import('@fb/datasets')) as Loose;
  const load = datasets[loaders[name]!];
  if (typeof load !== 'function') throw new Error(`@fb/datasets does not export ${loaders[name]} yet`);
  const dir = dataDir();
  const loaded = (await (load as (o: Loose) => Promise<unknown>)(dir ? { dataDir: dir } : {})) as Loose;
  // A loader returns a Dataset, or an object holding one (`dataset`, or `train` for split data).
  const ds = (('schema' in loaded ? loaded : (loaded['dataset'] ?? loaded['train'])) ??
    null) as Dataset | null;
  if (!ds || !('schema' in ds)) throw new Error(`${loaders[name]} returned no dataset`);
  return ds;
}

const fitters: Record<ModelSpec['kind'], string> = {
  'logistic-regression': 'fitLogisticRegression',
  'decision-tree': 'fitDecisionTree',
  'random-forest': 'fitRandomForest',
  'linear-svm': 'fitLinearSvm',
  mlp: 'fitMlp',
};

async function train(spec: ModelSpec, dataset: Dataset, seed: number): Promise<Classifier> {
  if (spec.kind === 'logistic-regression') return models.fitLogisticRegression(dataset, spec.options);
  const fit = (models as unknown as Loose)[fitters[spec.kind]];
  if (typeof fit !== 'function') throw new Error(`@fb/models does not export ${fitters[spec.kind]} yet`);
  return (await (fit as (d: Dataset, o: Loose) => Classifier | Promise<Classifier>)(dataset, {
    seed,
    ...spec.options,
  })) as Classifier;
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
