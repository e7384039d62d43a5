import {
  type Condition,
  defineSubgroupDetector,
  domainValues,
  isDiscrete,
  memberMask,
  type SubgroupFinding,
  type SubgroupScan,
} from '@fb/core';
import { blindFinding } from './blind.js';
import { VERSION } from './version.js';

export interface RandomFinderOptions {
  /** Subgroups reported. */
  top: number;
  /** Most non-protected values in a subgroup (0..this many, uniformly). */
  maxOthers: number;
  /** Draws per reported subgroup before one with no member is accepted anyway. */
  attempts: number;
}

/**
 * Random subgroups: one protected value and up to `maxOthers` values of other attributes, drawn
 * uniformly from the seeded stream, each with at least one member where possible. It looks at
 * neither labels nor model: the floor every method must clear.
 */
async function drawSubgroups({ dataset, options, ctl }: SubgroupScan<RandomFinderOptions>) {
  const rng = ctl.rng.fork('random-finder');
  const attrs = dataset.schema.attributes;
  const prot = attrs.filter((a) => a.protected && isDiscrete(a));
  const others = attrs.filter((a) => !a.protected && isDiscrete(a));
  const pick = <T>(xs: ArrayLike<T>): T => xs[Math.floor(rng.next() * xs.length)]!;
  const subgroups: SubgroupFinding[] = [];
  // At most one subgroup per row: a result never reports more subgroups than the rows it scanned.
  const top = Math.min(options.top, dataset.n);
  for (let k = 0; k < top && prot.length > 0; k++) {
    let conditions: Condition[] = [];
    let size = 0;
    let stop = false;
    for (let a = 0; a < options.attempts && size === 0; a++) {
      if ((stop = (await ctl.checkpoint({ phase: 'draw', done: k, total: top })) !== null)) break;
      const p = pick(prot);
      conditions = [{ attribute: p.name, values: [pick(domainValues(p))] }];
      const extra = Math.floor(rng.next() * (Math.min(options.maxOthers, others.length) + 1));
      const chosen = rng.shuffle([...others]).slice(0, extra);
      for (const o of chosen) conditions.push({ attribute: o.name, values: [pick(domainValues(o))] });
      size = memberMask(dataset, conditions).reduce((s, v) => s + v, 0);
    }
    if (stop) break;
    subgroups.push(blindFinding(k + 1, conditions, size, top - k));
  }
  return { subgroups };
}

export const randomFinder = defineSubgroupDetector<RandomFinderOptions>({
  id: 'random-finder',
  version: VERSION,
  access: 'black-box',
  requiresModel: false,
  description:
    'Baseline: random subgroups (one protected value and up to two other values), blind to labels and model.',
  optionsSchema: {
    type: 'object',
    additionalProperties: false,
    properties: {
      top: { type: 'integer', minimum: 1, default: 5, description: 'subgroups reported' },
      maxOthers: {
        type: 'integer',
        minimum: 0,
        default: 2,
        description: 'most non-protected values per subgroup',
      },
      attempts: {
        type: 'integer',
        minimum: 1,
        default: 100,
        description: 'draws per subgroup to find one with members',
      },
    },
  },
  scan: drawSubgroups,
});
