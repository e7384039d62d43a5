// Audit recorded decisions, with no model: COMPAS's risk deciles for 6,172 defendants (ProPublica's
// compas-scores-two-years.csv), read as "predicted to reoffend" when the decile is 5 or more.
//
//   FB_DATA_DIR=/path/to/datasets node examples/audit-decisions.mjs
//
// For a CSV of your own, `loadCsv(path, { outcome, favorable, protected })` of @fb/datasets gives the
// dataset; keep the decision column out of its `columns` and read it beside, row-aligned.
import { describeSubgroup } from '@fb/core';
import { loadCompas } from '@fb/datasets';
import { frameMetrics, MetricFrame, subgroupsOf } from '@fb/metrics';
import { divexplorer } from '@fb/subgroup-divexplorer';

const compas = await loadCompas();
const { schema } = compas;
// Outcome codes: 0 = "no" recidivism (favourable), 1 = "yes". COMPAS's prediction uses the same codes.
const decisions = compas.compasPrediction;
console.log(`${compas.n} defendants; outcome ${schema.outcome.name} = [${schema.outcome.labels.join(', ')}]`);

// 1. Group metrics, fairlearn's MetricFrame: code 1 ("reoffends") is the positive class, so the false
//    positive rate is the share of people who did not reoffend but were labelled medium or high risk.
const byRace = subgroupsOf(compas, ['race']);
const frame = new MetricFrame({
  metrics: {
    fpr: frameMetrics.falsePositiveRate,
    fnr: frameMetrics.falseNegativeRate,
    selection: frameMetrics.selectionRate,
  },
  yTrue: compas.y,
  yPred: decisions,
  sensitiveFeatures: byRace,
});
const pct = (v) => (v === null ? 'n/a' : `${(100 * v).toFixed(1)}%`);
console.log(`\n${'group'.padEnd(30)}  rows  FPR    FNR    labelled high risk`);
for (const [g, key] of byRace.keys.entries()) {
  const m = frame.byGroup[key];
  console.log(
    `${key.padEnd(30)} ${String(byRace.sizes[g]).padStart(5)}  ${pct(m.fpr)}  ${pct(m.fnr)}  ${pct(m.selection)}`,
  );
}
console.log(
  `FPR difference between groups (max - min): ${frame.difference('between_groups').fpr?.toFixed(3)}`,
);

// 2. A subgroup scan of the decisions. DivExplorer needs no model when given a per-row outcome: here
//    the false-positive indicator (1 = labelled high risk, 0 = labelled low risk) over the people who did
//    not reoffend; the others are left out (null).
const falsePositive = Array.from(compas.y, (truth, i) => (truth === 0 ? decisions[i] : null));
const result = await divexplorer.run(
  { dataset: compas },
  { metrics: ['custom'], outcomeVector: falsePositive, k: 3, sortBy: 'positive' },
  { seed: 1 },
);
const negatives = compas.y.reduce((s, v) => s + (v === 0 ? 1 : 0), 0);
const overall = falsePositive.reduce((s, v) => s + (v ?? 0), 0) / negatives;
console.log(`\nsubgroups with the highest false positive rate (overall ${pct(overall)}):`);
for (const s of result.findings.subgroups) {
  // describeSubgroup reads a finding's conditions in the data's own labels, not category codes.
  console.log(
    `subgroup: ${describeSubgroup(schema, s.conditions)} | rows ${s.size} | FPR ${pct(overall + s.effect)}`,
  );
}
