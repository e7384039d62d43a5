// The harness of the detector packages' `bench/perf.mjs`: the 13-attribute census encoding of the
// literature, one model fitted on it, and one time-budgeted run per protected attribute. The census
// loader and the model are passed in (`loadCensus13` of @fb/datasets, a fit of @fb/models), so that the
// kit depends on neither.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Classifier, createDataset, type Dataset, type Detector, type DiscoveryResult } from '@fb/core';

/** `loadCensus13` of @fb/datasets. */
export type Census13Loader = (options: { dataDir: string }) => Promise<Dataset>;

/** Where the original data files are: `FB_DATA_DIR`, else `shared/datasets` next to the repository. */
function benchDataDir(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  return process.env.FB_DATA_DIR ?? path.resolve(here, '../../../../shared/datasets');
}

/** The census data from `benchDataDir()`. */
export function readCensus13(load: Census13Loader): Promise<Dataset> {
  return load({ dataDir: benchDataDir() });
}

/** `census` with only `attribute` protected, named `census13-<attribute>`. */
export function protectingOnly(census: Dataset, attribute: string): Dataset {
  const schema = {
    attributes: census.schema.attributes.map((a) => ({ ...a, protected: a.name === attribute })),
    outcome: census.schema.outcome,
  };
  return createDataset({ schema, x: census.x, y: census.y, name: `census13-${attribute}` });
}

/**
 * Fit the model under audit on `census` and print the rows, the model, the seconds the fit took, its
 * training accuracy and `budget` (how long each run may take).
 */
export async function fitBenchModel(
  census: Dataset,
  fitModel: (census: Dataset) => Classifier | Promise<Classifier>,
  budget: string,
): Promise<Classifier> {
  const t0 = performance.now();
  const model = await fitModel(census);
  const fitSeconds = (performance.now() - t0) / 1000;
  const predicted = model.predict(census.x);
  let correct = 0;
  for (let i = 0; i < census.n; i++) if (predicted[i] === census.y[i]) correct++;
  console.log(
    `census13: ${census.n} rows; model ${model.description} fitted in ${fitSeconds.toFixed(1)} s, ` +
      `training accuracy ${((100 * correct) / census.n).toFixed(2)} %; budget ${budget}`,
  );
  return model;
}

/** A finished bench run and the seconds it took to find 1,000 discriminatory inputs (null: it did not). */
interface TimedRun {
  result: DiscoveryResult;
  secondsTo1000: number | null;
}

/** Run `detector` with seed 1 and a budget of `seconds`, watching for the 1,000th discriminatory input. */
async function timedRun<O extends object>(
  detector: Detector<O>,
  input: { dataset: Dataset; model: Classifier },
  options: Partial<O>,
  seconds: number,
): Promise<TimedRun> {
  let secondsTo1000: number | null = null;
  const result = await detector.run(input, options, {
    seed: 1,
    budget: { maxSeconds: seconds },
    progressIntervalMs: 0,
    onProgress: (p) => {
      if (secondsTo1000 === null && p.discriminatory >= 1000) secondsTo1000 = p.elapsedSeconds;
    },
  });
  return { result, secondsTo1000 };
}

/** DSN, its rate, the time to 1,000, TSN, SUR, distinct queries per second, seconds and stop reason. */
function runSummary({ result, secondsTo1000 }: TimedRun): string {
  const { tsn, dsn, sur, distinctQueries } = result.metrics;
  const s = result.run.wallSeconds;
  const to1000 = secondsTo1000 === null ? '-' : `${secondsTo1000.toFixed(2)} s`;
  return (
    `DSN ${String(dsn).padStart(8)}  ${(dsn / s).toFixed(1).padStart(8)}/s  to 1,000: ${to1000}  ` +
    `TSN ${tsn}  SUR ${(100 * sur).toFixed(1)} %  ${Math.round(distinctQueries / s)} queries/s  ` +
    `${s.toFixed(1)} s (${result.run.stopReason})`
  );
}

/** One run of a census bench: its label, the attribute it protects and the detector's options. */
export interface CensusRun<O> {
  label: string;
  attribute: string;
  options: Partial<O>;
}

/**
 * The command line of the per-attribute benches, `[seconds per run, default 60] [attributes, default
 * sex,race,age]`: the budget, and one run per attribute with the same options.
 */
export function attributeRunsFromArgv<O>(options: Partial<O>): { seconds: number; runs: CensusRun<O>[] } {
  const attributes = (process.argv[3] ?? 'sex,race,age').split(',');
  return {
    seconds: Number(process.argv[2] ?? 60),
    runs: attributes.map((attribute) => ({ label: attribute, attribute, options })),
  };
}

export interface CensusBenchConfig<O extends object> {
  detector: Detector<O>;
  loadCensus13: Census13Loader;
  /** Fits the model under audit on the census rows (every attribute as the loader marks it). */
  fit: (census: Dataset) => Classifier | Promise<Classifier>;
  /** Time budget of each run. */
  seconds: number;
  runs: CensusRun<O>[];
  /** Method-specific figures printed after a run's summary. */
  extras?: (result: DiscoveryResult) => string;
}

/** Load the census, fit the model once, and print one summary line per run. */
export async function benchCensus13<O extends object>(config: CensusBenchConfig<O>): Promise<void> {
  const census = await readCensus13(config.loadCensus13);
  const model = await fitBenchModel(census, config.fit, `${config.seconds} s per run`);
  for (const run of config.runs) {
    const dataset = protectingOnly(census, run.attribute);
    const timed = await timedRun(config.detector, { dataset, model }, run.options, config.seconds);
    const extras = config.extras ? `  ${config.extras(timed.result)}` : '';
    console.log(`${run.label.padEnd(5)} ${runSummary(timed)}${extras}`);
  }
}
