import {
  DataError,
  type Dataset,
  defineSubgroupDetector,
  favourableProbabilities,
  maskRows,
  type RunController,
  type SubgroupDetector,
  type SubgroupFinding,
} from '@fb/core';
import { type Audit, Auditor } from './auditor.js';
import { groupAttributeIndices, groupDesign, rawRule } from './design.js';
import { type GroupConditions, groupConditions } from './group-conditions.js';
import { type Options, optionsSchema } from './options.js';
import { VERSION } from './version.js';

const seconds = (from: number) => (performance.now() - from) / 1000;

/** What `gerryfairAudit` returns: the detector's findings and extras, and the group's row mask. */
export interface GerryfairAudit {
  subgroups: SubgroupFinding[];
  extras: Record<string, unknown>;
  /** 1 for every row in the returned linear threshold group (all zero when none is reported). */
  members: Uint8Array;
}

/**
 * GerryFair's auditor (Kearns, Neel, Roth & Wu 2018): the linear threshold group over the group
 * attributes with the largest gamma-unfairness (alpha·beta) in false positive or false negative rate,
 * found by the cost-sensitive classification reduction, with a permutation p-value.
 */
export const gerryfair: SubgroupDetector<Options> = defineSubgroupDetector<Options>({
  id: 'gerryfair',
  version: VERSION,
  access: 'black-box',
  description:
    'GerryFair auditor (Kearns, Neel, Roth & Wu 2018): the linear threshold group over the protected attributes with the largest gamma-unfairness (size x false positive or false negative rate gap), learned by the cost-sensitive classification reduction, with a permutation p-value.',
  requiresModel: true,
  optionsSchema,
  checkOptions(options, dataset) {
    groupAttributeIndices(dataset, options.groupAttributes);
  },
  async scan({ dataset, model, options, ctl }) {
    const favourable = dataset.schema.outcome.favorable;
    const predictions =
      options.predictions === 'probabilities'
        ? favourableProbabilities(
            model!,
            dataset,
            'predictions: "probabilities" needs a model with predictProba; use predictions: "labels"',
          )
        : Float64Array.from(model!.predict(dataset.x), (l) => (l === favourable ? 1 : 0));
    const { subgroups, extras } = await gerryfairAudit(dataset, predictions, options, ctl);
    return { subgroups, extras };
  },
});

/**
 * The auditor on given predictions: `predictions[i]` is the favourable prediction of row i (1/0 for a
 * label, or a probability). Options must be resolved (`gerryfair.resolveOptions`).
 */
export async function gerryfairAudit(
  dataset: Dataset,
  predictions: Float64Array,
  options: Options,
  ctl: RunController,
): Promise<GerryfairAudit> {
  const t0 = performance.now();
  const { n, y, schema } = dataset;
  const favourable = schema.outcome.favorable;
  // FP audits the rows with an unfavourable outcome and their favourable predictions; FN the rows with
  // the favourable outcome and their unfavourable predictions.
  const fp = options.fairnessDefinition === 'FP';
  const audited: number[] = [];
  for (let i = 0; i < n; i++) if ((y[i] === favourable) !== fp) audited.push(i);
  if (audited.length === 0) {
    throw new DataError(
      'DATA_EMPTY_GROUP',
      `no row has ${fp ? 'an unfavourable' : 'the favourable'} outcome: the ${options.fairnessDefinition} rate is undefined`,
    );
  }
  const rows = Int32Array.from(audited);
  const values = Float64Array.from(rows, (i) => (fp ? predictions[i]! : 1 - predictions[i]!));
  const group = groupDesign(dataset, options.groupAttributes);
  const auditor = new Auditor(group.design, group.p, rows);
  const audit = auditor.audit(values, options.direction);
  // The two sides of the fitted threshold partition the audited rows and tie in gamma, so 'both'
  // reports each, labelled by its side (the group with the error rate above the baseline first).
  const audits =
    options.direction === 'both'
      ? (['higher', 'lower'] as const).map((side) => auditor.audit(values, side))
      : [audit];
  const auditSeconds = seconds(t0);

  const tPerm = performance.now();
  const observed = audit.chosen.gamma;
  let atLeast = 0;
  let completed = 0;
  const reportable = observed > 0 && observed >= options.gamma;
  if (reportable && options.permutations > 0) {
    const rng = ctl.rng.fork('permutation');
    const permuted = values.slice();
    while (completed < options.permutations) {
      if (await ctl.checkpoint({ phase: 'permutation', done: completed, total: options.permutations })) break;
      rng.shuffle(permuted);
      // The tolerance lets statistics equal in exact arithmetic count as reaching the observed one.
      if (auditor.gamma(permuted, options.direction) >= observed * (1 - 1e-12)) atLeast++;
      completed++;
    }
  }
  const permutationSeconds = seconds(tPerm);

  const found: Omit<SubgroupFinding, 'rank'>[] = [];
  let members: Uint8Array = new Uint8Array(n);
  let first = audit;
  for (const a of audits) {
    if (!reportable || !(a.chosen.gamma > 0) || a.chosen.gamma < options.gamma) continue;
    const mask = auditor.members(a);
    const rows = maskRows(mask);
    if (rows.length === 0) continue;
    if (found.length === 0) {
      members = mask;
      first = a;
    }
    const box = groupConditions(dataset, group.attributes, mask);
    const text = ruleText(rawRule(group.encoder, a.weights, a.intercept));
    found.push(finding(box, rows, text, a, options, atLeast, completed));
  }
  // Larger gamma first; a tie (up to rounding) keeps the order above.
  const tol = 1 + 1e-9;
  found.sort((u, v) => (v.score > u.score * tol ? 1 : u.score > v.score * tol ? -1 : 0));
  const subgroups = found.map((f, i) => ({ rank: i + 1, ...f }));
  const box = subgroups.length > 0 ? groupConditions(dataset, group.attributes, members) : null;
  const rule = rawRule(group.encoder, first.weights, first.intercept);
  const sideExtras = (s: Audit['higher']) => ({
    auditedMembers: s.auditedMembers,
    rate: s.rate,
    alpha: s.alpha,
    beta: s.beta,
    gamma: s.gamma,
  });
  return {
    subgroups,
    members,
    extras: {
      fairnessDefinition: options.fairnessDefinition,
      groupAttributes: group.attributes.map((j) => schema.attributes[j]!.name),
      auditedRows: rows.length,
      baseline: audit.baseline,
      side: first.chosen.side,
      sides: { higher: sideExtras(audit.higher), lower: sideExtras(audit.lower) },
      group: { rule: 'member iff intercept + Σ weight·column < 0', ...rule, cells: box?.cells ?? null },
      permutationsCompleted: completed,
      timings: { auditSeconds, permutationSeconds },
    },
  };
}

/** The threshold rule in the data's labels: `intercept + Σ weight·column < 0`, zero weights left out. */
function ruleText(rule: ReturnType<typeof rawRule>): string {
  const terms = rule.terms
    .filter((t) => t.weight !== 0)
    .map((t) => `${t.weight < 0 ? '- ' : '+ '}${Math.abs(t.weight).toPrecision(4)}·[${t.column}]`);
  return `${rule.intercept.toPrecision(4)} ${terms.join(' ')} < 0`;
}

function finding(
  box: GroupConditions,
  rows: number[],
  rule: string,
  audit: Audit,
  options: Options,
  atLeast: number,
  completed: number,
): Omit<SubgroupFinding, 'rank'> {
  const { chosen, baseline } = audit;
  const memberCount = rows.length;
  // Favourable-prediction rate gap: FP rate itself, or 1 − FN rate.
  const gap = chosen.rate - baseline;
  const effect = options.fairnessDefinition === 'FP' ? gap : -gap;
  return {
    // A bounding box is not the group: conditions only when they are exactly its members.
    conditions: box.exact ? box.conditions : [],
    members: rows,
    rule,
    size: memberCount,
    score: chosen.gamma,
    effect,
    pValue: completed === 0 ? null : (1 + atLeast) / (1 + completed),
    direction: effect >= 0 ? 'higher' : 'lower',
    details: {
      fairnessDefinition: options.fairnessDefinition,
      side: chosen.side,
      groupRate: chosen.rate,
      baseline,
      alpha: chosen.alpha,
      beta: chosen.beta,
      gammaUnfairness: chosen.gamma,
      members: memberCount,
      auditedMembers: chosen.auditedMembers,
      exact: box.exact,
      permutationsCompleted: completed,
    },
  };
}
