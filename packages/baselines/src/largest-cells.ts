import { defineSubgroupDetector, protectedIndices, RowIndex, type SubgroupScan } from '@fb/core';
import { binsOption, blindFinding, observedLevels } from './blind.js';
import { VERSION } from './version.js';

export interface LargestCellsOptions {
  /** Cells reported (the largest). */
  top: number;
  /** Equal-height bins of a continuous protected attribute. */
  bins: number;
}

/**
 * A floor (an output that knows nothing): the `top` joint protected-value cells with the most rows.
 * A cell sets every protected attribute to one value (a discrete attribute by its observed values, a
 * continuous one by one of at most `bins` equal-height bins from core's `discretiseAttribute`). Ranked
 * by size (ties: the cell whose first row comes first in the data), `score` = `size` = member count.
 * Blind to labels and model: it is matched to a method on the protected attributes alone, and scores
 * what "report the biggest demographic groups" scores.
 */
async function largestCells({ dataset, options, ctl }: SubgroupScan<LargestCellsOptions>) {
  if (await ctl.checkpoint({ phase: 'cells', done: 0, total: 1 })) return { subgroups: [] };
  const { n } = dataset;
  const levels = protectedIndices(dataset.schema).map((j) => observedLevels(dataset, j, options.bins));
  const k = levels.length;
  const codes = new Float64Array(n * k);
  levels.forEach((l, p) => {
    for (let i = 0; i < n; i++) codes[i * k + p] = l.codes[i]!;
  });
  // Cells get ids in order of their first row.
  const cells = new RowIndex(k);
  const ids = new Int32Array(n);
  cells.getOrAddAll(codes, n, ids);
  const sizes = new Int32Array(cells.size);
  for (let i = 0; i < n; i++) sizes[ids[i]!]!++;
  const ranked = Array.from(sizes.keys()).sort((a, b) => sizes[b]! - sizes[a]! || a - b);
  const subgroups = ranked.slice(0, options.top).map((id, r) => {
    const cell = cells.row(id);
    const size = sizes[id]!;
    return blindFinding(
      r + 1,
      levels.map((l, p) => l.levels[cell[p]!]!),
      size,
      size,
      { share: size / n },
    );
  });
  return { subgroups, extras: { cells: cells.size } };
}

export const largestProtectedCells = defineSubgroupDetector<LargestCellsOptions>({
  id: 'largest-protected-cells',
  version: VERSION,
  access: 'data-only',
  requiresModel: false,
  description:
    'Floor: the largest joint protected-value cells (every protected attribute set to one value), ranked by size; blind to labels and model.',
  optionsSchema: {
    type: 'object',
    additionalProperties: false,
    properties: {
      top: { type: 'integer', minimum: 1, default: 5, description: 'cells reported (the largest)' },
      bins: binsOption('equal-height bins of a continuous protected attribute (one cell value per bin)', 5),
    },
  },
  scan: largestCells,
});
