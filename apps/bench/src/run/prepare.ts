import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import {
  type Classifier,
  createDataset,
  type Dataset,
  domainValues,
  Hasher,
  Rng,
  subsetRows,
} from '@fb/core';
import * as datasets from '@fb/datasets';
import { type ModelTruth, modelTruth, type TruthView, truthView } from '@fb/eval';
import * as models from '@fb/models';
import * as synth from '@fb/synth';
import { appPath } from '../paths.js';
import { type BlockSpec, blockInputs, contentHash, type SyntheticSpec, withoutBias } from '../plan/cells.js';
import type { ModelSpec } from '../plan/config.js';
import { PromiseCache } from './promise-cache.js';

/** The planted truth a run is scored against, on the audited rows. */
export interface ScoringTruth {
  /** The scenario whose planted subgroups these are (the cell's own, or a biased one for chance). */
  scenario: string;
  view: TruthView;
  /**
   * The audited model's own counterfactual behaviour against these subgroups, with the variant pairs
   * the bias caused (against the twin model); computed once.
   */
  modelTruth(): Promise<ModelTruth>;
}

/** The audited rows and model of a block, shared by every method run on it. */
export interface Prepared {
  /** The held-out rows the methods audit. */
  dataset: Dataset;
  /** The audited model (methods get it behind a query clock). */
  model: Classifier;
  /** Hash of the model's predictions on the audited rows: equal for every method of a block. */
  modelFingerprint: string;
  /** Accuracy on the audited rows (held out from training). */
  modelAccuracy: number;
  /** The cell's own planted truth (null for real data; no subgroups on data without bias). */
  truth: ScoringTruth | null;
  /** Data without bias: the same rows scored against each biased scenario's subgroups. */
  chance: ScoringTruth[];
  /**
   * The audited model's twin: the same model specification built from the no-bias twin's labels
   * (same rows, split, seed and options); σ(η) for σ(η + β); the model itself on data without bias
   * and for σ(η). A flip the model makes and its twin does not is caused by the planted bias. Null on
   * real data. Built on first use and kept.
   */
  twinModel(): Promise<Classifier | null>;
}

/**
 * Regenerate a synthetic data set from its options and seed, with its truth. One thread: the study's
 * pool already runs one cell per core (the output does not depend on it).
 */
async function generateSynthetic(spec: SyntheticSpec, seed: number) {
  if (spec.generator === 'planted-pair') {
    const g = synth.generatePlantedPair(spec.options, seed);
    return { dataset: g.dataset, truth: g.truth as Parameters<typeof truthView>[0] };
  }
  // Semi-synthetic: a real data set's name as `source` (descriptive mode: the copula fitted to it).
  const source = spec.options['source'];
  const options =
    typeof source === 'string' ? { ...spec.options, source: await loadRealCached(source) } : spec.options;
  const g = synth.generate({ ...options, seed, threads: 1 });
  return { dataset: g.dataset, truth: g.truth as Parameters<typeof truthView>[0] };
}

const realCache = new PromiseCache<Dataset>();

/** A real data set, loaded once per worker (its copy is verified by checksum on load). */
function loadRealCached(name: string): Promise<Dataset> {
  return realCache.get(name, () => loadReal(name));
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
  const shared = resolve(appPath('../../../shared/datasets'));
  return existsSync(shared) ? shared : undefined;
}

function loadReal(name: string): Promise<Dataset> {
  const load = loaders[name];
  if (!load) throw new Error(`unknown real data set "${name}"`);
  const dir = dataDir();
  return load(dir ? { dataDir: dir } : {});
}

/**
 * The audited rows: a seeded split that depends only on the number of rows and the seed, so that
 * data sets that share their rows (a scenario and its no-bias twin) share their split too.
 */
export function auditSplit(n: number, seed: number, auditShare: number) {
  const order = Rng.create(seed)
    .fork('audit-split')
    .shuffle(Int32Array.from({ length: n }, (_, i) => i));
  const take = Math.min(n - 1, Math.max(1, Math.round(auditShare * n)));
  const audit = Int32Array.from(order.subarray(0, take)).sort();
  const train = Int32Array.from(order.subarray(take)).sort();
  return { audit, train };
}

/** The same model with every protected attribute held at its first domain value: blind to them. */
function blindTo(dataset: Dataset) {
  const prot = dataset.schema.attributes.flatMap((a, j) => (a.protected ? [j] : []));
  const fixed = prot.map((j) => domainValues(dataset.schema.attributes[j]!)[0]!);
  return (x: Float64Array): Float64Array => {
    const out = Float64Array.from(x);
    const d = dataset.d;
    for (let off = 0; off < out.length; off += d) {
      for (let k = 0; k < prot.length; k++) out[off + prot[k]!] = fixed[k]!;
    }
    return out;
  };
}

async function fitBlind(train: Dataset): Promise<Classifier> {
  const blind = blindTo(train);
  const inner = await models.fit(createDataset({ schema: train.schema, x: blind(train.x), y: train.y }), {
    model: 'logistic-regression',
    l2: 1,
  } as models.FitOptions);
  return {
    nFeatures: inner.nFeatures,
    nClasses: inner.nClasses,
    description: `blind(${inner.description ?? 'logistic-regression'})`,
    predict: (x) => inner.predict(blind(x)),
    ...(inner.predictProba ? { predictProba: (x: Float64Array) => inner.predictProba!(blind(x)) } : {}),
  };
}

/** Fit a trained model on the training rows; models with a seed option get the cell's seed. */
function train(spec: ModelSpec, dataset: Dataset, seed: number): Promise<Classifier> {
  const kind = spec.kind as models.FitOptions['model'];
  const seeded = 'seed' in models.modelOptionsSchemas[kind].properties;
  return models.fit(dataset, {
    model: kind,
    ...(seeded ? { seed } : {}),
    ...spec.options,
  } as models.FitOptions);
}

/** A generator's noise-free probability function as a classifier. */
function probabilityModel(view: TruthView, d: number, description: string): Classifier {
  return models.classifierFromFunction((x) => view.probabilityOf(x), { nFeatures: d, description });
}

function scoringTruth(
  scenario: string,
  view: TruthView,
  model: Classifier,
  twin: () => Promise<Classifier | null>,
  audit: Dataset,
): ScoringTruth {
  let cached: Promise<ModelTruth> | null = null;
  const compute = async () => modelTruth(model, audit, view, (await twin()) ?? undefined);
  return { scenario, view, modelTruth: () => (cached ??= compute()) };
}

/** A value built on first use and kept (a failed build is retried on the next use). */
function lazy<T>(build: () => Promise<T>): () => Promise<T> {
  let kept: Promise<T> | null = null;
  return () => {
    kept ??= build().catch((e: unknown) => {
      kept = null;
      throw e;
    });
    return kept;
  };
}

function fingerprint(ds: Dataset): string {
  return new Hasher().numbers(ds.x).digest();
}

async function prepareBlock(b: BlockSpec): Promise<Prepared> {
  const spec = b.dataset;
  if (spec.kind === 'real') {
    const data = await loadRealCached(spec.name);
    const split = auditSplit(data.n, b.seed, b.auditShare);
    const audit = subsetRows(data, split.audit);
    const trainRows = subsetRows(data, split.train);
    const model =
      b.model.kind === 'blind' ? await fitBlind(trainRows) : await train(b.model, trainRows, b.seed);
    return finish(audit, model, null, [], async () => null);
  }
  // Model-output bias: the labels of the no-bias twin, the planted bias in the model only.
  const labelled = b.question === 'model-output' && !spec.null ? withoutBias(spec) : spec;
  const g = await generateSynthetic(labelled, b.seed);
  const split = auditSplit(g.dataset.n, b.seed, b.auditShare);
  const audit = subsetRows(g.dataset, split.audit);
  const trainRows = subsetRows(g.dataset, split.train);
  const planted = labelled === spec ? g : await generateSynthetic(spec, b.seed);
  if (planted !== g && fingerprint(planted.dataset) !== fingerprint(g.dataset)) {
    throw new Error(`${spec.label}: the data set without bias does not share the rows of the biased one`);
  }
  const plantedView = truthView(planted.truth, audit);
  let model: Classifier;
  switch (b.model.kind) {
    case 'blind':
      model = await fitBlind(trainRows);
      break;
    case 'oracle': {
      // σ(η): the no-bias twin's probability function (β = 0 everywhere).
      const twin = spec.null ? g : await generateSynthetic(withoutBias(spec), b.seed);
      model = probabilityModel(truthView(twin.truth, audit), audit.d, 'σ(η)');
      break;
    }
    case 'shifted':
      model = probabilityModel(plantedView, audit.d, 'σ(η + β)');
      break;
    default:
      model = await train(b.model, trainRows, b.seed);
  }
  const twinModel = lazy(() => twinOf(b, spec, g, model, split.train, audit));
  const chance: ScoringTruth[] = [];
  for (const scenario of b.chanceAgainst) {
    const other = await generateSynthetic(scenario, b.seed);
    if (fingerprint(other.dataset) !== fingerprint(g.dataset)) {
      throw new Error(`${scenario.label}: its rows differ from those of ${spec.label}; no chance level`);
    }
    chance.push(scoringTruth(scenario.label, truthView(other.truth, audit), model, twinModel, audit));
  }
  const truth = scoringTruth(spec.label, plantedView, model, twinModel, audit);
  return finish(audit, model, truth, chance, twinModel);
}

/**
 * The audited model's twin (see `Prepared.twinModel`): built from the no-bias twin's rows and labels
 * exactly as the model was from the block's (same split, seed and options).
 */
async function twinOf(
  b: BlockSpec,
  spec: SyntheticSpec,
  generated: Awaited<ReturnType<typeof generateSynthetic>>,
  model: Classifier,
  trainIndex: Int32Array,
  audit: Dataset,
): Promise<Classifier> {
  // Without bias, and for σ(η), the model is its own twin: no flip of it is caused by planted bias.
  if (spec.null || b.model.kind === 'oracle') return model;
  // The model-output question already generated the twin's labels (the model holds the bias alone).
  const twin = b.question === 'model-output' ? generated : await generateSynthetic(withoutBias(spec), b.seed);
  if (b.model.kind === 'shifted') return probabilityModel(truthView(twin.truth, audit), audit.d, 'σ(η)');
  const trainRows = subsetRows(twin.dataset, trainIndex);
  return b.model.kind === 'blind' ? fitBlind(trainRows) : train(b.model, trainRows, b.seed);
}

function finish(
  audit: Dataset,
  model: Classifier,
  truth: ScoringTruth | null,
  chance: ScoringTruth[],
  twinModel: () => Promise<Classifier | null>,
): Prepared {
  const predictions = model.predict(audit.x);
  let hits = 0;
  for (let i = 0; i < audit.n; i++) if (predictions[i] === audit.y[i]) hits++;
  return {
    dataset: audit,
    model,
    modelFingerprint: new Hasher().numbers(predictions).digest(),
    modelAccuracy: hits / audit.n,
    truth,
    chance,
    twinModel,
  };
}

// Cells arrive block by block: keep the two most recent blocks.
const cache = new PromiseCache<Prepared>(2);

/** The block's rows and model, built once per worker (keyed by the block's content) and reused. */
export function prepare(b: BlockSpec): Promise<Prepared> {
  return cache.get(contentHash(blockInputs(b)), () => prepareBlock(b));
}
