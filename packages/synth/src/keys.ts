import type { Schema } from '@fb/core';
import { type Condition, InteropError, toCsv } from '@fb/core';
import type { SynthResult } from './generate.js';

/** One subgroup_key cell, in core's interop convention: `*`, `a;b` (a set) or `[lo,hi)` / `[lo,hi]`. */
function cell(c: Condition | undefined): string {
  if (!c) return '*';
  if ('values' in c) return [...c.values].sort((a, b) => a - b).join(';');
  return `[${c.min},${c.max}${c.maxInclusive ? ']' : ')'}`;
}

/** The seed's subgroup_key: per attribute in schema order the constrained cell or `*`, joined by `|`. */
export function subgroupKey(schema: Schema, conditions: readonly Condition[]): string {
  const by = new Map(conditions.map((c) => [c.attribute, c]));
  return schema.attributes.map((a) => cell(by.get(a.name))).join('|');
}

const EXTRA = [
  'indv_key',
  'subgroup_key',
  'group_key',
  'subgroup_id',
  'pair_id',
  'bias',
  'epistemic_sigma',
  'aleatoric_sigma',
  'probability',
  'counterfactual_probability',
  'counterfactual_label',
];

/**
 * The generated data in the seed's layout: one row per individual with its attribute values, the
 * outcome, `indv_key` (values joined by `|`), `subgroup_key` and `group_key` (`keyA-keyB`; both
 * empty for background rows), and the per-row truth.
 */
export function synthTable(result: SynthResult): { header: string[]; rows: (string | number)[][] } {
  const { dataset, truth } = result;
  const schema = dataset.schema;
  const names = schema.attributes.map((a) => a.name);
  for (const n of [...names]) {
    if (EXTRA.includes(n) || n === schema.outcome.name) {
      throw new InteropError(
        'INTEROP_PARSE',
        `attribute "${n}" clashes with a table column of the same name`,
        { attribute: n },
      );
    }
  }
  const byId = new Map(truth.subgroups.map((s) => [s.id, s]));
  const pairKey = new Map(truth.pairs.map((p) => [p.id, p.key]));
  const rows: (string | number)[][] = [];
  const d = dataset.d;
  for (let i = 0; i < dataset.n; i++) {
    const values = Array.from(dataset.x.subarray(i * d, (i + 1) * d));
    const g = truth.subgroupOf[i]!;
    const s = g >= 0 ? byId.get(g) : undefined;
    rows.push([
      ...values,
      dataset.y[i]!,
      values.join('|'),
      s ? s.key : '',
      s ? pairKey.get(s.pair)! : '',
      g,
      s ? s.pair : -1,
      truth.bias[i]!,
      truth.epistemicSigma[i]!,
      truth.aleatoricSigma[i]!,
      truth.probability[i]!,
      truth.counterfactualProbability[i]!,
      truth.counterfactualLabel[i]!,
    ]);
  }
  return { header: [...names, schema.outcome.name, ...EXTRA], rows };
}

/** CSV text of `synthTable`. */
export function synthToCsv(result: SynthResult): string {
  const t = synthTable(result);
  return toCsv(t.header, t.rows);
}

/** JSON-ready records of `synthTable`, plus the pairs. */
export function synthToJson(result: SynthResult): {
  rows: Record<string, string | number>[];
  pairs: SynthResult['truth']['pairs'];
} {
  const t = synthTable(result);
  return {
    rows: t.rows.map((r) => Object.fromEntries(t.header.map((h, i) => [h, r[i]!]))),
    pairs: result.truth.pairs,
  };
}
