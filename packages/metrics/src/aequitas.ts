import { DataError, type Dataset, OptionsError, protectedIndices } from '@fb/core';
import { confusionByGroup, RATES } from './confusion.js';
import { subgroupsOf } from './groups.js';

/** Absolute metrics of an Aequitas crosstab (names as Aequitas spells them). */
const ABSOLUTE = ['ppr', 'pprev', 'precision', 'fdr', 'for', 'fpr', 'fnr', 'tpr', 'tnr', 'npv'] as const;
type Absolute = (typeof ABSOLUTE)[number];

/** Parity column of each disparity, and the combined determinations. */
const PARITY: Record<Absolute, string> = {
  ppr: 'Statistical Parity',
  pprev: 'Impact Parity',
  precision: 'Precision Parity',
  fdr: 'FDR Parity',
  for: 'FOR Parity',
  fpr: 'FPR Parity',
  fnr: 'FNR Parity',
  tpr: 'TPR Parity',
  tnr: 'TNR Parity',
  npv: 'NPV Parity',
};

export type AuditRow = Record<string, string | number | boolean | null>;

export interface AuditOptions {
  /** Attributes audited one at a time (Aequitas is univariate). Default: the protected attributes. */
  attributes?: readonly string[];
  /**
   * Reference group per attribute: `maj` (largest group, default), `min_metric` (per metric, the group
   * with the lowest value), or an explicit `{ attribute: valueLabel }` map.
   */
  referenceGroups?: 'maj' | 'min_metric' | Readonly<Record<string, string>>;
  /** Parity band [tau, 1 / tau] of Aequitas's fairness rule. Default 0.8. */
  tau?: number;
  /**
   * Outcome code counted as the positive class (Aequitas's label value 1) in the crosstabs and rates.
   * Default: the favourable outcome. Aequitas's own tutorials often take the unfavourable decision as
   * positive (COMPAS: predicted to reoffend), which swaps FPR with FNR and so can reverse a parity
   * conclusion: name it explicitly when comparing with them.
   */
  positive?: number;
}

/**
 * An Aequitas-style audit table: one row per (attribute, value) with the crosstab counts and rates
 * (`pp`, `pn`, `fp`, `fn`, `tn`, `tp`, `prev`, `pprev`, `ppr`, `precision`, `fdr`, `for`, `fpr`, `fnr`,
 * `tpr`, `tnr`, `npv`), the disparities against the reference group (`<metric>_disparity` = group /
 * reference, `<metric>_ref_group_value`), and the parity determinations (`Statistical Parity`,
 * `Impact Parity`, `FDR Parity`, ..., `TypeI Parity`, `TypeII Parity`, `Equalized Odds`,
 * `Unsupervised Fairness`, `Supervised Fairness`): true when the disparity lies in [tau, 1 / tau].
 * An undefined rate or disparity (zero denominator) is null, and so is a parity that depends on it.
 */
export function aequitasAudit(ds: Dataset, yPred: ArrayLike<number>, options: AuditOptions = {}): AuditRow[] {
  if (yPred.length !== ds.n)
    throw new DataError('DATA_SHAPE', `yPred has ${yPred.length} values, the dataset ${ds.n} rows`);
  const tau = options.tau ?? 0.8;
  if (!(tau > 0 && tau <= 1))
    throw new OptionsError('OPTIONS_INVALID', `tau must be in (0, 1], got ${tau}`, { option: '/tau' });
  const attributes =
    options.attributes ?? protectedIndices(ds.schema).map((j) => ds.schema.attributes[j]!.name);
  const K = ds.schema.outcome.labels.length;
  const favorable = options.positive ?? ds.schema.outcome.favorable;
  if (!Number.isInteger(favorable) || favorable < 0 || favorable >= K) {
    throw new OptionsError(
      'OPTIONS_INVALID',
      `positive must be an outcome code 0..${K - 1}, got ${favorable}`,
      {
        option: '/positive',
      },
    );
  }
  let totalPp = 0;
  for (let i = 0; i < ds.n; i++) if (yPred[i] === favorable) totalPp++;
  const rows: AuditRow[] = [];
  for (const attribute of attributes) {
    const groups = subgroupsOf(ds, [attribute]);
    const { counts } = confusionByGroup(ds.y, yPred, groups.codes, groups.keys.length, favorable);
    const labels = groups.keys.map((k) => k.slice(attribute.length + 1));
    const table = counts.map((c, g) => {
      const size = groups.sizes[g]!;
      const values: Record<Absolute, number | null> = {
        ppr: totalPp > 0 ? (c.tp + c.fp) / totalPp : null,
        pprev: RATES.selectionRate(c),
        precision: RATES.precision(c),
        fdr: RATES.fdr(c),
        for: RATES.for(c),
        fpr: RATES.fpr(c),
        fnr: RATES.fnr(c),
        tpr: RATES.tpr(c),
        tnr: RATES.tnr(c),
        npv: RATES.npv(c),
      };
      return { c, size, values };
    });
    const refOf = (metric: Absolute): number => {
      const ref = options.referenceGroups ?? 'maj';
      if (ref === 'maj') return table.reduce((best, t, g) => (t.size > table[best]!.size ? g : best), 0);
      if (ref === 'min_metric') {
        let best = -1;
        table.forEach((t, g) => {
          const v = t.values[metric];
          if (v !== null && (best < 0 || v < table[best]!.values[metric]!)) best = g;
        });
        return Math.max(best, 0);
      }
      const label = ref[attribute];
      const g = label === undefined ? -1 : labels.indexOf(label);
      if (g < 0) {
        throw new OptionsError(
          'OPTIONS_INVALID',
          `reference group for "${attribute}" must be one of ${labels.join(', ')}, got ${String(label)}`,
          {
            option: `/referenceGroups/${attribute}`,
            attribute,
          },
        );
      }
      return g;
    };
    const refs = Object.fromEntries(ABSOLUTE.map((m) => [m, refOf(m)])) as Record<Absolute, number>;
    table.forEach((t, g) => {
      const { c, size, values } = t;
      const row: AuditRow = {
        attribute_name: attribute,
        attribute_value: labels[g]!,
        group_size: size,
        total_entities: ds.n,
        pp: c.tp + c.fp,
        pn: c.tn + c.fn,
        fp: c.fp,
        fn: c.fn,
        tn: c.tn,
        tp: c.tp,
        group_label_pos: c.tp + c.fn,
        group_label_neg: c.fp + c.tn,
        prev: RATES.prevalence(c),
        ...values,
      };
      const fair: Record<string, boolean | null> = {};
      for (const m of ABSOLUTE) {
        const ref = table[refs[m]]!.values[m];
        const v = values[m];
        const disparity = v === null || ref === null || ref === 0 ? null : v / ref;
        row[`${m}_disparity`] = disparity;
        row[`${m}_ref_group_value`] = labels[refs[m]]!;
        fair[PARITY[m]] = disparity === null ? null : disparity >= tau && disparity <= 1 / tau;
      }
      const all = (...names: string[]) =>
        names.some((nm) => fair[nm] === null) ? null : names.every((nm) => fair[nm]);
      fair['TypeI Parity'] = all('FDR Parity', 'FPR Parity');
      fair['TypeII Parity'] = all('FOR Parity', 'FNR Parity');
      fair['Equalized Odds'] = all('FPR Parity', 'TPR Parity');
      fair['Unsupervised Fairness'] = all('Statistical Parity', 'Impact Parity');
      fair['Supervised Fairness'] = all('TypeI Parity', 'TypeII Parity');
      rows.push({ ...row, ...fair });
    });
  }
  return rows;
}
