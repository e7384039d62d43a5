import { attributeIndex, DataError, type Dataset, isDiscrete, OptionsError } from '@fb/core';
import type { CbsOptions, ScanType } from './options.js';

/** Probabilities are kept this far from 0 and 1 before taking log-odds. */
const EPS = 1e-6;

export const logit = (p: number) => {
  const c = Math.min(1 - EPS, Math.max(EPS, p));
  return Math.log(c / (1 - c));
};

/** The variables of the CBS framework for every row: A, Y, P, P_bin, and the scan type's I and C. */
export interface Frame {
  n: number;
  /** Index of the sensitive attribute (excluded from X). */
  sensitive: number;
  /** Columns of X: every attribute except the sensitive one. */
  covariates: number[];
  /** A = 1: member of the protected class. */
  a: Uint8Array;
  /** Y = 1: the favourable outcome. */
  y: Float64Array;
  /** P: the model's probability of the favourable outcome. */
  p: Float64Array;
  /** The event variable I (Y, P or P_bin). */
  event: Float64Array;
  /** The conditional variable C as a model input (Y, P_bin, or the log-odds of P), or null when value-conditional. */
  condition: Float64Array | null;
  /** Rows kept by the value-conditional filter C = z (all rows otherwise). */
  kept: Uint8Array;
  /** Whether I is real-valued (separation for predictions: the two-record trick and the Gaussian score). */
  realEvent: boolean;
}

const eventIsY = (t: ScanType) => t.startsWith('sufficiency');

/** The protected class: the sensitive attribute and the values that make A = 1. */
export function protectedClass(
  dataset: Dataset,
  options: Pick<CbsOptions, 'protectedAttribute' | 'protectedValues'>,
): { index: number; values: number[] } {
  const { schema, n, d, x } = dataset;
  let index: number;
  if (options.protectedAttribute === null) {
    index = schema.attributes.findIndex((a) => a.protected);
  } else {
    try {
      index = attributeIndex(schema, options.protectedAttribute);
    } catch {
      throw new OptionsError(
        'OPTIONS_INVALID',
        `protectedAttribute "${options.protectedAttribute}" is not an attribute of the schema`,
        {
          option: '/protectedAttribute',
        },
      );
    }
  }
  const attr = schema.attributes[index]!;
  if (!isDiscrete(attr)) {
    throw new OptionsError(
      'OPTIONS_INVALID',
      `protectedAttribute "${attr.name}" is continuous: bin it first`,
      {
        option: '/protectedAttribute',
        attribute: attr.name,
      },
    );
  }
  if (options.protectedValues !== null) return { index, values: [...options.protectedValues] };
  const counts = new Map<number, number>();
  for (let i = 0; i < n; i++) counts.set(x[i * d + index]!, (counts.get(x[i * d + index]!) ?? 0) + 1);
  // The least frequent value (the smaller one on ties).
  const [rarest] = [...counts.entries()].sort((u, v) => u[1] - v[1] || u[0] - v[0])[0]!;
  return { index, values: [rarest] };
}

/** Build the frame from the data, the model's probabilities of the favourable outcome and the options. */
export function buildFrame(
  dataset: Dataset,
  p: Float64Array,
  options: CbsOptions,
  sensitive: number,
  values: number[],
): Frame {
  const { n, d, x, schema } = dataset;
  const favourable = schema.outcome.favorable;
  const set = new Set(values);
  const a = new Uint8Array(n);
  const y = new Float64Array(n);
  let members = 0;
  for (let i = 0; i < n; i++) {
    a[i] = set.has(x[i * d + sensitive]!) ? 1 : 0;
    members += a[i]!;
    y[i] = dataset.y[i] === favourable ? 1 : 0;
  }
  const attr = schema.attributes[sensitive]!.name;
  if (members === 0 || members === n) {
    throw new DataError(
      'DATA_EMPTY_GROUP',
      `protected class ${attr} ∈ {${values}} has ${members} of ${n} rows: CBS needs rows in both classes`,
      { attribute: attr },
    );
  }
  const type = options.scanType;
  const pbin = Float64Array.from(p, (v) => (v >= options.threshold ? 1 : 0));
  const event = eventIsY(type) ? y : type === 'separation-predictions' ? p : pbin;
  const cond = eventIsY(type) ? (type === 'sufficiency-predictions' ? Float64Array.from(p, logit) : pbin) : y;
  const z = options.conditionValue;
  if (z !== null && type === 'sufficiency-predictions') {
    throw new OptionsError(
      'OPTIONS_INVALID',
      'conditionValue needs a binary condition C; sufficiency-predictions conditions on the real-valued P',
      {
        option: '/conditionValue',
      },
    );
  }
  const kept = new Uint8Array(n);
  for (let i = 0; i < n; i++) kept[i] = z === null || cond[i] === z ? 1 : 0;
  return {
    n,
    sensitive,
    covariates: schema.attributes.map((_, j) => j).filter((j) => j !== sensitive),
    a,
    y,
    p,
    event,
    condition: z === null ? cond : null,
    kept,
    realEvent: type === 'separation-predictions',
  };
}
