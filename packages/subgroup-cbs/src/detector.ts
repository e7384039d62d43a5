import {
  type Condition,
  type Dataset,
  type Detector,
  defineSubgroupDetector,
  ModelError,
  memberMask,
  type RunController,
  type SubgroupFinding,
} from '@fb/core';
import {
  type AttributeEncoding,
  encodeAttributes,
  monteCarloPValue,
  type ScanConfig,
  type ScanData,
  type ScanResult,
  SubsetScan,
  scanSubsets,
} from '@fb/subset-scan';
import pkg from '../package.json' with { type: 'json' };
import { buildDesigns, type Designs, expectations } from './expectations.js';
import { buildFrame, type Frame, logit, protectedClass } from './frame.js';
import { type CbsOptions, cbsOptionsSchema } from './options.js';

const seconds = (from: number) => (performance.now() - from) / 1000;

/** What the scan runs on for one assignment of the protected class. */
interface ScanInput {
  data: ScanData;
  protectedRows: Int32Array;
  expected: Float64Array;
}

function scanInput(
  designs: Designs,
  frame: Frame,
  a: Uint8Array,
  codes: Int32Array[],
  arity: number[],
  l2: number,
): ScanInput {
  const { protectedRows, expected } = expectations(designs, frame, a, l2);
  const sub = codes.map((c) => Int32Array.from(protectedRows, (i) => c[i]!));
  const observed = Float64Array.from(protectedRows, (i) =>
    frame.realEvent ? logit(frame.event[i]!) : frame.event[i]!,
  );
  const exp = frame.realEvent ? Float64Array.from(expected, logit) : expected;
  return { data: { codes: sub, arity, observed, expected: exp }, protectedRows, expected };
}

/** Rate of the event and row count over the kept rows of one class matching the scan subset. */
function classRate(
  frame: Frame,
  codes: Int32Array[],
  subset: ScanResult['subset'],
  cls: 0 | 1,
): { size: number; rate: number } {
  let size = 0;
  let sum = 0;
  for (let i = 0; i < frame.n; i++) {
    if (!frame.kept[i] || frame.a[i] !== cls) continue;
    if (!subset.every((vals, m) => vals === null || vals.includes(codes[m]![i]!))) continue;
    size++;
    sum += frame.event[i]!;
  }
  return { size, rate: size === 0 ? 0 : sum / size };
}

function conditionsOf(res: ScanResult, encodings: AttributeEncoding[]): Condition[] {
  const out: Condition[] = [];
  res.subset.forEach((vals, m) => {
    if (vals !== null) out.push(encodings[m]!.condition(vals));
  });
  return out;
}

function checkModel(dataset: Dataset, hasProba: boolean): void {
  if (!hasProba) {
    throw new ModelError(
      'MODEL_MISMATCH',
      `CBS audits predicted probabilities of "${dataset.schema.outcome.labels[dataset.schema.outcome.favorable]}", but the model has no predictProba`,
    );
  }
}

/**
 * Conditional Bias Scan (Boxer, McFowland & Neill 2023): the subgroup of the protected class whose
 * predictions, recommendations or outcomes deviate most from what the non-protected class with the
 * same covariates (and the same condition variable) would lead to expect, with a permutation p-value.
 */
export const cbs: Detector<CbsOptions> = defineSubgroupDetector<CbsOptions>({
  id: 'cbs',
  version: pkg.version,
  access: 'black-box',
  description:
    'Conditional Bias Scan (Boxer, McFowland & Neill 2023): the protected-class subgroup with the most significant separation or sufficiency violation against the comparable non-protected subgroup, by propensity-weighted expectations, fast subset scanning and a permutation test.',
  requiresModel: true,
  optionsSchema: cbsOptionsSchema,
  async scan({ dataset, model, options, ctl }) {
    checkModel(dataset, model!.hasProba);
    const classes = model!.nClasses;
    const favourable = dataset.schema.outcome.favorable;
    const proba = model!.predictProba(dataset.x);
    const p = Float64Array.from({ length: dataset.n }, (_, i) => proba[i * classes + favourable]!);
    return conditionalBiasScan(dataset, p, options, ctl);
  },
});

/**
 * CBS on given predictions: `p[i]` is the probability of the favourable outcome predicted for row i
 * (the detector takes it from the model; a study may pass predictions that are not a function of the
 * attributes). Options must be resolved (`cbs.resolveOptions`).
 */
export async function conditionalBiasScan(
  dataset: Dataset,
  p: Float64Array,
  options: CbsOptions,
  ctl: RunController,
): Promise<{ subgroups: SubgroupFinding[]; extras: Record<string, unknown> }> {
  const t0 = performance.now();
  const { index: sensitive, values } = protectedClass(dataset, options);
  const frame = buildFrame(dataset, p, options, sensitive, values);
  const designs = buildDesigns(dataset, frame);
  const { codes, arity, encodings } = encodeAttributes(dataset, options, frame.covariates);
  const input = scanInput(designs, frame, frame.a, codes, arity, options.l2);
  const estimateSeconds = seconds(t0);

  const config: ScanConfig = {
    score: frame.realEvent ? 'gaussian' : 'bernoulli',
    direction: options.direction,
    iterations: options.iterations,
    penalty: options.penalty,
  };
  const stop = () => ctl.shouldStop() !== null;
  const tScan = performance.now();
  const scan = new SubsetScan(input.data, config, ctl.rng.fork('scan'));
  for (let done = 1; ; done++) {
    scan.runIteration(stop);
    const halt = await ctl.checkpoint({ phase: 'scan', done, total: options.iterations });
    if (scan.finished || halt) break;
  }
  const res = scan.result();
  const scanSeconds = seconds(tScan);

  // Permutation test (Appendix A.3): A permuted over all rows, expectations re-estimated, rescanned.
  const tPerm = performance.now();
  let atLeast = 0;
  let completed = 0;
  if (options.permutations > 0 && res.score > 0 && !stop()) {
    const permuted = frame.a.slice();
    for (let r = 0; r < options.permutations; r++) {
      const rng = ctl.rng.fork(`permutation-${r}`);
      permuted.set(frame.a);
      rng.shuffle(permuted);
      const nullInput = scanInput(designs, frame, permuted, codes, arity, options.l2);
      const nullRes = scanSubsets(nullInput.data, config, rng.fork('scan'), stop);
      if (!nullRes.complete) break;
      if (nullRes.score >= res.score) atLeast++;
      completed++;
      if (await ctl.checkpoint({ phase: 'permutation', done: completed, total: options.permutations })) break;
    }
  }
  const permutationSeconds = seconds(tPerm);

  const sensitiveName = dataset.schema.attributes[sensitive]!.name;
  const scanConditions = conditionsOf(res, encodings);
  const subgroups: SubgroupFinding[] = [];
  const detected = classRate(frame, codes, res.subset, 1);
  const comparison = classRate(frame, codes, res.subset, 0);
  let expectedRate = 0;
  for (let r = 0; r < input.protectedRows.length; r++) {
    const i = input.protectedRows[r]!;
    if (res.subset.every((vals, m) => vals === null || vals.includes(codes[m]![i]!)))
      expectedRate += input.expected[r]!;
  }
  expectedRate = detected.size === 0 ? 0 : expectedRate / detected.size;
  const comparisonConditions: Condition[] = [
    { attribute: sensitiveName, values: nonProtectedValues(dataset, sensitive, values) },
    ...scanConditions,
  ];
  if (res.score > 0) {
    const conditions: Condition[] = [
      { attribute: sensitiveName, values: [...values].sort((u, v) => u - v) },
      ...scanConditions,
    ];
    const effect = detected.rate - expectedRate;
    subgroups.push({
      rank: 1,
      conditions,
      size: count(memberMask(dataset, conditions)),
      score: res.score,
      effect,
      pValue: monteCarloPValue(atLeast, completed),
      direction: effect >= 0 ? 'higher' : 'lower',
      details: {
        scanType: options.scanType,
        scanDirection: options.direction,
        conditionValue: options.conditionValue,
        [frame.realEvent ? 'mu' : 'q']: res.parameter,
        scannedSize: detected.size,
        detectedRate: detected.rate,
        expectedRate,
        comparisonSize: comparison.size,
        comparisonRate: comparison.rate,
        permutationsCompleted: completed,
      },
    });
  }
  return {
    subgroups,
    extras: {
      protectedClass: { attribute: sensitiveName, values },
      scanType: options.scanType,
      score: frame.realEvent ? 'gaussian' : 'bernoulli',
      protectedRowsScanned: input.protectedRows.length,
      comparison:
        res.score > 0
          ? { conditions: comparisonConditions, scannedSize: comparison.size, rate: comparison.rate }
          : null,
      iterationsRun: res.iterationsRun,
      permutationsCompleted: completed,
      permutationsPlanned: options.permutations,
      timings: { estimateSeconds, scanSeconds, permutationSeconds },
    },
  };
}

function count(mask: Uint8Array): number {
  let c = 0;
  for (let i = 0; i < mask.length; i++) c += mask[i]!;
  return c;
}

/** The values of the sensitive attribute seen in the data outside the protected class. */
function nonProtectedValues(dataset: Dataset, sensitive: number, values: number[]): number[] {
  const set = new Set(values);
  const seen = new Set<number>();
  for (let i = 0; i < dataset.n; i++) {
    const v = dataset.x[i * dataset.d + sensitive]!;
    if (!set.has(v)) seen.add(v);
  }
  return [...seen].sort((u, v) => u - v);
}
