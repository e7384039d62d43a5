import {
  type Condition,
  countMembers,
  type DiscreteAttribute,
  defineSubgroupDetector,
  type Rng,
  type SubgroupScan,
} from '@fb/core';
import { binsOption, blindFinding, observedLevels } from './blind.js';
import { VERSION } from './version.js';

export interface SizeMatchedRandomOptions {
  /** Target member counts, one finding each, in this order (e.g. a method's top-k findings' sizes). */
  sizes: number[];
  /** Random conjunctions drawn per target; the one closest to it in member count is kept. */
  attempts: number;
  /** Most attributes besides the protected one in a conjunction (0..this many, uniformly). */
  maxOthers: number;
  /** Equal-height bins of a continuous attribute; its condition is a random run of consecutive bins. */
  bins: number;
}

/**
 * A random condition on `a`: one observed value of a discrete attribute, or the interval of a random run
 * of consecutive bins of a continuous one (both ends uniform over the bins).
 */
function drawCondition(a: DiscreteAttribute, rng: Rng): Condition {
  const u = rng.int(0, a.arity - 1);
  if (!a.binned) return a.levels[u]!;
  const v = rng.int(0, a.arity - 1);
  const lo = Math.min(u, v);
  return a.condition(Array.from({ length: Math.max(u, v) - lo + 1 }, (_, t) => lo + t));
}

/**
 * A floor (an output that knows nothing) matched on size: for each target size, `attempts` random
 * conjunctions (one protected attribute's value, plus 0..`maxOthers` other attributes' values, all drawn
 * uniformly from the seeded stream), keeping the one whose member count is closest to the target (ties:
 * the first drawn; an exact match ends the draws). Findings come in the order of `sizes`, ranks 1..k.
 * Blind to labels and model: it scores what a method's findings would score if only their sizes were
 * right. `extras.drawnSizes[k]` lists the member counts of target k's draws, in the order drawn.
 */
async function drawMatched({ dataset, options, ctl }: SubgroupScan<SizeMatchedRandomOptions>) {
  const rng = ctl.rng.fork('size-matched-random');
  const attrs = dataset.schema.attributes;
  // Each attribute's levels (a sort of its column when binned): the budget is polled between them.
  const all: DiscreteAttribute[] = [];
  for (let j = 0; j < attrs.length; j++) {
    if ((await ctl.checkpoint({ phase: 'levels', done: j, total: attrs.length })) !== null) {
      return { subgroups: [], extras: { drawnSizes: [] } };
    }
    all.push(observedLevels(dataset, j, options.bins));
  }
  const prot = all.filter((_, j) => attrs[j]!.protected);
  const others = all.filter((_, j) => !attrs[j]!.protected);
  // At most one subgroup per row: a result never reports more subgroups than the rows it scanned.
  const targets = options.sizes.slice(0, dataset.n);
  const subgroups = [];
  const drawnSizes: number[][] = [];
  let stop = false;
  for (let k = 0; k < targets.length && !stop; k++) {
    const target = targets[k]!;
    let best: { conditions: Condition[]; size: number } | null = null;
    const drawn: number[] = [];
    for (let a = 0; a < options.attempts && best?.size !== target; a++) {
      if ((stop = (await ctl.checkpoint({ phase: 'draw', done: k, total: targets.length })) !== null)) break;
      const conditions = [drawCondition(rng.choice(prot), rng)];
      const extra = rng.int(0, Math.min(options.maxOthers, others.length));
      for (const o of rng.sample(others, extra)) conditions.push(drawCondition(o, rng));
      const size = countMembers(dataset, conditions);
      drawn.push(size);
      if (!best || Math.abs(size - target) < Math.abs(best.size - target)) best = { conditions, size };
    }
    if (stop || !best) break;
    drawnSizes.push(drawn);
    subgroups.push(
      blindFinding(k + 1, best.conditions, best.size, targets.length - k, { target, draws: drawn.length }),
    );
  }
  return { subgroups, extras: { drawnSizes } };
}

export const sizeMatchedRandom = defineSubgroupDetector<SizeMatchedRandomOptions>({
  id: 'size-matched-random',
  version: VERSION,
  access: 'data-only',
  requiresModel: false,
  description:
    'Floor: per target size, the random conjunction (a protected value and up to maxOthers other values) closest to it in member count; blind to labels and model.',
  optionsSchema: {
    type: 'object',
    additionalProperties: false,
    properties: {
      sizes: {
        type: 'array',
        items: { type: 'integer', minimum: 0 },
        default: [],
        description:
          "target member counts, one finding each in this order (e.g. a method's top-k findings' sizes); none: nothing is reported",
      },
      attempts: {
        type: 'integer',
        minimum: 1,
        default: 200,
        description: 'random conjunctions drawn per target (the closest in member count is kept)',
      },
      maxOthers: {
        type: 'integer',
        minimum: 0,
        default: 2,
        description: 'most attributes besides the protected one per conjunction (0..this many, uniformly)',
      },
      bins: binsOption(
        'equal-height bins of a continuous attribute; its condition is a random run of consecutive bins',
        10,
      ),
    },
  },
  scan: drawMatched,
});
