import {
  CheckStatus,
  defineIndividualDetector,
  type IndividualDetector,
  type IndividualSearch,
  type RunController,
} from '@fb/core';
import { solveAssignment } from './assignment.js';
import { assignedCounterparts, barycentricCounterparts } from './counterparts.js';
import { sinkhorn } from './entropic.js';
import { costMatrix, StandardFeatures, squaredL1 } from './features.js';
import { flipsets, transparencyReport } from './flipsets.js';
import { type Groups, resolveAllGroups, sampleRows } from './groups.js';
import { type FliptestOptions, optionsSchema } from './options.js';
import { interrupts } from './stops.js';
import { VERSION } from './version.js';

/** Check every member of the source sample with the counterfactual checker, batch by batch. */
async function checkMembers(
  x: Float64Array,
  d: number,
  rows: Int32Array,
  batchSize: number,
  check: (batch: Float64Array) => Int8Array,
  ctl: RunController,
): Promise<Int8Array | null> {
  const status = new Int8Array(rows.length);
  for (let start = 0; start < rows.length; start += batchSize) {
    if (interrupts(await ctl.checkpoint({ phase: 'counterfactual', done: start, total: rows.length }))) {
      return null;
    }
    const end = Math.min(rows.length, start + batchSize);
    const batch = new Float64Array((end - start) * d);
    for (let r = start; r < end; r++)
      batch.set(x.subarray(rows[r]! * d, (rows[r]! + 1) * d), (r - start) * d);
    const s = check(batch);
    status.set(s, start);
    if (s.includes(CheckStatus.Skipped)) {
      ctl.shouldStop(); // records which budget ran out
      return null;
    }
  }
  return status;
}

/** Counts of one attribute's run: members of S mapped by G, and the flipping pairs |F+| + |F-|. */
interface FlipCounts {
  mapped: number;
  flipping: number;
  /** Whether the TSN budget made a sample smaller than it would otherwise be. */
  budgetBound?: boolean;
}

/**
 * One protected attribute: sample S and S′, check S's members directly, map S onto S′, and build the
 * flipsets and their transparency report. Returns the attribute's extras; `completed` is false when a
 * budget or abort stopped it before the flipsets.
 */
async function flipAttribute(
  { dataset, model, options, ctl, checker }: IndividualSearch<FliptestOptions>,
  groups: Groups,
  counts: FlipCounts,
  share: number,
  timings: Record<string, number>,
): Promise<Record<string, unknown>> {
  const { d, x, schema } = dataset;
  // S's sample is this attribute's share of the TSN budget: each member is one tested sample.
  const sourceSize = Math.min(options.sampleSize, share);
  const exactSize = Math.min(groups.sourceRows.length, groups.targetRows.length, sourceSize);
  const exact =
    options.transport === 'exact' || (options.transport === 'auto' && exactSize <= options.exactLimit);
  const attr = schema.attributes[groups.attribute]!;
  const rng = ctl.rng.fork(`sample:${attr.name}`);
  const sourceCount = exact ? exactSize : Math.min(groups.sourceRows.length, sourceSize);
  // The budget bound when it, not the option or the group, set the sample size.
  if (share < options.sampleSize && sourceCount === share) counts.budgetBound = true;
  const source = sampleRows(groups.sourceRows, sourceCount, rng);
  const target = sampleRows(
    groups.targetRows,
    exact ? exactSize : Math.min(groups.targetRows.length, options.sampleSize),
    rng,
  );
  const extras: Record<string, unknown> = {
    attribute: attr.name,
    sourceValue: groups.sourceValue,
    targetValue: groups.targetValue,
    groupSizes: { source: groups.sourceRows.length, target: groups.targetRows.length },
    sampled: { source: source.length, target: target.length },
    transport: exact ? 'exact' : 'entropic',
    completed: false,
  };
  // The contract's pairs: each audited member of S, checked directly against its protected variants.
  let t = performance.now();
  const direct = await checkMembers(x, d, source, options.batchSize, (b) => checker.check(b).status, ctl);
  timings.checkSeconds = (performance.now() - t) / 1000;
  if (!direct) return extras;

  t = performance.now();
  const features = new StandardFeatures(dataset, groups.attribute, [source, target]);
  const p = features.columns.length;
  const zs = features.of(dataset, source);
  const zt = features.of(dataset, target);
  let counterparts: Float64Array;
  if (exact) {
    const cost = costMatrix(zs, source.length, zt, target.length, p);
    const rowToCol = solveAssignment(cost, source.length, () => interrupts(ctl.shouldStop()));
    timings.transportSeconds = (performance.now() - t) / 1000;
    if (!rowToCol) return extras;
    counterparts = assignedCounterparts(dataset, target, rowToCol);
    extras.counterpartRows = Array.from(rowToCol, (j) => target[j]!);
  } else {
    const plan = await sinkhorn(
      zs,
      source.length,
      zt,
      target.length,
      p,
      options.entropy,
      options.sinkhornIterations,
      options.sinkhornTolerance,
      ctl,
    );
    timings.transportSeconds = (performance.now() - t) / 1000;
    if (!plan) return extras;
    extras.sinkhorn = {
      epsilon: plan.epsilon,
      iterations: plan.iterations,
      marginalError: plan.marginalError,
      planCost: plan.planCost,
    };
    counterparts = barycentricCounterparts(dataset, target, source.length, plan.kernel, plan.v);
  }
  const zg = new Float64Array(p);
  let meanCost = 0;
  for (let i = 0; i < source.length; i++) {
    features.standardize(counterparts, i * d, zg, 0);
    meanCost += squaredL1(zs, i * p, zg, 0, p);
  }
  extras.meanCost = meanCost / source.length;

  // Flipsets come from the model's decisions on both sides, never from the dataset's labels.
  const maxQueries = ctl.budget.maxQueries;
  if (maxQueries !== undefined && model.distinctQueries + 2 * source.length > maxQueries) {
    ctl.stopFor('query-budget');
    return extras;
  }
  const both = new Float64Array(2 * source.length * d);
  for (let r = 0; r < source.length; r++) both.set(x.subarray(source[r]! * d, (source[r]! + 1) * d), r * d);
  both.set(counterparts, source.length * d);
  const labels = model.predict(both);
  const sampleLabels = labels.subarray(0, source.length);
  const counterpartLabels = labels.subarray(source.length);
  const sets = flipsets(sampleLabels, counterpartLabels, schema.outcome.favorable);
  const describe = (members: Int32Array) =>
    Array.from(members, (i) => ({
      sourceRow: source[i]!,
      counterpart: Array.from(counterparts.subarray(i * d, (i + 1) * d)),
      sampleOutcome: sampleLabels[i]!,
      counterpartOutcome: counterpartLabels[i]!,
      directlyDiscriminatory: direct[i] === CheckStatus.Discriminatory,
    }));
  extras.flipset = {
    positive: describe(sets.positive),
    negative: describe(sets.negative),
  };
  extras.report = {
    positive: transparencyReport(dataset, source, counterparts, sets.positive, features),
    negative: transparencyReport(dataset, source, counterparts, sets.negative, features),
  };
  counts.mapped += source.length;
  counts.flipping += sets.positive.length + sets.negative.length;
  extras.completed = true;
  return extras;
}

/**
 * FlipTest (Black, Yeom, Fredrikson, "FlipTest: Fairness Testing via Optimal Transport", FAT* 2020):
 * an optimal-transport map G between two protected groups on standardised features, the flipsets of
 * members whose decision differs from their counterpart's, and the transparency report of the
 * features that change along the flips. Run once per protected attribute asked for; TSN counts the
 * mapped members and DSN the flipping pairs (x, G(x)) over all of them.
 */
export const fliptest: IndividualDetector<FliptestOptions> = defineIndividualDetector<FliptestOptions>({
  id: 'fliptest',
  version: VERSION,
  access: 'black-box',
  description:
    'FlipTest (Black et al., FAT* 2020): optimal-transport map between two protected groups (exact assignment or entropic OT) for every protected attribute asked for, flipsets F+ and F- of members decided differently from their counterparts (DSN = flipping pairs), and a transparency report of the features that change.',
  optionsSchema,
  checkOptions: (options, dataset) => {
    resolveAllGroups(dataset, options);
  },
  async search(args) {
    const counts: FlipCounts = { mapped: 0, flipping: 0 };
    const runs: Record<string, unknown>[] = [];
    // Clock readings per attribute, kept at the top level where reproducibleView drops them.
    const timings: Record<string, Record<string, number>> = {};
    const extras: Record<string, unknown> = { attributes: runs, completed: false, counts, timings };
    const all = resolveAllGroups(args.dataset, args.options);
    for (const [k, groups] of all.entries()) {
      const name = args.dataset.schema.attributes[groups.attribute]!.name;
      timings[name] = {};
      // A TSN budget is shared evenly by the attributes still to run (TSN counts mapped members).
      const maxTested = args.ctl.budget.maxTested ?? Number.POSITIVE_INFINITY;
      const share = Math.floor((maxTested - counts.mapped) / (all.length - k));
      if (share < 1) {
        args.ctl.stopFor('tested-budget');
        break;
      }
      const run = await flipAttribute(args, groups, counts, share, timings[name]);
      runs.push(run);
      if (!run.completed) break;
    }
    extras.completed = runs.every((r) => r.completed);
    if (counts.budgetBound) args.ctl.stopFor('tested-budget');
    // The direct counterfactual checks behind findings.pairs, counted the contract's way.
    extras.direct = { tsn: args.checker.tsn, dsn: args.checker.dsn, pairs: args.checker.pairs };
    return extras;
  },
  ownCounts(extras) {
    const { mapped, flipping } = extras.counts as FlipCounts;
    return { tsn: mapped, dsn: flipping, pairs: flipping };
  },
});
