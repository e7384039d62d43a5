import {
  type Attribute,
  type Condition,
  createDataset,
  createRng,
  type Dataset,
  defineSchema,
  OptionsError,
  type OptionsSchema,
  resolveOptions,
  type Schema,
} from '@fb/core';

/** Options of the planted-pair generator; every one has a documented default. */
export interface PlantedPairOptions {
  rows: number;
  protectedAttributes: number;
  protectedValues: number;
  otherAttributes: number;
  otherValues: number;
  /** Logit shift applied to members of the disadvantaged subgroup (negative = less favourable). */
  bias: number;
  /** Non-protected attributes the pair shares as constraints (its granularity). */
  granularity: number;
  /** Strength of the non-protected attributes' effect on the outcome logit. */
  signal: number;
}

export const plantedPairOptionsSchema: OptionsSchema = {
  type: 'object',
  properties: {
    rows: {
      type: 'integer',
      minimum: 20,
      maximum: 1_000_000,
      default: 5000,
      description: 'rows to generate (at most a million: 34 attributes of a million rows is 270 MB)',
    },
    protectedAttributes: {
      type: 'integer',
      minimum: 1,
      maximum: 4,
      default: 2,
      description: 'number of protected attributes',
    },
    protectedValues: {
      type: 'integer',
      minimum: 2,
      maximum: 8,
      default: 3,
      description: 'values per protected attribute',
    },
    otherAttributes: {
      type: 'integer',
      minimum: 1,
      maximum: 30,
      default: 5,
      description: 'number of non-protected attributes',
    },
    otherValues: {
      type: 'integer',
      minimum: 2,
      maximum: 20,
      default: 4,
      description: 'values per non-protected attribute',
    },
    bias: {
      type: 'number',
      minimum: -10,
      maximum: 10,
      default: -2,
      description: 'logit shift of the disadvantaged subgroup',
    },
    granularity: {
      type: 'integer',
      minimum: 0,
      maximum: 3,
      default: 1,
      description: 'non-protected attributes that both subgroups of the pair constrain (to the same values)',
    },
    signal: {
      type: 'number',
      minimum: 0,
      maximum: 5,
      default: 1,
      description: 'scale of the non-protected effects on the outcome logit',
    },
  },
};

/** One planted pair: two subgroups that differ only in one protected value; `disadvantaged` carries the bias. */
export interface PlantedPair {
  disadvantaged: Condition[];
  reference: Condition[];
  /** The protected attribute whose value separates the two subgroups. */
  protectedAttribute: string;
  bias: number;
}

/** What the generator knows exactly and a method must discover. */
export interface PlantedPairTruth {
  pair: PlantedPair;
  /** Per row: 1 in the disadvantaged subgroup, 2 in the reference subgroup, 0 elsewhere. */
  membership: Uint8Array;
  /** The true probability of the favourable outcome for each row of `x` (n x d), bias included. */
  probability(x: Float64Array): Float64Array;
  /** Whether changing only protected attributes of row `x[off..]` changes its true probability. */
  isBiasedInput(x: Float64Array, off: number): boolean;
}

export interface GeneratedData {
  dataset: Dataset;
  truth: PlantedPairTruth;
  options: PlantedPairOptions;
  seed: number | string;
}

function attributesFor(o: PlantedPairOptions): Attribute[] {
  const cats = (prefix: string, k: number) => Array.from({ length: k }, (_, v) => `${prefix}${v}`);
  const attrs: Attribute[] = [];
  for (let p = 0; p < o.protectedAttributes; p++) {
    attrs.push({
      name: `Attr${p + 1}_T`,
      kind: 'categorical',
      protected: true,
      categories: cats('t', o.protectedValues),
    });
  }
  for (let j = 0; j < o.otherAttributes; j++) {
    // Alternate categorical and ordinal non-protected attributes so both kinds are exercised.
    attrs.push(
      j % 2 === 0
        ? {
            name: `Attr${j + 1}_X`,
            kind: 'categorical',
            protected: false,
            categories: cats('x', o.otherValues),
          }
        : {
            name: `Attr${j + 1}_X`,
            kind: 'ordinal',
            protected: false,
            min: 0,
            max: o.otherValues - 1,
            step: 1,
          },
    );
  }
  return attrs;
}

function matches(
  x: Float64Array,
  off: number,
  conditions: readonly { index: number; value: number }[],
): boolean {
  for (const c of conditions) if (x[off + c.index] !== c.value) return false;
  return true;
}

/**
 * A minimal generator with one planted biased subgroup pair: independent uniform attributes, a
 * logistic outcome driven by the non-protected attributes, and a logit shift `bias` for members of
 * one subgroup (protected value a, plus `granularity` non-protected constraints) against its twin
 * (protected value b, same constraints). The truth is exact: membership per row, the structural
 * probability of any input, and which inputs are treated differently by protected value alone.
 */
export function generatePlantedPair(
  options: Partial<PlantedPairOptions> = {},
  seed: number | string = 0,
): GeneratedData {
  const o = resolveOptions<PlantedPairOptions>(plantedPairOptionsSchema, options);
  if (o.granularity > o.otherAttributes) {
    throw new OptionsError(
      'OPTIONS_INVALID',
      `granularity ${o.granularity} exceeds the ${o.otherAttributes} non-protected attributes`,
      {
        option: '/granularity',
      },
    );
  }
  const rng = createRng(seed);
  const structure = rng.fork('structure');
  const attrs = attributesFor(o);
  const schema: Schema = defineSchema({
    attributes: attrs,
    outcome: { name: 'outcome', labels: ['unfavourable', 'favourable'], favorable: 1 },
  });
  const d = attrs.length;
  const P = o.protectedAttributes;

  // Outcome weights for the non-protected attributes (centred codes) and an intercept.
  const weights = new Float64Array(d);
  for (let j = P; j < d; j++) weights[j] = structure.normal(0, o.signal / Math.sqrt(o.otherAttributes));
  const centre = (o.otherValues - 1) / 2;

  // The pair: protected attribute 0 takes value a (disadvantaged) or b (reference); shared constraints.
  const [a, b] = structure.sample(
    Array.from({ length: o.protectedValues }, (_, v) => v),
    2,
  ) as [number, number];
  const shared = structure
    .sample(
      Array.from({ length: o.otherAttributes }, (_, j) => P + j),
      o.granularity,
    )
    .sort((x, y) => x - y)
    .map((index) => ({ index, value: structure.int(0, o.otherValues - 1) }));
  const inA = [{ index: 0, value: a }, ...shared];
  const inB = [{ index: 0, value: b }, ...shared];
  const toConditions = (cs: typeof inA): Condition[] =>
    cs.map((c) => ({ attribute: attrs[c.index]!.name, values: [c.value] }));

  const logit = (x: Float64Array, off: number): number => {
    let z = 0;
    for (let j = P; j < d; j++) z += weights[j]! * (x[off + j]! - centre);
    return matches(x, off, inA) ? z + o.bias : z;
  };
  const probability = (x: Float64Array): Float64Array => {
    const n = x.length / d;
    const out = new Float64Array(n);
    for (let i = 0; i < n; i++) out[i] = 1 / (1 + Math.exp(-logit(x, i * d)));
    return out;
  };

  const draw = rng.fork('rows');
  const x = new Float64Array(o.rows * d);
  const y = new Int32Array(o.rows);
  const membership = new Uint8Array(o.rows);
  for (let i = 0; i < o.rows; i++) {
    const off = i * d;
    for (let j = 0; j < d; j++) x[off + j] = draw.int(0, j < P ? o.protectedValues - 1 : o.otherValues - 1);
    membership[i] = matches(x, off, inA) ? 1 : matches(x, off, inB) ? 2 : 0;
    y[i] = draw.bernoulli(1 / (1 + Math.exp(-logit(x, off)))) ? 1 : 0;
  }

  const dataset = createDataset({ schema, x, y, name: `planted-pair(seed=${seed})` });
  return {
    dataset,
    options: o,
    seed,
    truth: {
      pair: {
        disadvantaged: toConditions(inA),
        reference: toConditions(inB),
        protectedAttribute: attrs[0]!.name,
        bias: o.bias,
      },
      membership,
      probability,
      // Only protected attribute 0 enters the outcome, and only through membership of A: an input
      // is treated differently by protected value alone exactly when it meets A's shared constraints.
      isBiasedInput: (xs, off) => o.bias !== 0 && matches(xs, off, shared),
    },
  };
}
