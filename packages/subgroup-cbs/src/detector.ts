import {
  type Condition,
  DataError,
  type Dataset,
  defineSubgroupDetector,
  ModelError,
  memberMask,
  type RunController,
  type SubgroupDetector,
  type SubgroupFinding,
} from '@fb/core';
import {
  type AttributeEncoding,
  encodeAttributes,
  exceedancesToStop,
  type ScanConfig,
  type ScanData,
  type ScanResult,
  SequentialPValue,
  SubsetScan,
} from '@fb/subset-scan';
import {
  buildDesigns,
  classPropensity,
  type Designs,
  type ExpectationModels,
  expectations,
} from './expectations.js';
import { buildFrame, type Frame, logit, type ProtectedClassSpec, protectedClasses } from './frame.js';
import { type CbsOptions, cbsOptionsSchema, resamplesFor, type ScanType } from './options.js';
import { VERSION } from './version.js';

/** Options of a run, with the resamples resolved for its number of scans. */
type ScanOptions = CbsOptions & { permutations: number };

/** What the scan runs on for one assignment of the protected class. */
interface ScanInput {
  data: ScanData;
  protectedRows: Int32Array;
  expected: Float64Array;
  models: ExpectationModels;
}

function scanInput(
  designs: Designs,
  frame: Frame,
  a: Uint8Array,
  codes: Int32Array[],
  arity: number[],
  l2: number,
  stop: () => boolean,
  start?: ExpectationModels,
): ScanInput | null {
  const fitted = expectations(designs, frame, a, l2, stop, start);
  if (fitted === null) return null;
  const { protectedRows, expected, models } = fitted;
  const k = protectedRows.length;
  const sub = codes.map((c) => {
    const out = new Int32Array(k);
    for (let r = 0; r < k; r++) out[r] = c[protectedRows[r]!]!;
    return out;
  });
  const observed = new Float64Array(k);
  for (let r = 0; r < k; r++) observed[r] = frame.scanned[protectedRows[r]!]!;
  let exp = expected;
  if (frame.realEvent) {
    exp = new Float64Array(k);
    for (let r = 0; r < k; r++) exp[r] = logit(expected[r]!);
  }
  return { data: { codes: sub, arity, observed, expected: exp }, protectedRows, expected, models };
}

/**
 * Rate of the event and row count over the kept rows of one class matching the scan subset; the
 * rate is null when no row matches.
 */
function classRate(
  frame: Frame,
  codes: Int32Array[],
  subset: ScanResult['subset'],
  cls: 0 | 1,
): { size: number; rate: number | null } {
  let size = 0;
  let sum = 0;
  for (let i = 0; i < frame.n; i++) {
    if (!frame.kept[i] || frame.a[i] !== cls) continue;
    if (!subset.every((vals, m) => vals === null || vals.includes(codes[m]![i]!))) continue;
    size++;
    sum += frame.event[i]!;
  }
  return { size, rate: size === 0 ? null : sum / size };
}

function conditionsOf(res: ScanResult, encodings: AttributeEncoding[]): Condition[] {
  const out: Condition[] = [];
  res.subset.forEach((vals, m) => {
    if (vals !== null) out.push(encodings[m]!.condition(vals));
  });
  return out;
}

/**
 * What a scan type needs from the model: the probability P of the favourable outcome (the
 * `-predictions` types: I = P, or C = logit P), or only the recommendation P_bin (the
 * `-recommendations` types), which a model without `predictProba` gives as its predicted label.
 */
export function needsProbabilities(scanType: ScanType): boolean {
  return scanType.endsWith('-predictions');
}

function favourableLabel(dataset: Dataset): string {
  return dataset.schema.outcome.labels[dataset.schema.outcome.favorable]!;
}

/**
 * P (or, for a model without `predictProba` and a `-recommendations` scan, P_bin as 0 or 1) for every
 * row; a typed error when the scan type needs probabilities the model does not give.
 */
function modelPredictions(
  dataset: Dataset,
  model: {
    hasProba: boolean;
    nClasses: number;
    predictProba(x: Float64Array): Float64Array;
    predict(x: Float64Array): Int32Array;
  },
  scanType: ScanType,
): { p: Float64Array; source: 'probabilities' | 'labels' } {
  const favourable = dataset.schema.outcome.favorable;
  if (model.hasProba) {
    const classes = model.nClasses;
    const proba = model.predictProba(dataset.x);
    return {
      p: Float64Array.from({ length: dataset.n }, (_, i) => proba[i * classes + favourable]!),
      source: 'probabilities',
    };
  }
  if (needsProbabilities(scanType)) {
    throw new ModelError(
      'MODEL_MISMATCH',
      `scanType "${scanType}" needs the model's probability of "${favourableLabel(dataset)}" (${scanType.startsWith('separation') ? 'the event I = P' : 'the condition C = P'}), but the model has no predictProba; the -recommendations scan types need only its predicted labels`,
    );
  }
  const labels = model.predict(dataset.x);
  return { p: Float64Array.from(labels, (v) => (v === favourable ? 1 : 0)), source: 'labels' };
}

/** P must give a probability for every row. */
function checkPredictions(dataset: Dataset, p: Float64Array): void {
  if (p.length !== dataset.n) {
    throw new DataError(
      'DATA_SHAPE',
      `predictions: ${p.length} probabilities for ${dataset.n} rows (one probability of "${favourableLabel(dataset)}" per row)`,
    );
  }
  for (let i = 0; i < p.length; i++) {
    const v = p[i]!;
    if (!(v >= 0 && v <= 1)) {
      throw new DataError(
        Number.isFinite(v) ? 'DATA_OUT_OF_DOMAIN' : 'DATA_NOT_FINITE',
        `predictions: row ${i} has probability ${v}, not in [0, 1]`,
        { row: i },
      );
    }
  }
}

/**
 * Conditional Bias Scan (Boxer, McFowland & Neill 2023): the subgroup of the protected class whose
 * predictions, recommendations or outcomes deviate most from what the non-protected class with the
 * same covariates (and the same condition variable) would lead to expect, with a permutation p-value.
 */
export const cbs: SubgroupDetector<CbsOptions> = defineSubgroupDetector<CbsOptions>({
  id: 'cbs',
  version: VERSION,
  access: 'black-box',
  description:
    'Conditional Bias Scan (Boxer, McFowland & Neill 2023): the protected-class subgroup with the most significant separation or sufficiency violation against the comparable non-protected subgroup, by propensity-weighted expectations, fast subset scanning and a permutation test.',
  requiresModel: true,
  optionsSchema: cbsOptionsSchema,
  async scan({ dataset, model, options, ctl }) {
    const { p, source } = modelPredictions(dataset, model!, options.scanType);
    const result = await conditionalBiasScan(dataset, p, options, ctl);
    result.extras['predictions'] = source;
    return result;
  },
});

type Direction = 'positive' | 'negative';

/** The outcome of one scan: a class in one direction. */
interface ClassScan {
  cls: ProtectedClassSpec;
  direction: Direction;
  frame: Frame;
  codes: Int32Array[];
  encodings: AttributeEncoding[];
  input: ScanInput;
  res: ScanResult;
  /** The resampling test's count for this scan. */
  test: SequentialPValue;
}

/** The protected class redrawn for the null: permuted, or drawn row by row from P(A = 1 | X, C). */
function nullClass(
  options: CbsOptions,
  a: Uint8Array,
  propensity: Float64Array | null,
  rng: RunController['rng'],
  out: Uint8Array,
): boolean {
  if (propensity === null) {
    out.set(a);
    rng.shuffle(out);
    return true;
  }
  let members = 0;
  for (let i = 0; i < out.length; i++) {
    out[i] = rng.bernoulli(propensity[i]!) ? 1 : 0;
    members += out[i]!;
  }
  // A draw with every row on one side has no expectations to compare with; it is redrawn.
  return options.test === 'permutation' || (members > 0 && members < out.length);
}

/**
 * What the classes of one sensitive attribute share: the designs of their fits (X without that
 * attribute, and C) and the scan's encoding of X. Neither depends on which values form the class.
 */
interface SensitiveShared {
  designs: Designs;
  codes: Int32Array[];
  arity: number[];
  encodings: AttributeEncoding[];
}

/**
 * Steps 1-3 for one protected class: expectations, one scan per direction, then the resampling test
 * shared by the directions. Returns null when the budget stopped it before its first scan ended.
 */
async function scanClass(
  dataset: Dataset,
  p: Float64Array,
  options: ScanOptions,
  ctl: RunController,
  cls: ProtectedClassSpec,
  directions: Direction[],
  key: string,
  phase: { done: number; total: number },
  planned: number,
  shared: Map<number, SensitiveShared>,
): Promise<ClassScan[] | null> {
  const stop = () => ctl.shouldStop() !== null;
  const frame = buildFrame(dataset, p, options, cls);
  let common = shared.get(cls.index);
  if (common === undefined) {
    common = {
      designs: buildDesigns(dataset, frame, options.l2),
      ...encodeAttributes(dataset, options, frame.covariates),
    };
    shared.set(cls.index, common);
  }
  const { designs, codes, arity, encodings } = common;
  if (stop()) return null;
  // The estimation fits are not interruptible; the budget is checked between them.
  const input = scanInput(designs, frame, frame.a, codes, arity, options.l2, stop);
  if (input === null) return null;
  const stopAt =
    options.stopping === 'sequential'
      ? exceedancesToStop(options.sequentialLevel, options.permutations, planned)
      : null;
  const scans: ClassScan[] = [];
  for (const direction of directions) {
    const config = scanConfig(frame, options, direction);
    const scan = new SubsetScan(input.data, config, ctl.rng.fork(`${key}-scan-${direction}`));
    for (;;) {
      scan.runIteration(stop);
      const halt = await ctl.checkpoint({ phase: 'scan', done: phase.done, total: phase.total });
      if (scan.finished || halt) break;
    }
    scans.push({
      cls,
      direction,
      frame,
      codes,
      encodings,
      input,
      res: scan.result(),
      test: new SequentialPValue(options.permutations, stopAt),
    });
  }

  const tested = scans.filter((c) => c.res.score > 0);
  if (options.permutations > 0 && tested.length > 0 && !stop()) {
    const propensity = options.test === 'permutation' ? null : classPropensity(designs, frame.a, options.l2);
    if (stop()) return scans;
    const drawn = new Uint8Array(frame.n);
    // A scan whose sequential test has stopped is not rescanned; the class stops when all have.
    for (let r = 0; r < options.permutations; r++) {
      const open = tested.filter((c) => !c.test.stopped);
      if (open.length === 0) break;
      const rng = ctl.rng.fork(`${key}-resample-${r}`);
      let ok = nullClass(options, frame.a, propensity, rng, drawn);
      for (let retry = 0; !ok && retry < 10; retry++)
        ok = nullClass(options, frame.a, propensity, rng, drawn);
      if (!ok) break;
      const nullInput = scanInput(designs, frame, drawn, codes, arity, options.l2, stop, input.models);
      if (nullInput === null || stop()) break;
      let complete = true;
      const exceeded = open.map((c) => {
        const reached = nullReaches(
          nullInput.data,
          scanConfig(frame, options, c.direction),
          rng.fork(c.direction),
          c.res.score,
          stop,
        );
        if (reached === null) complete = false;
        return reached === true;
      });
      if (!complete) break;
      open.forEach((c, k) => {
        c.test.record(exceeded[k]!);
      });
      if (await ctl.checkpoint({ phase: 'permutation', done: r + 1, total: options.permutations })) break;
    }
  }
  return scans;
}

/**
 * Whether the scan of a resample reaches the observed score: the scan's iterations run until one
 * reaches it (the maximum over all iterations then does too, so the count is the full scan's) or all
 * have run. No iteration runs when the scan's upper bound (the best set of records, subgroup or not)
 * is below the observed score, and the best subset is rescored only after an iteration improved it:
 * the answer is the full scan's either way. Null when the budget interrupted it.
 */
function nullReaches(
  data: ScanData,
  config: ScanConfig,
  rng: RunController['rng'],
  observed: number,
  stop: () => boolean,
): boolean | null {
  const scan = new SubsetScan(data, config, rng);
  if (scan.scoreBound() < observed) return false;
  let seen = 0;
  while (!scan.finished) {
    if (!scan.runIteration(stop)) return null;
    if (scan.improvements === seen) continue;
    seen = scan.improvements;
    if (scan.result().score >= observed) return true;
  }
  return false;
}

function scanConfig(frame: Frame, options: ScanOptions, direction: Direction): ScanConfig {
  return {
    score: frame.realEvent ? 'gaussian' : 'bernoulli',
    direction,
    iterations: options.iterations,
    penalty: options.penalty,
  };
}

/**
 * CBS on given predictions: `p[i]` is the probability of the favourable outcome predicted for row i
 * (the detector takes it from the model; a study may pass predictions that are not a function of the
 * attributes). Options must be resolved (`cbs.resolveOptions`). Every protected class and direction
 * asked for is scanned; each detected subgroup's p-value is multiplied by the number of scans
 * (Bonferroni), so that the chance of any false rejection stays at the level.
 */
export async function conditionalBiasScan(
  dataset: Dataset,
  p: Float64Array,
  given: CbsOptions,
  ctl: RunController,
): Promise<{ subgroups: SubgroupFinding[]; extras: Record<string, unknown> }> {
  const t0 = performance.now();
  checkPredictions(dataset, p);
  const { classes, skipped } = protectedClasses(dataset, given);
  if (classes.length === 0) {
    throw new DataError(
      'DATA_EMPTY_GROUP',
      `no protected class to scan: ${skipped.map((c) => `${JSON.stringify(c.condition)} (${c.reason})`).join('; ')}`,
    );
  }
  const directions: Direction[] = given.direction === 'both' ? ['positive', 'negative'] : [given.direction];
  const planned = classes.length * directions.length;
  const options: ScanOptions = { ...given, permutations: resamplesFor(given, planned) };
  const scans: ClassScan[] = [];
  let classesScanned = 0;
  const shared = new Map<number, SensitiveShared>();
  for (const [c, cls] of classes.entries()) {
    if (c > 0 && (await ctl.checkpoint({ phase: 'class', done: c, total: classes.length }))) break;
    const res = await scanClass(
      dataset,
      p,
      options,
      ctl,
      cls,
      directions,
      classes.length === 1 ? 'class' : `class-${c}`,
      {
        done: c,
        total: classes.length,
      },
      planned,
      shared,
    );
    if (res === null) break;
    scans.push(...res);
    classesScanned++;
  }
  const seconds = (performance.now() - t0) / 1000;

  const found: Omit<SubgroupFinding, 'rank'>[] = [];
  const summaries: Record<string, unknown>[] = [];
  const warnings: string[] = [];
  for (const scan of scans) {
    const { finding, summary, warning } = describeScan(dataset, options, scan, planned);
    if (finding !== null) found.push(finding);
    if (warning !== null) warnings.push(warning);
    summaries.push(summary);
  }
  found.sort((u, v) => (u.pValue ?? 2) - (v.pValue ?? 2) || v.score - u.score);
  return {
    subgroups: found.map((f, i) => ({ rank: i + 1, ...f })),
    extras: {
      scanType: options.scanType,
      score: scans[0]?.frame.realEvent ? 'gaussian' : 'bernoulli',
      test: options.test,
      scansPlanned: planned,
      classesScanned,
      classesPlanned: classes.length,
      skippedClasses: skipped,
      scans: summaries,
      warnings,
      permutationsPlanned: options.permutations,
      stopping: options.stopping,
      timings: { seconds },
    },
  };
}

function describeScan(
  dataset: Dataset,
  options: ScanOptions,
  scan: ClassScan,
  planned: number,
): {
  finding: Omit<SubgroupFinding, 'rank'> | null;
  summary: Record<string, unknown>;
  warning: string | null;
} {
  const { frame, codes, encodings, input, res, cls } = scan;
  const scanConditions = conditionsOf(res, encodings);
  const detected = classRate(frame, codes, res.subset, 1);
  const comparison = classRate(frame, codes, res.subset, 0);
  let expectedSum = 0;
  for (let r = 0; r < input.protectedRows.length; r++) {
    const i = input.protectedRows[r]!;
    if (res.subset.every((vals, m) => vals === null || vals.includes(codes[m]![i]!)))
      expectedSum += input.expected[r]!;
  }
  const expectedRate = detected.size === 0 ? 0 : expectedSum / detected.size;
  const raw = scan.test.pValue();
  const pValue = raw === null ? null : Math.min(1, raw * planned);
  const summary = {
    protectedClass: cls.condition,
    direction: scan.direction,
    score: res.score,
    protectedRowsScanned: input.protectedRows.length,
    iterationsRun: res.iterationsRun,
    permutationsCompleted: scan.test.completed,
    unadjustedPValue: raw,
    pValue,
  };
  if (!(res.score > 0)) return { finding: null, summary, warning: null };
  const conditions: Condition[] = [cls.condition, ...scanConditions];
  const warning =
    comparison.size === 0
      ? `positivity: no row outside ${JSON.stringify(cls.condition)} matches ${JSON.stringify(scanConditions)}; its expectation extrapolates the event model`
      : null;
  const rate = detected.rate ?? 0;
  const effect = rate - expectedRate;
  return {
    summary,
    warning,
    finding: {
      conditions,
      size: count(memberMask(dataset, conditions)),
      score: res.score,
      effect,
      pValue,
      direction: effect >= 0 ? 'higher' : 'lower',
      details: {
        scanType: options.scanType,
        scanDirection: scan.direction,
        conditionValue: options.conditionValue,
        [frame.realEvent ? 'mu' : 'q']: res.parameter,
        scannedSize: detected.size,
        detectedRate: rate,
        expectedRate,
        comparisonSize: comparison.size,
        comparisonRate: comparison.rate,
        positivity: comparison.size > 0,
        unadjustedPValue: raw,
        scansAdjustedFor: planned,
        test: options.test,
        permutationsCompleted: scan.test.completed,
      },
    },
  };
}

function count(mask: Uint8Array): number {
  let c = 0;
  for (let i = 0; i < mask.length; i++) c += mask[i]!;
  return c;
}
