import { type Classifier, CountingClassifier } from './classifier.js';
import { CounterfactualChecker } from './counterfactual.js';
import { checkDataset, type Dataset, datasetFingerprint } from './dataset.js';
import { ModelError } from './errors.js';
import { type OptionsInput, type OptionsSchema, resolveOptions } from './options.js';
import type { VariantMode } from './protected-variants.js';
import {
  type Access,
  type DetectorKind,
  type DiscoveryResult,
  RESULT_SCHEMA_VERSION,
  type SubgroupFinding,
} from './result-types.js';
import { type RunContextInit, RunController } from './run-control.js';
import { assertValidResult } from './validate-result.js';

/** What a detector audits: a dataset and, for model-based methods, the model. */
export interface DetectorInput {
  dataset: Dataset;
  model?: Classifier;
}

/**
 * A discrimination-discovery method, as every package exports it. `K` is its family: the result of an
 * `IndividualDetector` has `findings.pairs`, that of a `SubgroupDetector` `findings.subgroups`.
 */
export interface Detector<O extends object = Record<string, unknown>, K extends DetectorKind = DetectorKind> {
  readonly id: string;
  readonly version: string;
  readonly kind: K;
  readonly access: Access;
  readonly description: string;
  /** JSON Schema of the options; every property documents its default. */
  readonly optionsSchema: OptionsSchema;
  /** Whether `run` needs `input.model`. */
  readonly requiresModel: boolean;
  /** Validate options and fill defaults (throws `OptionsError`). */
  resolveOptions(options?: OptionsInput<O>): O;
  /**
   * Run the method; the result always validates against the DiscoveryResult schema. Options are any
   * subset of `O`; arrays of numbers may be typed arrays.
   */
  run(input: DetectorInput, options?: OptionsInput<O>, context?: RunContextInit): Promise<DiscoveryResult<K>>;
}

/** A counterfactual-pair method: `run` resolves to a result with `findings.pairs`. */
export type IndividualDetector<O extends object = Record<string, unknown>> = Detector<O, 'individual'>;
/** A subgroup method: `run` resolves to a result with `findings.subgroups`. */
export type SubgroupDetector<O extends object = Record<string, unknown>> = Detector<O, 'subgroup'>;

interface DetectorMeta<O extends object> {
  id: string;
  version: string;
  access: Access;
  description: string;
  optionsSchema: OptionsSchema;
  /** Called after schema validation for checks JSON Schema cannot express (e.g. against the data). */
  checkOptions?: (options: O, dataset: Dataset) => void;
}

export interface IndividualSearch<O> {
  dataset: Dataset;
  model: CountingClassifier;
  options: O;
  ctl: RunController;
  checker: CounterfactualChecker;
}

export interface IndividualDetectorSpec<O extends object> extends DetectorMeta<O> {
  access: 'black-box' | 'white-box';
  /** Run the search; every candidate goes through `checker`. Return method-specific extras. */
  search(args: IndividualSearch<O>): Promise<Record<string, unknown> | undefined>;
  /**
   * Methods whose paper counts something other than the checker's tested and discriminatory samples
   * (FlipTest: mapped members and flipping pairs) return their own TSN, DSN and pairs from the extras.
   * `findings` stay the checker's pairs.
   */
  ownCounts?(extras: Record<string, unknown>): { tsn: number; dsn: number; pairs: number };
}

export interface SubgroupScan<O> {
  dataset: Dataset;
  /** The counting-wrapped model, or null for data-only methods. */
  model: CountingClassifier | null;
  options: O;
  ctl: RunController;
}

export interface SubgroupDetectorSpec<O extends object> extends DetectorMeta<O> {
  requiresModel: boolean;
  scan(args: SubgroupScan<O>): Promise<{ subgroups: SubgroupFinding[]; extras?: Record<string, unknown> }>;
}

/**
 * The model a detector audits, checked against the dataset (its width and its classes against the
 * outcome's labels, typed `ModelError`s) and wrapped to count its queries; null when there is none
 * and `required` is false. Every detector built with `defineIndividualDetector` or
 * `defineSubgroupDetector` calls it; a detector built by hand calls it too.
 */
export function prepareModel(
  model: Classifier | undefined,
  dataset: Dataset,
  required: boolean,
): CountingClassifier | null {
  if (model === undefined || model === null) {
    if (required) throw new ModelError('MODEL_MISSING', 'this method audits a model: pass input.model');
    return null;
  }
  const counted = new CountingClassifier(model);
  if (counted.nFeatures !== dataset.d) {
    throw new ModelError(
      'MODEL_MISMATCH',
      `the model takes ${counted.nFeatures} features but the dataset has ${dataset.d} attributes`,
    );
  }
  const labels = dataset.schema.outcome.labels;
  if (counted.nClasses !== labels.length) {
    throw new ModelError(
      'MODEL_MISMATCH',
      `the model predicts ${counted.nClasses} classes but outcome "${dataset.schema.outcome.name}" has ${labels.length} labels [${labels.join(', ')}]`,
    );
  }
  return counted;
}

/**
 * The parts of a result every detector fills the same way: schema version, method, dataset and model
 * descriptions, seed and budget. Detectors built with the `define...Detector` helpers get it from
 * them; a detector built by hand spreads it into its result.
 */
export function resultEnvelope<K extends DetectorKind>(
  kind: K,
  meta: Pick<DetectorMeta<object>, 'id' | 'version' | 'access'>,
  options: object,
  dataset: Dataset,
  model: CountingClassifier | null,
  ctl: RunController,
): Omit<DiscoveryResult<K>, 'metrics' | 'findings' | 'extras' | 'run'> {
  const attrs = dataset.schema.attributes;
  return {
    schemaVersion: RESULT_SCHEMA_VERSION,
    method: { id: meta.id, version: meta.version, kind, access: meta.access, options: { ...options } },
    dataset: {
      name: dataset.name ?? null,
      fingerprint: datasetFingerprint(dataset),
      rows: dataset.n,
      attributes: attrs.map((a) => a.name),
      protected: attrs.filter((a) => a.protected).map((a) => a.name),
      outcome: dataset.schema.outcome.name,
    },
    model: model
      ? { description: model.description ?? null, nFeatures: model.nFeatures, nClasses: model.nClasses }
      : null,
    seed: ctl.seed,
    budget: {
      maxSeconds: ctl.budget.maxSeconds ?? null,
      maxTested: ctl.budget.maxTested ?? null,
      maxQueries: ctl.budget.maxQueries ?? null,
      ...(kind === 'individual' ? { maxPairs: ctl.maxPairs } : {}),
    },
  };
}

/** A result's `run` section: when it started, how long it took, why it stopped. */
export function resultRunInfo(ctl: RunController): DiscoveryResult['run'] {
  const stopReason = ctl.finalReason();
  return {
    startedAt: ctl.startedAt.toISOString(),
    wallSeconds: ctl.elapsedSeconds(),
    stopReason,
    aborted: stopReason === 'aborted',
  };
}

function baseDetector<O extends object, K extends DetectorKind>(
  kind: K,
  meta: DetectorMeta<O>,
  requiresModel: boolean,
) {
  return {
    id: meta.id,
    version: meta.version,
    kind,
    access: meta.access,
    description: meta.description,
    optionsSchema: meta.optionsSchema,
    requiresModel,
    resolveOptions(options?: OptionsInput<O>): O {
      return resolveOptions<O>(meta.optionsSchema, options);
    },
  };
}

/** Validate input, options and context the same way for every detector. */
function prepare<O extends object>(
  meta: DetectorMeta<O>,
  requiresModel: boolean,
  input: DetectorInput,
  options: OptionsInput<O> | undefined,
  context: RunContextInit | undefined,
) {
  if (input === null || typeof input !== 'object') {
    throw new ModelError('MODEL_MISSING', 'run(input) needs an object { dataset, model }');
  }
  const resolved = resolveOptions<O>(meta.optionsSchema, options);
  const dataset = checkDataset(input.dataset);
  meta.checkOptions?.(resolved, dataset);
  const model = prepareModel(input.model, dataset, requiresModel);
  const ctl = new RunController(context);
  if (model) ctl.queries = () => model.distinctQueries;
  return { resolved, dataset, model, ctl };
}

/**
 * Build an individual (counterfactual-pair) detector. The wrapper validates the input and options,
 * wraps the model in the counting classifier, gives the search the shared counterfactual checker,
 * and turns the checker's counts into the DiscoveryResult. Options may include `variantMode` and the
 * discrimination threshold `gamma`.
 */
export function defineIndividualDetector<O extends object>(
  spec: IndividualDetectorSpec<O>,
): IndividualDetector<O> {
  return {
    ...baseDetector<O, 'individual'>('individual', spec, true),
    async run(input, options, context) {
      const { resolved, dataset, model, ctl } = prepare(spec, true, input, options, context);
      const { variantMode, gamma } = resolved as { variantMode?: VariantMode; gamma?: number };
      const checker = new CounterfactualChecker(
        dataset.schema,
        model!,
        ctl,
        variantMode ?? 'all-combinations',
        gamma ?? 0,
      );
      const extras = (await spec.search({ dataset, model: model!, options: resolved, ctl, checker })) ?? {};
      // Built before the clock is read, so that wallSeconds covers the (capped) result building.
      const findings = checker.findings();
      const run = resultRunInfo(ctl);
      const stats = model!.queryStats;
      const { tsn, dsn, pairs } = spec.ownCounts?.(extras) ?? checker;
      const result: DiscoveryResult<'individual'> = {
        ...resultEnvelope('individual', spec, resolved, dataset, model, ctl),
        run,
        metrics: {
          tsn,
          dsn,
          sur: tsn === 0 ? 0 : dsn / tsn,
          dss: dsn === 0 ? null : run.wallSeconds / dsn,
          pairs,
          queries: stats.queries,
          distinctQueries: stats.distinctQueries,
        },
        findings,
        extras,
      };
      assertValidResult(result);
      return result;
    },
  };
}

/**
 * Build a subgroup detector. TSN is the number of rows scanned, DSN the number of subgroups
 * reported (`sur` = DSN / TSN, `dss` = seconds per reported subgroup).
 */
export function defineSubgroupDetector<O extends object>(spec: SubgroupDetectorSpec<O>): SubgroupDetector<O> {
  return {
    ...baseDetector<O, 'subgroup'>('subgroup', spec, spec.requiresModel),
    async run(input, options, context) {
      const { resolved, dataset, model, ctl } = prepare(spec, spec.requiresModel, input, options, context);
      const { subgroups, extras } = await spec.scan({ dataset, model, options: resolved, ctl });
      const run = resultRunInfo(ctl);
      const stats = model?.queryStats ?? { queries: 0, distinctQueries: 0 };
      const dsn = subgroups.length;
      const result: DiscoveryResult<'subgroup'> = {
        ...resultEnvelope('subgroup', spec, resolved, dataset, model, ctl),
        run,
        metrics: {
          tsn: dataset.n,
          dsn,
          sur: dataset.n === 0 ? 0 : dsn / dataset.n,
          dss: dsn === 0 ? null : run.wallSeconds / dsn,
          pairs: 0,
          queries: stats.queries,
          distinctQueries: stats.distinctQueries,
        },
        findings: { kind: 'subgroup' as const, subgroups },
        extras: extras ?? {},
      };
      assertValidResult(result);
      return result;
    },
  };
}

/**
 * The parts of a result that must be identical for the same seed: drops clock readings
 * (`run.startedAt`, `run.wallSeconds`, `metrics.dss`, and `extras.timings`, where methods keep theirs).
 */
export function reproducibleView(result: DiscoveryResult): unknown {
  const { run, metrics, extras, ...rest } = result;
  const { timings: _timings, ...stableExtras } = extras;
  return {
    ...rest,
    run: { stopReason: run.stopReason, aborted: run.aborted },
    metrics: { ...metrics, dss: null },
    extras: stableExtras,
  };
}
