import {
  defineSubgroupDetector,
  type RunController,
  type SubgroupDetector,
  type SubgroupFinding,
} from '@fb/core';
import { type SliceColumn, sliceColumns } from './columns.js';
import { treeSearch } from './decision-tree.js';
import { latticeSearch } from './lattice.js';
import { exampleLosses } from './loss.js';
import { type Options, optionsSchema } from './options.js';
import type { EvaluatedSlice } from './slice-stats.js';
import { VERSION } from './version.js';

const seconds = (from: number) => (performance.now() - from) / 1000;
const finite = (v: number | null) => (v !== null && Number.isFinite(v) ? v : null);

function finding(
  s: EvaluatedSlice,
  conditions: SubgroupFinding['conditions'],
  details: SubgroupFinding['details'],
  size = s.size,
): Omit<SubgroupFinding, 'rank'> {
  return {
    conditions,
    size,
    // φ is +∞ when both sides have constant losses; the score stays finite for JSON.
    score: finite(s.effectSize) ?? Number.MAX_VALUE,
    effect: s.meanLoss - s.counterpartMeanLoss,
    pValue: s.pValue,
    direction: null,
    details: {
      ...details,
      effectSize: finite(s.effectSize),
      meanLoss: s.meanLoss,
      counterpartMeanLoss: s.counterpartMeanLoss,
      t: finite(s.t),
      df: finite(s.df),
      testLevel: s.level,
    },
  };
}

function treeConditions(columns: SliceColumn[], allowed: (Int32Array | null)[]) {
  const out: SubgroupFinding['conditions'] = [];
  allowed.forEach((codes, j) => {
    if (codes !== null) out.push(columns[j]!.condition(codes));
  });
  return out;
}

/**
 * The rows the decision tree is grown on and those its nodes are tested on: a seeded random half
 * each (`holdout`), or all rows for both (`none`, the paper's search).
 */
function treeRows(
  n: number,
  mode: Options['treeSplit'],
  ctl: RunController,
): { grow: Int32Array; test: Int32Array } {
  const all = Int32Array.from({ length: n }, (_, i) => i);
  if (mode === 'none') return { grow: all, test: all };
  ctl.rng.fork('tree-holdout').shuffle(all);
  const half = n >> 1;
  return { grow: all.slice(0, half).sort(), test: all.slice(half).sort() };
}

/**
 * SliceFinder (Chung, Kraska, Polyzotis, Tae & Whang, ICDE 2019): large, interpretable slices on which
 * the model's loss is higher than on the rest of the data, with an effect size of at least ε and a
 * Welch test significant under α-investing; found by lattice search and by decision-tree search.
 */
export const slicefinder: SubgroupDetector<Options> = defineSubgroupDetector<Options>({
  id: 'slicefinder',
  version: VERSION,
  access: 'black-box',
  description:
    'SliceFinder (Chung et al., ICDE 2019): large problematic slices (effect size of the loss >= ε, Welch test under α-investing) by lattice and decision-tree search.',
  requiresModel: true,
  optionsSchema,
  async scan({ dataset, model, options, ctl }) {
    const tPrep = performance.now();
    const loss = exampleLosses(dataset, model!, options.loss);
    const n = dataset.n;
    let sum = 0;
    let sumSq = 0;
    for (let i = 0; i < n; i++) {
      sum += loss[i]!;
      sumSq += loss[i]! * loss[i]!;
    }
    const all = { n, sum, sumSq };
    const columns = sliceColumns(dataset, options);
    const prepSeconds = seconds(tPrep);

    const found: Omit<SubgroupFinding, 'rank'>[] = [];
    const extras: Record<string, unknown> = {
      meanLoss: sum / n,
      attributes: columns.map((c) => ({ attribute: c.attribute, codes: c.arity, binned: c.binned })),
    };
    // Both searches: each starts with half the wealth, so that the bound on false discoveries
    // (W₀/(1 − α) under a global null) covers everything reported.
    const wealth = options.approach === 'both' ? options.alpha / 2 : options.alpha;
    const tLattice = performance.now();
    if (options.approach !== 'decision-tree') {
      const res = await latticeSearch(columns, loss, all, { ...options, wealth }, ctl);
      for (const s of res.slices) {
        const conditions = s.attributes.map((j, t) => columns[j]!.condition([s.codes[t]!]));
        found.push(finding(s, conditions, { approach: 'lattice', degree: s.degree }));
      }
      extras.lattice = {
        evaluated: res.evaluated,
        tests: res.tests,
        wealth: res.wealth,
        complete: res.complete,
      };
    }
    const latticeSeconds = seconds(tLattice);
    const tTree = performance.now();
    if (options.approach !== 'lattice' && !ctl.shouldStop()) {
      const pred = model!.predict(dataset.x);
      const errors = new Uint8Array(n);
      for (let i = 0; i < n; i++) errors[i] = pred[i] === dataset.y[i] ? 0 : 1;
      const res = await treeSearch(
        columns,
        loss,
        errors,
        treeRows(n, options.treeSplit, ctl),
        {
          k: options.treeK,
          maxDepth: options.maxDepth,
          minSize: options.minSize,
          minEffectSize: options.minEffectSize,
          alpha: options.alpha,
          wealth,
        },
        ctl,
      );
      for (const s of res.slices) {
        found.push(
          finding(
            s,
            treeConditions(columns, s.allowed),
            { approach: 'decision-tree', depth: s.depth, testedRows: s.size },
            s.rowsInData,
          ),
        );
      }
      extras.decisionTree = {
        nodes: res.nodes,
        tests: res.tests,
        wealth: res.wealth,
        complete: res.complete,
      };
    }
    const treeSeconds = seconds(tTree);
    // Large problematic slices first; equal sizes by effect size.
    found.sort((a, b) => b.size - a.size || b.score - a.score);
    return {
      subgroups: found.map((s, i) => ({ rank: i + 1, ...s })),
      extras: { ...extras, timings: { prepSeconds, latticeSeconds, treeSeconds } },
    };
  },
});
