import {
  type Condition,
  checkDataset,
  type Dataset,
  defineSubgroupDetector,
  ModelError,
  type OptionsInput,
  type Rng,
  type RunController,
  type SubgroupFinding,
} from '@fb/core';
import {
  encodeAttributes,
  exceedancesToStop,
  PROBABILITY_FLOOR,
  type ScanConfig,
  type ScanData,
  type ScanDirection,
  type ScanResult,
  type ScoreFunction,
  SequentialPValue,
  SubsetScan,
  scanSubsets,
} from '@fb/subset-scan';
import { type BiasScanExpectations, classProbabilities } from './expectations.js';
import { type BiasScanOptions, biasScanOptionsSchema } from './options.js';
import {
  buildTargets,
  checkModeOptions,
  drawOutcomes,
  numericDirection,
  resolveScoring,
  type Target,
} from './targets.js';
import { VERSION } from './version.js';

const seconds = (from: number) => (performance.now() - from) / 1000;

/** Name of the fitted parameter in a finding's details. */
const PARAMETER_NAME: Record<ScoreFunction, string> = {
  bernoulli: 'q',
  poisson: 'q',
  gaussian: 'mu',
  'berk-jones': 'proportion',
};

/** One scan: a target (outcome view) in one requested direction. */
interface Scan {
  target: Target;
  direction: ScanDirection;
  config: ScanConfig;
}

/**
 * The Berk-Jones null proportion α of a target: the option when given (AIF360's `alpha`), else the
 * mean expectation; kept off 0 and 1 as the scan keeps every probability.
 */
function berkJonesAlpha(given: number | null, expected: Float64Array): number {
  let alpha = given;
  if (alpha === null) {
    let sum = 0;
    for (let i = 0; i < expected.length; i++) sum += expected[i]!;
    alpha = sum / expected.length;
  }
  return Math.min(1 - PROBABILITY_FLOOR, Math.max(PROBABILITY_FLOOR, alpha));
}

const ifComplete = (res: ScanResult): ScanResult | null => (res.complete ? res : null);

/**
 * A replicate's scan for the sequential test: its restarts stop as soon as the best score reaches
 * `enough` (the final maximum can only be higher, so whether it reaches `enough` is already known).
 * Null when `stop` interrupted it.
 */
function scanUntil(
  data: ScanData,
  config: ScanConfig,
  rng: Rng,
  stop: () => boolean,
  enough: number,
): { score: number } | null {
  const scan = new SubsetScan(data, config, rng);
  while (!scan.finished) {
    scan.runIteration(stop);
    const { score, complete } = scan.result();
    if (score >= enough) return { score };
    if (scan.finished && !complete) return null;
  }
  const res = scan.result();
  return res.complete ? { score: res.score } : null;
}

/**
 * MDSS bias scan (Zhang & Neill 2016): finds the subgroups whose observed outcomes deviate most from
 * the model's predictions, by penalised multidimensional fast subset scanning, and calibrates each
 * with a randomisation test.
 */
export const biasScan = defineSubgroupDetector<BiasScanOptions>({
  id: 'mdss-bias-scan',
  version: VERSION,
  access: 'black-box',
  description:
    'MDSS bias scan (Zhang & Neill 2016): subgroups whose observed outcomes deviate most from the predicted probabilities (Bernoulli, Poisson, Gaussian or Berk-Jones scores), with randomisation-test p-values.',
  optionsSchema: biasScanOptionsSchema,
  requiresModel: true,
  checkOptions: checkModeOptions,
  async scan({ dataset, model, options, ctl }) {
    if (!model!.hasProba) {
      throw new ModelError(
        'MODEL_MISMATCH',
        'the bias scan compares outcomes with predicted probabilities, but the model has no predictProba',
      );
    }
    // Expectations from one batch query of the class probabilities.
    const tModel = performance.now();
    const proba = model!.predictProba(dataset.x);
    return scanProbabilities(dataset, proba, options, ctl, seconds(tModel));
  },
});

/**
 * The bias scan without a model (AIF360's `bias_scan(data, observations, expectations)`): the
 * outcomes `dataset.y` are compared with `expectations` given per row (see
 * {@link BiasScanExpectations}: P(favourable) per row in binary mode, class probabilities per row in
 * any mode, or null for AIF360's constant default). The randomisation test draws its replicates from
 * these expectations. `options` are any subset of the detector's (resolved here), `ctl` a
 * `RunController` of `@fb/core` (seed, budget, abort); the same seed and expectations equal to a
 * model's probabilities give the detector's subgroups and extras.
 */
export async function mdssBiasScan(
  dataset: Dataset,
  expectations: BiasScanExpectations,
  options: OptionsInput<BiasScanOptions>,
  ctl: RunController,
): Promise<{ subgroups: SubgroupFinding[]; extras: Record<string, unknown> }> {
  const checked = checkDataset(dataset);
  const resolved = biasScan.resolveOptions(options);
  checkModeOptions(resolved, checked);
  const proba = classProbabilities(checked, expectations, resolved.mode);
  return scanProbabilities(checked, proba, resolved, ctl, 0);
}

/** The scans and the randomisation test on class probabilities `proba` (n × K, row-major). */
async function scanProbabilities(
  dataset: Dataset,
  proba: Float64Array,
  options: BiasScanOptions,
  ctl: RunController,
  modelSeconds: number,
): Promise<{ subgroups: SubgroupFinding[]; extras: Record<string, unknown> }> {
  const tStart = performance.now();
  const { codes, arity, encodings } = encodeAttributes(dataset, options);
  const contiguous = encodings.map((e) => options.contiguous && e.ordered);
  const encodeSeconds = seconds(tStart);

  const n = dataset.n;
  const classes = dataset.schema.outcome.labels.length;
  const targets = buildTargets(options.mode, dataset, proba, classes);

  const score = resolveScoring(options.mode, options.scoring);
  const directions: ScanDirection[] =
    options.direction === 'both' ? ['negative', 'positive'] : [options.direction];
  const scans: Scan[] = targets.flatMap((target) =>
    directions.map((direction) => ({
      target,
      direction,
      config: {
        score,
        direction: numericDirection(direction, target),
        iterations: options.numIters,
        penalty: options.penalty,
        contiguous,
        ...(score === 'berk-jones' ? { alpha: berkJonesAlpha(options.alpha, target.expected) } : {}),
      },
    })),
  );
  const observedOf = targets.map((t) => t.observe(dataset.y, new Float64Array(n)));
  const stop = () => ctl.shouldStop() !== null;

  // Main scans; at least one iteration each, so a stopped run still reports its best so far.
  const tScan = performance.now();
  const results: ScanResult[] = [];
  const total = options.numIters * scans.length;
  let done = 0;
  for (const s of scans) {
    const data = {
      codes,
      arity,
      observed: observedOf[targets.indexOf(s.target)]!,
      expected: s.target.expected,
    };
    const scan = new SubsetScan(data, s.config, ctl.rng.fork(`scan-${results.length}`));
    for (;;) {
      scan.runIteration(stop);
      done++;
      const halt = await ctl.checkpoint({ phase: 'scan', done, total });
      if (scan.finished || halt) break;
    }
    results.push(scan.result());
  }
  const scanSeconds = seconds(tScan);

  // Randomisation test: outcomes redrawn from the model's class probabilities, every scan (each
  // class and direction) rerun. A subgroup's p-value compares its score with the largest score of
  // all the scans in each replicate (single-step max-T), so the chance of any false rejection over
  // the directions and classes stays at the level; the fixed test also gives the unadjusted p-value
  // (its own scan's replicate alone). The sequential test stops once every reported subgroup's
  // p-value is settled above the level, and a replicate stops scanning once one of its scores
  // reaches every open subgroup's score (the rest cannot change what is counted).
  const tRand = performance.now();
  const replicates = options.randomizationReplicates;
  const sequential = options.stopping === 'sequential';
  const stopAt = sequential ? exceedancesToStop(options.sequentialLevel, replicates) : null;
  const adjusted = scans.map(() => new SequentialPValue(replicates, stopAt));
  const unadjusted = scans.map(() => new SequentialPValue(replicates, null));
  const reported = scans.map((_, k) => k).filter((k) => results[k]!.score > 0);
  const replicateMaxima: number[] = [];
  let completed = 0;
  if (replicates > 0 && reported.length > 0 && !stop()) {
    const nullY = new Int32Array(n);
    const nullObserved = new Float64Array(n);
    for (let r = 0; r < replicates; r++) {
      const open = reported.filter((k) => !adjusted[k]!.stopped);
      if (open.length === 0) break;
      const highest = Math.max(...open.map((k) => results[k]!.score));
      drawOutcomes(proba, classes, ctl.rng.fork(`replicate-${r}`), nullY);
      const maxima: number[] = [];
      let interrupted = false;
      for (const [k, s] of scans.entries()) {
        const data = {
          codes,
          arity,
          observed: s.target.observe(nullY, nullObserved),
          expected: s.target.expected,
        };
        const rng = ctl.rng.fork(`replicate-${r}-${k}`);
        const res = sequential
          ? scanUntil(data, s.config, rng, stop, highest)
          : ifComplete(scanSubsets(data, s.config, rng, stop));
        if (res === null) {
          interrupted = true;
          break;
        }
        maxima.push(res.score);
        if (sequential && res.score >= highest) break;
      }
      // An interrupted replicate is discarded: the p-value uses completed replicates only.
      if (interrupted) break;
      const largest = Math.max(...maxima);
      scans.forEach((_, k) => {
        if (!sequential) unadjusted[k]!.record(maxima[k]! >= results[k]!.score);
        adjusted[k]!.record(largest >= results[k]!.score);
      });
      replicateMaxima.push(largest);
      completed++;
      if (await ctl.checkpoint({ phase: 'randomization', done: completed, total: replicates })) break;
    }
  }
  const randomizationSeconds = seconds(tRand);

  const subgroups: Omit<SubgroupFinding, 'rank'>[] = [];
  scans.forEach((s, k) => {
    const res = results[k]!;
    if (!(res.score > 0)) return;
    const conditions: Condition[] = [];
    res.subset.forEach((values, m) => {
      if (values !== null) conditions.push(encodings[m]!.condition(values));
    });
    const observed = res.observedSum / res.size;
    const expected = res.expectedSum / res.size;
    const effect = observed - expected;
    const toward = Math.sign(effect || (s.direction === 'positive' ? 1 : -1)) * s.target.favourableSign;
    subgroups.push({
      conditions,
      size: res.size,
      score: res.score,
      effect,
      pValue: adjusted[k]!.pValue(),
      direction: toward > 0 ? 'higher' : toward < 0 ? 'lower' : null,
      details: {
        [PARAMETER_NAME[score]]: res.parameter,
        ...(s.config.alpha === undefined ? {} : { alpha: s.config.alpha }),
        observed,
        expected,
        scoring: score,
        mode: options.mode,
        scanDirection: s.direction,
        class: s.target.label,
        unadjustedPValue: unadjusted[k]!.pValue(),
        scansAdjustedFor: scans.length,
        replicatesCompleted: adjusted[k]!.completed,
      },
    });
  });
  subgroups.sort((a, b) => b.score - a.score);

  return {
    subgroups: subgroups.map((s, i) => ({ rank: i + 1, ...s })),
    extras: {
      scoring: score,
      directions,
      classes: targets.map((t) => t.label),
      iterations: scans.map((s, k) => ({
        class: s.target.label,
        direction: s.direction,
        iterationsRun: results[k]!.iterationsRun,
      })),
      replicatesCompleted: completed,
      replicatesPlanned: replicates,
      stopping: options.stopping,
      exceedancesToStop: stopAt,
      replicateMaxima,
      attributes: encodings.map((e, m) => ({
        attribute: e.attribute,
        codes: e.arity,
        binned: e.binned,
        contiguous: contiguous[m],
      })),
      timings: { encodeSeconds, modelSeconds, scanSeconds, randomizationSeconds },
    },
  };
}
