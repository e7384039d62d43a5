import {
  boundingConditions,
  type Dataset,
  defineSubgroupDetector,
  favourableProbabilities,
  maskRows,
  type RunController,
  type SubgroupDetector,
  type SubgroupFinding,
} from '@fb/core';
import { Booster, type BoostRun, type PartitionName } from './boost.js';
import { auditAttributeIndices, auditFeatures } from './features.js';
import { type Options, optionsSchema } from './options.js';
import { VERSION } from './version.js';

const seconds = (from: number) => (performance.now() - from) / 1000;

/** What `multiaccuracyAudit` returns: the detector's findings and extras, and the partition's row mask. */
export interface MultiaccuracyAudit {
  subgroups: SubgroupFinding[];
  extras: Record<string, unknown>;
  /** 1 for every row of the highest-scoring corrected partition (all zero when none was corrected). */
  members: Uint8Array;
}

/**
 * Multiaccuracy Boost's auditor (Kim, Ghorbani & Zou 2019) as the CBS paper uses it: boost the model's
 * log-odds against ridge auditors on three prediction-defined partitions and report the partition whose
 * correction scored highest, with a p-value from replicas drawn under calibrated predictions.
 */
export const multiaccuracy: SubgroupDetector<Options> = defineSubgroupDetector<Options>({
  id: 'multiaccuracy',
  version: VERSION,
  access: 'black-box',
  description:
    'Multiaccuracy Boost auditor (Kim, Ghorbani & Zou 2019): ridge auditors of the residual on the predicted-favourable, predicted-unfavourable and all rows, log-odds corrections until multiaccurate, and the highest-scoring corrected partition, with a p-value from null replicas.',
  requiresModel: true,
  optionsSchema,
  checkOptions(options, dataset) {
    auditAttributeIndices(dataset, options.auditAttributes);
  },
  async scan({ dataset, model, options, ctl }) {
    const p = favourableProbabilities(
      model!,
      dataset,
      'Multiaccuracy Boost corrects predicted probabilities, but the model has no predictProba',
    );
    const { subgroups, extras } = await multiaccuracyAudit(dataset, p, options, ctl);
    return { subgroups, extras };
  },
});

/**
 * The auditor on given predictions: `p[i]` is the probability of the favourable outcome for row i.
 * Options must be resolved (`multiaccuracy.resolveOptions`).
 */
export async function multiaccuracyAudit(
  dataset: Dataset,
  p: Float64Array,
  options: Options,
  ctl: RunController,
): Promise<MultiaccuracyAudit> {
  const t0 = performance.now();
  const { n, schema } = dataset;
  const favourable = schema.outcome.favorable;
  const y = Float64Array.from(dataset.y, (v) => (v === favourable ? 1 : 0));
  const { design, p: width } = auditFeatures(dataset, options.auditAttributes);
  const heldOut = new Uint8Array(n);
  const split = ctl.rng.fork('split');
  for (const i of split.sampleIndices(n, Math.max(1, Math.round(options.holdout * n)))) heldOut[i] = 1;
  const stop = () => ctl.shouldStop() !== null;
  const booster = await Booster.create(design, width, p, heldOut, options, stop, async () => {
    await ctl.checkpoint({ phase: 'auditors' });
  });
  let halted = false;
  const checkpoint = (phase: string) => async (done: number) => {
    halted ||= (await ctl.checkpoint({ phase, done, total: options.maxIterations })) !== null;
    return halted;
  };
  // A booster stopped while its auditors were being set up ran no round.
  const observed: BoostRun = booster
    ? await booster.run(y, checkpoint('boost'), stop)
    : { corrections: [], best: null, rounds: 0, stoppedBy: 'budget' };
  halted ||= observed.stoppedBy === 'budget';
  const boostSeconds = seconds(t0);

  // Replicas under H0 (calibrated predictions): outcomes redrawn from p, boosting rerun.
  const tRep = performance.now();
  let atLeast = 0;
  let completed = 0;
  if (booster && observed.best && options.replicas > 0 && !halted) {
    const rng = ctl.rng.fork('replicas');
    const yStar = new Float64Array(n);
    while (completed < options.replicas) {
      if (await ctl.checkpoint({ phase: 'replicas', done: completed, total: options.replicas })) break;
      for (let i = 0; i < n; i++) yStar[i] = rng.next() < p[i]! ? 1 : 0;
      const replica = await booster.run(yStar, checkpoint('replica-boost'), stop);
      if (replica.stoppedBy === 'budget') break;
      if ((replica.best?.score ?? Number.NEGATIVE_INFINITY) >= observed.best.score) atLeast++;
      completed++;
    }
  }
  const replicaSeconds = seconds(tRep);

  const members = new Uint8Array(n);
  const subgroups: SubgroupFinding[] = [];
  if (booster && observed.best) {
    for (const i of booster.rowsOf(observed.best.partition)) members[i] = 1;
    subgroups.push(finding(dataset, members, y, p, observed, atLeast, completed));
  }
  return {
    subgroups,
    members,
    extras: {
      direction: options.direction,
      update: 'log-odds',
      corrections: observed.corrections,
      rounds: observed.rounds,
      stoppedBy: observed.stoppedBy,
      heldOutRows: heldOut.reduce((s, v) => s + v, 0),
      replicasCompleted: completed,
      timings: { boostSeconds, replicaSeconds },
    },
  };
}

/** Each partition's membership rule (p₀: the model's initial probability of the favourable outcome). */
const PARTITION_RULES: Record<PartitionName, string> = {
  'predicted-favourable': "the model's probability of the favourable outcome > 0.5",
  'predicted-unfavourable': "the model's probability of the favourable outcome <= 0.5",
  all: 'every row',
};

function finding(
  dataset: Dataset,
  members: Uint8Array,
  y: Float64Array,
  p: Float64Array,
  run: BoostRun,
  atLeast: number,
  completed: number,
): SubgroupFinding {
  const best = run.best!;
  const box = boundingConditions(dataset, members);
  const rows = maskRows(members);
  let count = 0;
  let predicted = 0;
  let observed = 0;
  for (let i = 0; i < dataset.n; i++) {
    if (!members[i]) continue;
    count++;
    predicted += p[i]!;
    observed += y[i]!;
  }
  // The model's favourable probability above the observed favourable rate: the group is favoured.
  const effect = (predicted - observed) / count;
  return {
    rank: 1,
    // A partition is defined by the predictions: conditions only when a conjunction is exactly it.
    conditions: box.exact ? box.conditions : [],
    members: rows,
    rule: PARTITION_RULES[best.partition],
    size: rows.length,
    score: best.score,
    effect,
    pValue: completed === 0 ? null : (1 + atLeast) / (1 + completed),
    direction: effect >= 0 ? 'higher' : 'lower',
    details: {
      partition: best.partition,
      round: best.round,
      members: count,
      exact: box.exact,
      meanPrediction: predicted / count,
      outcomeRate: observed / count,
      replicasCompleted: completed,
    },
  };
}
