import { defineSubgroupDetector, type SubgroupScan } from '@fb/core';
import { blindFinding } from './blind.js';
import { VERSION } from './version.js';

/** The detector takes no options. */
export type WholePopulationOptions = Record<string, never>;

/**
 * A floor (an output that knows nothing): one finding covering every row, stated as the empty
 * conjunction (`conditions: []`, which core's result schema accepts and `memberMask` reads as every
 * row), `size` = the number of rows. Whatever a planted subgroup is, this is what "it is everyone"
 * scores; it is matched to nothing but the data.
 */
async function everyRow({ dataset, ctl }: SubgroupScan<WholePopulationOptions>) {
  if (await ctl.checkpoint({ phase: 'population' })) return { subgroups: [] };
  return { subgroups: [blindFinding(1, [], dataset.n, 1)] };
}

export const wholePopulation = defineSubgroupDetector<WholePopulationOptions>({
  id: 'whole-population',
  version: VERSION,
  access: 'data-only',
  requiresModel: false,
  description: 'Floor: one finding covering every row (the empty conjunction); blind to labels and model.',
  optionsSchema: { type: 'object', additionalProperties: false, properties: {} },
  scan: everyRow,
});
