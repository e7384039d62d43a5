import {
  exhaustiveCounterfactual,
  largestProtectedCells,
  sizeMatchedRandom,
  uniformDomain,
} from '@fb/baselines';
import type { Budget, Detector, DiscoveryResult } from '@fb/core';
import { type AuditScore, type ModelTruth, QueryClock } from '@fb/eval';
import { type Cell, contentHash } from '../plan/cells.js';
import type { Prepared } from '../run/prepare.js';
import { PromiseCache } from '../run/promise-cache.js';
import { type Measure, measuresOf, measureValues } from './measures.js';

/**
 * What an output that knows nothing scores through the same scorer, matched to one run: the floor a
 * method's paired excess is measured from. The per-value disparity scan, the third subgroup floor, is
 * a cell of its own in every block (`floorPlans`).
 */
export interface FloorScore {
  name: FloorName;
  /** Its value on every measure it is a floor of (null where it has none). */
  measures: Partial<Record<Measure, number | null>>;
}

export type FloorName =
  | 'random conjunctions'
  | 'largest protected cells'
  | 'random audited rows'
  | 'uniform domain samples'
  | 'every variant unasked'
  | 'random flips of the model'
  | 'per-value disparity scan';

/** What each floor is, for the report. */
export const floorMeaning: Record<FloorName, string> = {
  'random conjunctions':
    'random conjunctions (one protected value and other values), each matched to the size of one of the method’s top-k findings; blind to labels and model',
  'largest protected cells':
    'the top-k joint protected-value cells with the most audited rows; blind to labels and model',
  'per-value disparity scan':
    'every protected value alone and with one other value, tested for a gap (its own cell in the block)',
  'random audited rows':
    'as many audited rows as the method tested, drawn at random and checked with every protected variant',
  'uniform domain samples':
    'inputs drawn uniformly from the input domain, each checked with every protected variant, up to the queries the method was charged',
  'every variant unasked':
    'every protected variant of every audited row listed without asking the model: its precision is the share of all variant pairs the bias caused',
  'random flips of the model':
    'the model’s flips on the audited rows drawn at random: its precision is the share of the model’s flips the bias caused',
};

/** Method ids whose cells are floors, not methods: they stand beside the methods, never ranked. */
export const floorMethods: ReadonlyMap<string, FloorName> = new Map([
  ['value-disparity', 'per-value disparity scan'],
]);

/** A floor's run is a safety net, never a result: it is bounded by its match, not by time. */
const SAFETY_SECONDS = 120;

/** A floor's run, with the clock its model was asked through (for its anytime curve). */
interface FloorRun {
  result: DiscoveryResult;
  clock: QueryClock;
}

async function runFloor<O extends object>(
  detector: Detector<O>,
  options: Partial<O>,
  prep: Prepared,
  cell: Cell,
  budget: Budget,
): Promise<FloorRun> {
  const clock = new QueryClock(prep.model);
  clock.start();
  const result = await detector.run({ dataset: prep.dataset, model: clock.model }, options as O, {
    seed: cell.seed,
    budget: { maxSeconds: SAFETY_SECONDS, ...budget },
  });
  return { result, clock };
}

type FloorMeasures = Partial<Record<Measure, number | null>>;

/**
 * Floors whose run depends only on the block and their own inputs, never on the method (the uniform
 * sample of 100,000 queries is the same for every method that spent its budget): computed once per
 * worker and shared by the block's cells, keyed by everything the run and its scoring read.
 */
const sharedFloors = new PromiseCache<FloorMeasures>(64);

function sharedFloor(
  cell: Cell,
  floor: string,
  inputs: unknown,
  compute: () => Promise<FloorMeasures>,
): Promise<FloorMeasures> {
  const key = contentHash({
    block: cell.block,
    floor,
    inputs,
    seed: cell.seed,
    scoring: { jaccardThreshold: cell.jaccardThreshold, topK: cell.topK, anytime: cell.anytimeQueries },
  });
  return sharedFloors.get(key, compute);
}

const empty = (measures: readonly Measure[]) => Object.fromEntries(measures.map((m) => [m, 0]));

/** The share of the model's flips on the audited rows that the bias caused (its twin does not flip). */
function flipTrueShare(truth: ModelTruth | null): number | null {
  if (!truth || truth.flips === null || truth.trueFlips === null || truth.flips === 0) return null;
  return truth.trueFlips / truth.flips;
}

/**
 * The floors of one run on data with planted bias, each scored by `score` (the cell's own scorer:
 * same truth, model and twin). Subgroup runs: size-matched random conjunctions and the largest
 * protected cells. Individual runs: random audited rows as many as the run tested and uniform domain
 * samples up to the queries it was charged (each checked with every protected variant: floors of
 * every individual measure), and, for precision only, the base rate of bias-caused pairs among every variant pair of the audited rows
 * and among the model's flips (precision).
 */
export async function floorScores(
  result: DiscoveryResult,
  own: AuditScore,
  prep: Prepared,
  cell: Cell,
  score: (r: DiscoveryResult, clock?: QueryClock) => Promise<AuditScore>,
): Promise<FloorScore[]> {
  const scored = async (run: FloorRun) => measureValues(await score(run.result, run.clock));
  const f = result.findings;
  if (f.kind === 'subgroup') {
    const sizes = [...f.subgroups]
      .sort((a, b) => a.rank - b.rank)
      .slice(0, cell.topK)
      .map((s) => s.size)
      .filter((s) => s > 0);
    const random = sizes.length
      ? await scored(await runFloor(sizeMatchedRandom, { sizes }, prep, cell, {}))
      : empty(['localisation', 'recall']);
    const cells = await sharedFloor(cell, largestProtectedCells.id, {}, async () =>
      scored(await runFloor(largestProtectedCells, { top: cell.topK }, prep, cell, {})),
    );
    return [
      { name: 'random conjunctions', measures: random },
      { name: 'largest protected cells', measures: cells },
    ];
  }
  const tested = Math.min(prep.dataset.n, Math.max(0, Math.round(result.metrics.tsn)));
  const charged = own.queriesCharged ?? 0;
  // Each asked through a clock of its own: its anytime curve is the floor of the run's.
  const rows = tested
    ? await sharedFloor(cell, exhaustiveCounterfactual.id, { tested }, async () =>
        scored(
          await runFloor(exhaustiveCounterfactual, { order: 'random' }, prep, cell, { maxTested: tested }),
        ),
      )
    : empty(measuresOf.individual);
  const uniform = charged
    ? await sharedFloor(cell, uniformDomain.id, { charged }, async () =>
        scored(await runFloor(uniformDomain, {}, prep, cell, { maxQueries: charged })),
      )
    : empty(measuresOf.individual);
  const truth = prep.truth ? await prep.truth.modelTruth() : null;
  return [
    { name: 'random audited rows', measures: rows },
    { name: 'uniform domain samples', measures: uniform },
    { name: 'every variant unasked', measures: { precision: truth?.baseRate ?? null } },
    { name: 'random flips of the model', measures: { precision: flipTrueShare(truth) } },
  ];
}
