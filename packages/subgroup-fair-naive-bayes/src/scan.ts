import { type Condition, countMembers, memberMask, type SubgroupFinding, type SubgroupScan } from '@fb/core';
import { fitNaiveBayes } from './naive-bayes.js';
import type { Options } from './options.js';
import { findPatterns } from './search.js';
import { discretise } from './variables.js';

/**
 * Fair naive Bayes discrimination patterns as a subgroup scan: fit a naive Bayes model of the
 * decision, mine its top-k discrimination patterns by branch and bound, and report each pattern
 * x ∧ y as a subgroup with its model probabilities and its members' observed rates.
 */
export async function discriminationPatterns({
  dataset,
  model,
  options,
  ctl,
}: SubgroupScan<Options>): Promise<{ subgroups: SubgroupFinding[]; extras: Record<string, unknown> }> {
  const { n, schema } = dataset;
  const favourable = schema.outcome.favorable;
  const decisions = options.target === 'model' && model ? model.predict(dataset.x) : dataset.y;
  const decision = new Uint8Array(n);
  for (let i = 0; i < n; i++) decision[i] = decisions[i] === favourable ? 1 : 0;

  const stop = () => ctl.shouldStop() !== null;
  const discrete = discretise(dataset, options.maxLevels, options.bins, stop);
  if (!discrete) return { subgroups: [], extras: { nodesVisited: 0, complete: false } };
  const { variables, codes, dropped } = discrete;
  // At least one row when minSupport > 0; never more patterns than rows.
  const minRows = options.minSupport > 0 ? Math.max(1, Math.ceil(options.minSupport * n)) : 0;
  const nb = fitNaiveBayes(variables, codes, decision, options.smoothing);
  const outcome = await findPatterns(
    nb,
    variables,
    {
      ranking: options.ranking,
      delta: options.delta,
      k: Math.min(options.k, n),
      support: minRows > 0 ? { codes, minRows } : undefined,
    },
    stop,
    async (nodes) => {
      await ctl.checkpoint({ phase: 'branch-and-bound', done: nodes });
    },
  );

  const subgroups = outcome.patterns.map((p, rank): SubgroupFinding => {
    const of = (role: 'x' | 'y'): Condition[] =>
      p.items.filter((it) => it.role === role).map((it) => variables[it.variable]!.levels[it.level]!);
    const sensitive = of('x');
    const context = of('y');
    const conditions = p.items.map((it) => variables[it.variable]!.levels[it.level]!);
    const members = memberMask(dataset, conditions);
    const inContext = memberMask(dataset, context);
    let memberFavourable = 0;
    let size = 0;
    let restFavourable = 0;
    let rest = 0;
    for (let i = 0; i < n; i++) {
      if (members[i]) {
        size++;
        memberFavourable += decision[i]!;
      } else if (inContext[i]) {
        rest++;
        restFavourable += decision[i]!;
      }
    }
    const pXY = p.mass.xy0 + p.mass.xy1;
    const pY = p.mass.y0 + p.mass.y1;
    return {
      rank: rank + 1,
      conditions,
      size,
      score: p.score,
      effect: p.diff,
      pValue: null,
      direction: p.diff > 0 ? 'higher' : 'lower',
      details: {
        sensitive: sensitive.map(describe).join(' & '),
        context: context.length > 0 ? context.map(describe).join(' & ') : '(none)',
        pDecisionGivenXY: p.mass.xy1 / pXY,
        pDecisionGivenY: p.mass.y1 / pY,
        diff: p.diff,
        kld: p.kld,
        observedRate: size > 0 ? memberFavourable / size : null,
        observedContextRate: rest > 0 ? restFavourable / rest : null,
        contextSize: countMembers(dataset, context),
      },
    };
  });
  return {
    subgroups,
    extras: {
      nodesVisited: outcome.nodesVisited,
      prunedNodes: outcome.pruned,
      complete: outcome.complete,
      prior: nb.prior,
      minRows,
      droppedSingleLevel: dropped,
      variables: variables.map((v) => ({
        attribute: v.attribute,
        sensitive: v.sensitive,
        levels: v.levels.length,
      })),
    },
  };
}

function describe(c: Condition): string {
  return 'values' in c
    ? `${c.attribute}=${c.values.join(',')}`
    : `${c.attribute} in [${c.min}, ${c.max}${c.maxInclusive ? ']' : ')'}`;
}
