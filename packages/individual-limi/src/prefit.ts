import { type Dataset, Hasher, RunController } from '@fb/core';
import { TabularCodec } from './codec.js';
import type { LatentGenerator } from './generator.js';
import { type GeneratorChecks, generatorChecks, holdOut } from './generator-checks.js';
import { type LimiGenerator as LimiGeneratorKind, type LimiOptions, limiOptions } from './options.js';
import { fitPcaGenerator } from './pca.js';
import { fitTvaeGenerator, type TvaeTraining } from './tvae.js';
import { fitVaeGenerator } from './vae.js';

/** The generator options that shape the fitted generator (a fit is shared by runs that agree on them). */
export const GENERATOR_OPTIONS = [
  'generator',
  'latentDim',
  'hiddenUnits',
  'epochs',
  'trainSteps',
  'gmmModes',
  'learningRate',
  'trainBatchSize',
] as const;

/** The options of a LIMI run that its generator's fit depends on (defaults filled in). */
export function generatorOptions(
  options: Partial<LimiOptions>,
): Pick<LimiOptions, (typeof GENERATOR_OPTIONS)[number]> {
  const resolved = limiOptions(options);
  return Object.fromEntries(GENERATOR_OPTIONS.map((o) => [o, resolved[o]])) as Pick<
    LimiOptions,
    (typeof GENERATOR_OPTIONS)[number]
  >;
}

/** What `trainGenerator` returns: the generator (null when the run stopped), its codec, training and checks. */
export interface TrainedGenerator {
  generator: LatentGenerator | null;
  codec: TabularCodec;
  /** VAE and TVAE: mean loss per row of each pass's worth of training. */
  lossPerEpoch: number[] | null;
  /** TVAE: its encoding's widths and the modes kept per numeric attribute. */
  tvae: Omit<TvaeTraining, 'lossPerEpoch'> | null;
  checks: GeneratorChecks | null;
}

/**
 * LIMI's generative model fitted on one dataset, to be reused by every run on its rows (whatever the
 * model audited and the protected attributes: the generator sees neither). `fitLimiGenerator` makes one; `limiWith` gives a
 * LIMI detector that searches with it instead of training its own.
 */
export interface FittedLimiGenerator {
  readonly kind: LimiGeneratorKind;
  /** Content key of the rows it was fitted on (`generatorDataKey`). */
  readonly dataKey: string;
  /** The generator options it was fitted with. */
  readonly options: Readonly<Pick<LimiOptions, (typeof GENERATOR_OPTIONS)[number]>>;
  /** The seed of its random draws. */
  readonly seed: number | string;
  /** Wall-clock seconds the fit took. */
  readonly trainingSeconds: number;
  /** VAE and TVAE: mean loss per row of each epoch (TVAE: of each pass's worth of steps). */
  readonly lossPerEpoch: number[] | null;
  /** TVAE: its encoding's widths and the modes kept per numeric attribute. */
  readonly tvae: Omit<TvaeTraining, 'lossPerEpoch'> | null;
  /** The diversity and naturalness checks of the fitted generator. */
  readonly checks: GeneratorChecks;
  readonly generator: LatentGenerator;
  readonly codec: TabularCodec;
}

/**
 * What a generator is fitted on: the attributes' names and domains and the rows' values. Which
 * attributes are protected and the labels do not enter, so one generator serves every choice of
 * protected attribute on the same data.
 */
export function generatorDataKey(dataset: Dataset): string {
  const domains = dataset.schema.attributes.map(({ protected: _p, ...domain }) => domain);
  return new Hasher().string(JSON.stringify(domains)).numbers(dataset.x).digest();
}

/**
 * Fit LIMI's generator (`generator`, `latentDim`, `hiddenUnits`, `epochs`, `learningRate`,
 * `trainBatchSize` of its options; the rest is ignored) on a dataset, with draws from `seed`: the same
 * draws as a LIMI run with that seed makes for its own generator.
 */
export async function fitLimiGenerator(
  dataset: Dataset,
  options: Partial<LimiOptions> = {},
  seed: number | string = 0,
): Promise<FittedLimiGenerator> {
  const resolved = limiOptions(options);
  const ctl = new RunController({ seed });
  const t = performance.now();
  const { generator, codec, lossPerEpoch, tvae, checks } = await trainGenerator(dataset, resolved, ctl);
  return Object.freeze({
    kind: resolved.generator,
    dataKey: generatorDataKey(dataset),
    options: Object.freeze(generatorOptions(resolved)),
    seed,
    trainingSeconds: (performance.now() - t) / 1000,
    lossPerEpoch,
    tvae,
    checks: checks!,
    generator: generator!,
    codec,
  });
}

/**
 * Train the generator a run asks for, with the run's controller (its budget and abort stop a VAE's or
 * TVAE's training: the generator is then null), and check it. The TVAE is fitted without the held-out
 * rows of its naturalness check; the VAE and PCA are fitted on every row, as before.
 */
export async function trainGenerator(
  dataset: Dataset,
  options: LimiOptions,
  ctl: RunController,
): Promise<TrainedGenerator> {
  const codec = new TabularCodec(dataset);
  const split = holdOut(dataset.n, ctl.rng.fork('holdout'));
  const checked = (
    generator: LatentGenerator | null,
    lossPerEpoch: number[] | null,
    tvae: TrainedGenerator['tvae'] = null,
  ): TrainedGenerator => ({
    generator,
    codec,
    lossPerEpoch,
    tvae,
    checks: generator
      ? generatorChecks(
          dataset,
          generator,
          split,
          options.generator !== 'tvae',
          ctl.rng.fork('checks'),
          () => ctl.shouldStop() !== null,
        )
      : null,
  });
  const latentDim = Math.min(options.latentDim, codec.width);
  if (options.generator === 'pca') return checked(fitPcaGenerator(dataset, codec, latentDim), null);
  if (options.generator === 'tvae') {
    const fitted = await fitTvaeGenerator(
      dataset,
      split.train,
      {
        latentDim: options.latentDim,
        hiddenUnits: options.hiddenUnits,
        steps: options.trainSteps,
        learningRate: options.learningRate,
        batchSize: options.trainBatchSize,
        maxModes: options.gmmModes,
      },
      ctl.rng.fork('tvae'),
      ctl,
    );
    if (!fitted) return checked(null, null);
    const { lossPerEpoch, ...tvae } = fitted.training;
    return checked(fitted.generator, lossPerEpoch, tvae);
  }
  const fitted = await fitVaeGenerator(
    dataset,
    codec,
    {
      latentDim,
      hiddenUnits: options.hiddenUnits,
      epochs: options.epochs,
      learningRate: options.learningRate,
      batchSize: options.trainBatchSize,
    },
    ctl.rng.fork('vae'),
    ctl,
  );
  return checked(fitted?.generator ?? null, fitted?.training.lossPerEpoch ?? null);
}
