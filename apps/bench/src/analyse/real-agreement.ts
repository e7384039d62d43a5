import { type MeanInterval, meanInterval } from '@fb/eval';
import type { CellRecord } from '../run/record.js';
import { groupBy, jaccardOf, partition } from './analysis.js';
import { baselineKind } from './skill.js';

/**
 * Agreement on real data, where nothing was planted: per data set and family, the mean Jaccard of
 * the protected values two published methods point at, beside the same between each method and the
 * random subgroups (an output that knows nothing). Averaged per seed over the blocks (question, model)
 * and pairs, then over seeds (the independent unit) with a Student t interval.
 */
export interface RealAgreementRow {
  dataset: string;
  family: string;
  /** Between two ranked methods of the family, or between a method and the random subgroups. */
  between: 'methods' | 'random subgroups';
  pairs: number;
  seeds: number;
  agreement: MeanInterval;
}

const RANDOM = 'random-finder';

export function realAgreement(records: readonly CellRecord[]): RealAgreementRow[] {
  const { real } = partition(records);
  const rows: RealAgreementRow[] = [];
  const ranked = (r: CellRecord) => baselineKind(r.plan.method) === null && !r.plan.unranked;
  for (const [, rs] of groupBy(real, (r) => r.dataset.label)) {
    for (const family of ['subgroup', 'individual'] as const) {
      const perSeed = { methods: new Map<number, number[]>(), random: new Map<number, number[]>() };
      const pairs = { methods: new Set<string>(), random: new Set<string>() };
      for (const block of groupBy(rs, (r) => r.block).values()) {
        const methods = block.filter((r) => r.family === family && ranked(r));
        const random = block.find((r) => r.plan.method === RANDOM);
        const add = (kind: 'methods' | 'random', a: CellRecord, b: CellRecord) => {
          const j = jaccardOf(new Set(a.implicated), new Set(b.implicated));
          if (j === null) return;
          const seed = a.seed;
          perSeed[kind].set(seed, [...(perSeed[kind].get(seed) ?? []), j]);
          pairs[kind].add([a.plan.label, b.plan.label].join('\u0000'));
        };
        for (let i = 0; i < methods.length; i++) {
          for (let k = i + 1; k < methods.length; k++) add('methods', methods[i]!, methods[k]!);
          if (random) add('random', methods[i]!, random);
        }
      }
      for (const kind of ['methods', 'random'] as const) {
        const seeds = [...perSeed[kind].values()].map((js) => js.reduce((a, b) => a + b, 0) / js.length);
        if (seeds.length === 0) continue;
        rows.push({
          dataset: rs[0]!.dataset.label,
          family,
          between: kind === 'methods' ? 'methods' : 'random subgroups',
          pairs: pairs[kind].size,
          seeds: seeds.length,
          agreement: meanInterval(seeds, 0.95, [0, 1]),
        });
      }
    }
  }
  return rows;
}
