import { checkDataset, DataError, type Dataset, OptionsError, type Schema } from '@fb/core';
import { FeatureBinner, MAX_BINS } from './binning.js';
import type { BinnedData, Criterion, GrowParams } from './tree-builder.js';
import { checkWeights } from './weights.js';

export type MaxFeatures = 'sqrt' | 'log2' | 'all' | number;
export type ClassWeight = null | 'balanced' | Readonly<Record<string, number>>;
export type Seed = number | string;

/** Options shared by the decision tree and the random forest. */
export interface TreeOptions {
  criterion: Criterion;
  maxDepth: number | null;
  minSamplesSplit: number;
  minSamplesLeaf: number;
  maxFeatures: MaxFeatures;
  classWeight: ClassWeight;
  maxBins: number;
  seed: Seed;
}

export const seedSchema = {
  anyOf: [{ type: 'integer', minimum: 0 }, { type: 'string' }],
  default: 0,
  description: 'Seed of the random generator (a non-negative integer or a string): same seed, same model.',
};

/** JSON Schema properties of `TreeOptions`; the forest changes the default of maxFeatures. */
export function treeProperties(maxFeaturesDefault: MaxFeatures) {
  return {
    criterion: {
      type: 'string',
      enum: ['gini', 'entropy'],
      default: 'gini',
      description: 'Split quality: Gini impurity or entropy (information gain).',
    },
    maxDepth: {
      type: ['integer', 'null'],
      minimum: 1,
      default: null,
      description: 'Maximum depth of a tree (root = depth 0); null grows until leaves are pure or too small.',
    },
    minSamplesSplit: {
      type: 'integer',
      minimum: 2,
      default: 2,
      description: 'A node with fewer training rows is not split.',
    },
    minSamplesLeaf: {
      type: 'integer',
      minimum: 1,
      default: 1,
      description: 'Each child of a split keeps at least this many training rows.',
    },
    maxFeatures: {
      anyOf: [
        { type: 'string', enum: ['sqrt', 'log2', 'all'] },
        { type: 'integer', minimum: 1 },
        { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1 },
      ],
      default: maxFeaturesDefault,
      description:
        'Features examined per split, drawn at random: "sqrt" or "log2" of the feature count (at least 1), "all", a count, or a fraction in (0, 1). Features constant in the node do not count, as in CART.',
    },
    classWeight: {
      anyOf: [
        { type: 'null' },
        { type: 'string', enum: ['balanced'] },
        { type: 'object', additionalProperties: { type: 'number', minimum: 0 } },
      ],
      default: null,
      description:
        'Weight per class multiplying the sample weights: null (all 1), "balanced" (n / (classes x class count)), or a map from outcome label to weight (missing labels weigh 1).',
    },
    maxBins: {
      type: 'integer',
      minimum: 2,
      maximum: MAX_BINS,
      default: MAX_BINS,
      description:
        'Bins per numeric feature: one per distinct training value up to this many, else quantile bins. Categorical attributes keep their exact codes.',
    },
    seed: seedSchema,
  } as const;
}

export function resolveMaxFeatures(value: MaxFeatures, d: number): number {
  if (value === 'all') return d;
  if (value === 'sqrt') return Math.max(1, Math.floor(Math.sqrt(d)));
  if (value === 'log2') return Math.max(1, Math.floor(Math.log2(d)));
  if (Number.isInteger(value)) {
    if (value > d) {
      throw new OptionsError('OPTIONS_INVALID', `maxFeatures is ${value} but the data has ${d} features`, {
        option: '/maxFeatures',
      });
    }
    return value;
  }
  return Math.max(1, Math.floor(value * d));
}

export function growParams(options: TreeOptions, d: number): GrowParams {
  return {
    criterion: options.criterion,
    maxDepth: options.maxDepth ?? 0x7fffffff,
    minSamplesSplit: options.minSamplesSplit,
    minSamplesLeaf: options.minSamplesLeaf,
    maxFeatures: resolveMaxFeatures(options.maxFeatures, d),
  };
}

/** Per-class multipliers from the classWeight option. */
export function classWeights(option: ClassWeight, schema: Schema, y: Int32Array): Float64Array {
  const labels = schema.outcome.labels;
  const K = labels.length;
  const out = new Float64Array(K).fill(1);
  if (option === null) return out;
  if (option === 'balanced') {
    const counts = new Float64Array(K);
    for (let i = 0; i < y.length; i++) counts[y[i]!]!++;
    let present = 0;
    for (let k = 0; k < K; k++) if (counts[k]! > 0) present++;
    for (let k = 0; k < K; k++) out[k] = counts[k]! > 0 ? y.length / (present * counts[k]!) : 1;
    return out;
  }
  for (const [label, w] of Object.entries(option)) {
    const k = labels.indexOf(label);
    if (k < 0) {
      throw new OptionsError(
        'OPTIONS_INVALID',
        `classWeight names "${label}", which is not an outcome label (labels: ${labels.join(', ')})`,
        { option: `/classWeight/${label}` },
      );
    }
    out[k] = w;
  }
  return out;
}

/**
 * Check the data, combine sample and class weights into one weight per row, and bin the features once.
 * Throws DataError when fewer than two classes keep a positive weight.
 */
export function prepareTreeData(
  dataset: Dataset,
  options: TreeOptions,
  sampleWeight?: Float64Array,
): { ds: Dataset; data: BinnedData; rowWeight: Float64Array } {
  const ds = checkDataset(dataset);
  const { n, schema } = ds;
  if (sampleWeight !== undefined) checkWeights(sampleWeight, n);
  const perClass = classWeights(options.classWeight, schema, ds.y);
  const K = schema.outcome.labels.length;
  const rowWeight = new Float64Array(n);
  // One positive weight for every row (no sample weights, equal class weights: the default): no loop
  // over the rows, which a fresh process runs unoptimised for about a millisecond on Adult.
  const w0 = perClass[0]!;
  const uniform = sampleWeight === undefined && w0 > 0 && perClass.every((w) => w === w0);
  let twoClasses: boolean;
  if (uniform) {
    rowWeight.fill(w0);
    twoClasses = !sameLabel(ds.y);
  } else {
    const classTotal = new Float64Array(K);
    weighRows(ds.y, sampleWeight, perClass, rowWeight, classTotal);
    twoClasses = classTotal.filter((w) => w > 0).length >= 2;
  }
  if (!twoClasses) {
    throw new DataError(
      'DATA_SINGLE_CLASS',
      'every row with positive weight has the same outcome: nothing to fit',
      {
        attribute: schema.outcome.name,
      },
    );
  }
  // Every row's weight is positive without sample weights and with positive class weights: the binner
  // then need not list the rows that count.
  const allCount = sampleWeight === undefined && perClass.every((w) => w > 0);
  const { binner, codes } = FeatureBinner.fitTransform(
    schema,
    ds.x,
    n,
    options.maxBins,
    allCount ? undefined : rowWeight,
  );
  const data: BinnedData = { binner, bins: codes, n, y: ds.y, nClasses: K };
  return { ds, data, rowWeight };
}

/**
 * Each row's weight (its sample weight times its class's weight) into rowWeight, summed per class into
 * classTotal. A function of its own: code after a long loop, not yet run when V8 optimises the loop,
 * sends the rest of its function back to the interpreter when first reached.
 */
function weighRows(
  y: Int32Array,
  sampleWeight: Float64Array | undefined,
  perClass: Float64Array,
  rowWeight: Float64Array,
  classTotal: Float64Array,
): void {
  for (let i = 0; i < y.length; i++) {
    const w = (sampleWeight ? sampleWeight[i]! : 1) * perClass[y[i]!]!;
    rowWeight[i] = w;
    classTotal[y[i]!]! += w;
  }
}

/** Whether every row has the first row's label (stops at the first that does not). */
function sameLabel(y: Int32Array): boolean {
  for (let i = 1; i < y.length; i++) if (y[i] !== y[0]) return false;
  return true;
}

/** A short `name(key=value,...)` description listing the options that differ from their defaults. */
export function describeOptions(
  name: string,
  options: object,
  defaults: Record<string, { default?: unknown }>,
): string {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(options)) {
    const d = defaults[key]?.default;
    if (key === 'seed' || JSON.stringify(value) === JSON.stringify(d)) continue;
    parts.push(
      `${key}=${typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value)}`,
    );
  }
  return `${name}(${parts.join(',')})`;
}
