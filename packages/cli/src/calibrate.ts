import {
  type Condition,
  conditionMatcher,
  type Dataset,
  type DiscoveryResult,
  FairbenchError,
  memberMask,
} from '@fb/core';
import { wilsonInterval } from '@fb/eval';
import { generate } from '@fb/synth';
import { type DetectorProgress, type MethodRun, runDetectors } from './audit.js';
import type { AuditData } from './data.js';
import { prepareModel } from './models.js';

export interface CalibrateOptions {
  /** Data sets generated per condition (planted bias, and none). */
  trials: number;
  /** Logit bias planted in each pair's subgroup A (negative: fewer favourable outcomes). */
  bias: number;
  /** Subgroup pairs planted per data set. */
  pairs: number;
  model: 'rf' | 'lr' | 'mlp';
  /** Detector budget per data set, seconds. */
  seconds: number;
  seed: number;
  only?: string[];
  signal: AbortSignal;
  progress: DetectorProgress;
  onTrial?: (trial: number, planted: boolean) => void;
  /** A trial failed (a typed error): it is left out, the others go on. */
  onTrialFailed?: (trial: number, planted: boolean, error: FairbenchError) => void;
}

/** One method's detection counts over all trials. */
export interface Calibration {
  readonly method: string;
  /** Planted subgroups (with bias) it found, of all planted. */
  readonly found: number;
  readonly planted: number;
  /** The same subgroups generated with zero bias that it "found" anyway, of all such. */
  readonly falseAlarms: number;
  readonly nullGroups: number;
  readonly power: { rate: number; lo: number; hi: number } | null;
  readonly falseAlarmRate: { rate: number; lo: number; hi: number } | null;
  /** Runs that did not complete (skipped, failed), with the reason. */
  readonly problems: string[];
}

/** A trial that could not run (its data set could not be generated, its model not trained, ...). */
export interface FailedTrial {
  /** 1-based. */
  readonly trial: number;
  readonly planted: boolean;
  /** The typed error's code and message. */
  readonly code: string;
  readonly reason: string;
}

export interface CalibrationResult {
  readonly methods: Calibration[];
  /** Trials (biased and unbiased counted apart) that ran to the end. */
  readonly trialsDone: number;
  /** Trials that failed: left out of the counts, the others kept. */
  readonly failedTrials: FailedTrial[];
}

/** Rows of `ds` shared by two masks over their union. */
function jaccard(a: Uint8Array, b: Uint8Array): number {
  let both = 0;
  let either = 0;
  for (let i = 0; i < a.length; i++) {
    both += a[i]! & b[i]!;
    either += a[i]! | b[i]!;
  }
  return either === 0 ? 0 : both / either;
}

/** The overlap a reported subgroup needs with a planted one to count as finding it. */
export const MIN_JACCARD = 0.3;
/** Reported subgroups with a p-value count only at this level. */
export const ALPHA = 0.05;

/**
 * Whether a run found the planted subgroup: a reported subgroup (with p ≤ ALPHA when the method gives
 * p-values) sharing at least MIN_JACCARD of its rows with it, or a discriminatory pair whose sample
 * lies in it.
 */
export function finds(result: DiscoveryResult, ds: Dataset, planted: readonly Condition[]): boolean {
  const f = result.findings;
  if (f.kind === 'individual') {
    const inGroup = conditionMatcher(ds.schema, planted);
    return f.pairs.some((p) => inGroup(p.sample, 0));
  }
  const target = memberMask(ds, planted);
  return f.subgroups.some(
    (s) =>
      s.conditions.length > 0 &&
      (s.pValue === null || s.pValue <= ALPHA) &&
      jaccard(memberMask(ds, s.conditions), target) >= MIN_JACCARD,
  );
}

/**
 * Fit the generator's copula to the data (descriptive mode), plant `pairs` subgroup pairs whose
 * subgroup A gets a logit bias of `-bias`, train the model on the generated data, audit the held-out
 * rows with each detector, and count the planted subgroups each one finds. The same is done with zero
 * bias (the same kind of subgroups, planted without any effect): what a method "finds" there is a false
 * alarm under the same rule.
 */
export async function calibrate(data: AuditData, options: CalibrateOptions): Promise<CalibrationResult> {
  const failedTrials: FailedTrial[] = [];
  let trialsDone = 0;
  let firstError: unknown = null;
  const counts = new Map<
    string,
    { found: number; planted: number; falseAlarms: number; nullGroups: number; problems: string[] }
  >();
  for (let trial = 0; trial < options.trials && !options.signal.aborted; trial++) {
    for (const planted of [true, false]) {
      if (options.signal.aborted) break;
      options.onTrial?.(trial, planted);
      const seed = options.seed * 1000 + trial;
      try {
        await runTrial(trial, planted, seed);
        trialsDone++;
      } catch (e) {
        // A typed error ends this trial only: the finished ones are kept and the failure is reported.
        if (!(e instanceof FairbenchError)) throw e;
        firstError ??= e;
        failedTrials.push({ trial: trial + 1, planted, code: e.code, reason: e.message });
        options.onTrialFailed?.(trial, planted, e);
      }
    }
  }
  if (trialsDone === 0 && firstError !== null) throw firstError;
  return {
    methods: [...counts].map(([method, c]) => ({
      method,
      ...c,
      power: c.planted > 0 ? wilsonInterval(c.found, c.planted) : null,
      falseAlarmRate: c.nullGroups > 0 ? wilsonInterval(c.falseAlarms, c.nullGroups) : null,
    })),
    trialsDone,
    failedTrials,
  };

  async function runTrial(trial: number, planted: boolean, seed: number): Promise<void> {
    const gen = generate({
      seed,
      source: data.dataset,
      pairs: options.pairs,
      minBias: planted ? options.bias : 0,
      maxBias: planted ? options.bias : 0,
      biasSign: 'negative',
      minGroupSize: 150,
      maxGroupSize: 400,
      backgroundShare: 0.6,
    });
    const prepared = await prepareModel(
      {
        ...data,
        dataset: gen.dataset,
        modelSchema: gen.dataset.schema,
        rawX: gen.dataset.x,
        binned: [],
        recorded: null,
      },
      { kind: 'train', model: options.model, testFraction: 0.5, seed },
    );
    let runs: MethodRun[];
    try {
      runs = await runDetectors(prepared, {
        seconds: options.seconds,
        seed,
        signal: options.signal,
        progress: options.progress,
        ...(options.only ? { only: options.only } : {}),
      });
    } finally {
      await prepared.close();
    }
    const groups = gen.truth.pairs.map((p) => p.a.conditions);
    for (const run of runs) {
      const c = counts.get(run.method.id) ?? {
        found: 0,
        planted: 0,
        falseAlarms: 0,
        nullGroups: 0,
        problems: [],
      };
      counts.set(run.method.id, c);
      if (!run.result || run.status !== 'done') {
        c.problems.push(
          `${planted ? 'planted' : 'null'} trial ${trial + 1}: ${run.status}${run.reason ? ` (${run.reason})` : ''}`,
        );
        continue;
      }
      const hits = groups.filter((g) => finds(run.result!, prepared.dataset, g)).length;
      if (planted) {
        c.found += hits;
        c.planted += groups.length;
      } else {
        c.falseAlarms += hits;
        c.nullGroups += groups.length;
      }
    }
  }
}
