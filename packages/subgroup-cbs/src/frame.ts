import {
  attributeIndex,
  type Condition,
  DataError,
  type Dataset,
  discretiseAttribute,
  isDiscrete,
  OptionsError,
} from '@fb/core';
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
  /** What the scan observes of I: its log-odds when real-valued (the Gaussian score), else I. */
  scanned: Float64Array;
  /** The conditional variable C as a model input (Y, P_bin, or the log-odds of P), or null when value-conditional. */
  condition: Float64Array | null;
  /** C for every row, value-conditional or not (the resampling test's propensity model conditions on it). */
  conditionAll: Float64Array;
  /** Rows kept by the value-conditional filter C = z (all rows otherwise). */
  kept: Uint8Array;
  /** Whether I is real-valued (separation for predictions: the two-record trick and the Gaussian score). */
  realEvent: boolean;
}

const eventIsY = (t: ScanType) => t.startsWith('sufficiency');

/** One protected class A = 1: rows of a protected attribute taking some of its values. */
export interface ProtectedClassSpec {
  /** Column of the sensitive attribute (excluded from X). */
  index: number;
  attribute: string;
  /** The rows of the class, exactly. */
  condition: Condition;
  /** A per row. */
  a: Uint8Array;
  members: number;
}

/** A class left out of the default scan, and why. */
export interface SkippedClass {
  condition: Condition | { attribute: string };
  reason: string;
}

function attributeOf(dataset: Dataset, name: string, option: string): number {
  try {
    return attributeIndex(dataset.schema, name);
  } catch {
    throw new OptionsError(
      'OPTIONS_INVALID',
      `${option.slice(1)} "${name}" is not an attribute of the schema`,
      {
        option,
      },
    );
  }
}

function membership(dataset: Dataset, index: number, inClass: (v: number) => boolean): Uint8Array {
  const { n, d, x } = dataset;
  const a = new Uint8Array(n);
  for (let i = 0; i < n; i++) a[i] = inClass(x[i * d + index]!) ? 1 : 0;
  return a;
}

const sum = (a: Uint8Array) => a.reduce((s, v) => s + v, 0);

/**
 * The protected classes to scan. With `protectedValues`, one class: those values of
 * `protectedAttribute` (the first protected attribute when null). Without, every value of the named
 * attribute, or of every discrete protected attribute when none is named, is a class against the
 * rest (attributes with more than `maxValues` values in `bins` quantile ranges); classes with fewer
 * than `minClassRows` rows, or with fewer than that many rows outside, are skipped.
 */
export function protectedClasses(
  dataset: Dataset,
  options: Pick<CbsOptions, 'protectedAttribute' | 'protectedValues' | 'maxValues' | 'bins' | 'minClassRows'>,
): { classes: ProtectedClassSpec[]; skipped: SkippedClass[] } {
  const { schema, n } = dataset;
  const named = options.protectedAttribute;
  const indices =
    named !== null
      ? [attributeOf(dataset, named, '/protectedAttribute')]
      : options.protectedValues !== null
        ? [schema.attributes.findIndex((a) => a.protected)]
        : schema.attributes.flatMap((a, j) => (a.protected ? [j] : []));
  const skipped: SkippedClass[] = [];
  const classes: ProtectedClassSpec[] = [];
  for (const index of indices) {
    const attr = schema.attributes[index]!;
    if (!isDiscrete(attr)) {
      if (named !== null || options.protectedValues !== null) {
        throw new OptionsError(
          'OPTIONS_INVALID',
          `protectedAttribute "${attr.name}" is continuous: bin it first`,
          {
            option: '/protectedAttribute',
            attribute: attr.name,
          },
        );
      }
      skipped.push({
        condition: { attribute: attr.name },
        reason: 'continuous attribute (name its values to scan it)',
      });
      continue;
    }
    if (options.protectedValues !== null) {
      const set = new Set(options.protectedValues);
      const a = membership(dataset, index, (v) => set.has(v));
      const values = [...options.protectedValues].sort((u, v) => u - v);
      classes.push({
        index,
        attribute: attr.name,
        condition: { attribute: attr.name, values },
        a,
        members: sum(a),
      });
      continue;
    }
    const levels = discretiseAttribute(dataset, index, {
      maxLevels: options.maxValues,
      bins: options.bins,
      binCategorical: false,
    });
    for (let c = 0; c < levels.arity; c++) {
      const condition = levels.levels[c]!;
      const members = levels.counts[c]!;
      if (members < options.minClassRows || n - members < options.minClassRows) {
        skipped.push({
          condition,
          reason: `${members} of ${n} rows in the class: fewer than minClassRows (${options.minClassRows}) on one side`,
        });
        continue;
      }
      const a = Uint8Array.from(levels.codes, (code) => (code === c ? 1 : 0));
      classes.push({ index, attribute: attr.name, condition, a, members });
    }
  }
  return { classes, skipped };
}

/** Build the frame from the data, the model's probabilities of the favourable outcome and the options. */
export function buildFrame(
  dataset: Dataset,
  p: Float64Array,
  options: CbsOptions,
  cls: ProtectedClassSpec,
): Frame {
  const { n, schema } = dataset;
  const favourable = schema.outcome.favorable;
  const sensitive = cls.index;
  const { a, members } = cls;
  const y = Float64Array.from(dataset.y, (v) => (v === favourable ? 1 : 0));
  const attr = cls.attribute;
  if (members === 0 || members === n) {
    throw new DataError(
      'DATA_EMPTY_GROUP',
      `protected class ${JSON.stringify(cls.condition)} has ${members} of ${n} rows: CBS needs rows in both classes`,
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
    scanned: type === 'separation-predictions' ? Float64Array.from(event, logit) : event,
    condition: z === null ? cond : null,
    conditionAll: cond,
    kept,
    realEvent: type === 'separation-predictions',
  };
}
