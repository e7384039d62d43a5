import type { Detector } from '@fb/core';
import { aequitas } from '@fb/individual-aequitas';
import { biasScan } from '@fb/subgroup-biasscan';
import { divexplorer } from '@fb/subgroup-divexplorer';
import { sliceline } from '@fb/subgroup-sliceline';
import { rowFlips } from './flips.js';

export type Family = 'group' | 'subgroup' | 'individual';

/** One detector of the default audit, with the options it runs with and what a reader must know. */
export interface AuditMethod {
  readonly id: string;
  readonly title: string;
  readonly family: Family;
  readonly detector: Detector<Record<string, unknown>>;
  readonly options: Record<string, unknown>;
  /** Needs class probabilities (predictProba). */
  readonly needsProba: boolean;
  /** Queries inputs that are not rows of the data. */
  readonly needsNewInputs: boolean;
  /** What the effect column means for this method. */
  readonly effect: string;
  /** What the p-value is and what it controls (or that there is none). */
  readonly pValue: string;
  readonly sees: string;
  readonly cannotSee: string;
}

export const DEFAULT_METHODS: readonly AuditMethod[] = [
  {
    id: 'biasscan',
    title: 'Bias scan (MDSS, Zhang & Neill 2016)',
    family: 'subgroup',
    detector: biasScan as never,
    options: { direction: 'both', penalty: 1 },
    needsProba: true,
    needsNewInputs: false,
    effect: 'observed minus predicted favourable rate among the members',
    pValue:
      "randomisation test of the scan's maximum: outcomes redrawn from the model's probabilities, the whole scan rerun, p = (1 + replicas scoring at least as high) / (1 + replicas). It controls the chance of reporting the top subgroup of a scan when outcomes follow the model's probabilities everywhere; lower-ranked subgroups share the same p-value and are not separately tested.",
    sees: "subgroups (conjunctions of attribute values) whose outcomes differ from the model's predicted probabilities: where the model is miscalibrated for a group.",
    cannotSee:
      'disparities the model reproduces faithfully (a group with a low favourable rate that the model predicts exactly is not flagged); individual-level unfairness.',
  },
  {
    id: 'divexplorer',
    title: 'DivExplorer (Pastor et al., SIGMOD 2021)',
    family: 'subgroup',
    detector: divexplorer as never,
    options: { metrics: ['positive-rate', 'fpr', 'fnr'], k: 5 },
    needsProba: false,
    needsNewInputs: false,
    effect:
      "divergence: the rate (favourable decisions, FPR or FNR, named with the group metrics' positive label) in the subgroup minus the rate on all rows",
    pValue:
      "two-sided normal tail of the subgroup's t-value, per subgroup, with no correction for the many patterns mined: treat it as a ranking aid, not a test at any stated level.",
    sees: 'every frequent pattern (at least 5% of the rows) whose decision rate or error rates diverge from the whole.',
    cannotSee:
      'groups smaller than the support threshold; whether a divergence is explained by legitimate attributes.',
  },
  {
    id: 'sliceline',
    title: 'SliceLine (Sagadeeva & Boehm, SIGMOD 2021)',
    family: 'subgroup',
    detector: sliceline as never,
    options: { errors: ['false-positive', 'false-negative'], k: 5 },
    needsProba: false,
    needsNewInputs: false,
    effect:
      "the slice's mean error (false positives or false negatives, named with the group metrics' positive label) minus the mean error on all rows",
    pValue:
      'none: SliceLine ranks slices by a score trading error against size and has no significance test.',
    sees: 'the largest, most error-prone slices of the data, exactly (the top k of its score).',
    cannotSee: 'differences in decision rates that are not errors; statistical significance.',
  },
  {
    id: 'rowflips',
    title: "Counterfactual test on the data's rows",
    family: 'individual',
    detector: rowFlips as never,
    options: {},
    needsProba: false,
    needsNewInputs: true,
    effect:
      'rows of the data whose decision changes when one protected attribute is changed to another value the data holds',
    pValue: 'none: every reported pair is two answers of the model, a fact about the model, not an estimate.',
    sees: "individual discrimination where people are: every tested input is a row of the data, changed in one protected attribute only (a binned attribute to a real value, the bin's median).",
    cannotSee:
      'inputs unlike the rows of the data; decisions that change only when two protected attributes change together.',
  },
  {
    id: 'aequitas',
    title: 'AEQUITAS (Udeshi et al., ASE 2018)',
    family: 'individual',
    detector: aequitas as never,
    // Its global phase starts from the data's rows and its local walks stay within their support (the
    // paper draws the whole domain and steps anywhere in it): pairs a person could have.
    options: { globalInputs: 'rows', localMoves: 'support' },
    needsProba: false,
    needsNewInputs: true,
    effect: 'pairs of inputs that differ only in protected attributes and get different decisions',
    pValue:
      'none: every reported pair is re-checked against the model, so each is a fact about the model, not an estimate.',
    sees: "individual discrimination near the data's rows: its search starts from them and walks one attribute at a time, to values the rows hold and keeping the rows' functional dependencies.",
    cannotSee:
      'how often such inputs occur in practice: a walk can still combine values no one row has (the report counts the pairs on realistic inputs and shows only those); group-level disparities that come through non-protected attributes.',
  },
];
