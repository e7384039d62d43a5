import { type Dataset, OptionsError, type Rng } from '@fb/core';
import type { ScanDirection, ScoreFunction } from '@fb/subset-scan';
import type { BiasScanMode, BiasScanOptions, BiasScanScoring } from './options.js';

/** What one scan compares: per-record observations against expectations derived from the model. */
export interface Target {
  /** The outcome class scanned one against all (nominal mode), else null. */
  label: string | null;
  classCode: number | null;
  expected: Float64Array;
  /** Observations from outcome codes (the data's, or a null replicate's). */
  observe(y: Int32Array, out: Float64Array): Float64Array;
  /**
   * +1 when a higher observation means more favourable outcomes, −1 when it means fewer, 0 when it
   * says nothing about the favourable outcome (a non-favourable class in nominal mode).
   */
  favourableSign: number;
}

const ALLOWED: Record<BiasScanMode, ScoreFunction[]> = {
  binary: ['bernoulli', 'poisson', 'berk-jones'],
  nominal: ['bernoulli', 'berk-jones'],
  ordinal: ['poisson', 'gaussian'],
  continuous: ['gaussian'],
};
const AUTO: Record<BiasScanMode, ScoreFunction> = {
  binary: 'bernoulli',
  nominal: 'bernoulli',
  ordinal: 'poisson',
  continuous: 'gaussian',
};

/** The score function of a mode, rejecting combinations the mode does not support. */
export function resolveScoring(mode: BiasScanMode, scoring: BiasScanScoring): ScoreFunction {
  if (scoring === 'auto') return AUTO[mode];
  if (!ALLOWED[mode].includes(scoring)) {
    throw new OptionsError(
      'OPTIONS_INVALID',
      `scoring "${scoring}" does not fit mode "${mode}" (allowed: ${ALLOWED[mode].join(', ')})`,
      { option: '/scoring' },
    );
  }
  return scoring;
}

/** Checks of the options against the data's outcome. */
export function checkModeOptions(options: BiasScanOptions, dataset: Dataset): void {
  const score = resolveScoring(options.mode, options.scoring);
  if (options.alpha !== null && score !== 'berk-jones') {
    throw new OptionsError(
      'OPTIONS_INVALID',
      `alpha is the Berk-Jones null proportion, but the scoring is "${score}" (set scoring: "berk-jones")`,
      { option: '/alpha' },
    );
  }
  const { labels, favorable } = dataset.schema.outcome;
  const k = labels.length;
  if (
    (options.mode === 'ordinal' || options.mode === 'continuous') &&
    favorable !== 0 &&
    favorable !== k - 1
  ) {
    throw new OptionsError(
      'OPTIONS_INVALID',
      `mode "${options.mode}" reads the outcome codes as ordered values, so the favourable outcome must be the lowest or the highest code (it is ${favorable} of 0..${k - 1})`,
      { option: '/mode' },
    );
  }
  if (options.mode === 'nominal' && k > options.maxNominal) {
    throw new OptionsError(
      'OPTIONS_INVALID',
      `mode "nominal" scans at most maxNominal = ${options.maxNominal} classes, the outcome has ${k}`,
      { option: '/maxNominal' },
    );
  }
}

function indicator(code: number) {
  return (y: Int32Array, out: Float64Array) => {
    for (let i = 0; i < y.length; i++) out[i] = y[i] === code ? 1 : 0;
    return out;
  };
}

/** The scans of a mode, from the model's class probabilities (n × K, row-major). */
export function buildTargets(
  mode: BiasScanMode,
  dataset: Dataset,
  proba: Float64Array,
  classes: number,
): Target[] {
  const n = dataset.n;
  const { labels, favorable } = dataset.schema.outcome;
  const column = (c: number) => {
    const e = new Float64Array(n);
    for (let i = 0; i < n; i++) e[i] = proba[i * classes + c]!;
    return e;
  };
  if (mode === 'binary') {
    return [
      {
        label: null,
        classCode: null,
        expected: column(favorable),
        observe: indicator(favorable),
        favourableSign: 1,
      },
    ];
  }
  if (mode === 'nominal') {
    return labels.map((label, c) => ({
      label,
      classCode: c,
      expected: column(c),
      observe: indicator(c),
      favourableSign: c === favorable ? 1 : 0,
    }));
  }
  const expected = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let e = 0;
    for (let c = 0; c < classes; c++) e += c * proba[i * classes + c]!;
    expected[i] = e;
  }
  return [
    {
      label: null,
      classCode: null,
      expected,
      observe: (y, out) => {
        for (let i = 0; i < y.length; i++) out[i] = y[i]!;
        return out;
      },
      favourableSign: favorable === 0 ? -1 : 1,
    },
  ];
}

/** The numeric scan direction of a requested direction (stated in terms of the favourable outcome). */
export function numericDirection(requested: ScanDirection, target: Target): ScanDirection {
  if (target.favourableSign >= 0) return requested;
  return requested === 'positive' ? 'negative' : 'positive';
}

/** One null replicate of the outcomes: yᵢ* drawn from the model's class probabilities. */
export function drawOutcomes(proba: Float64Array, classes: number, rng: Rng, out: Int32Array): Int32Array {
  for (let i = 0; i < out.length; i++) {
    const u = rng.next();
    let acc = 0;
    let c = 0;
    for (; c < classes - 1; c++) {
      acc += proba[i * classes + c]!;
      if (u < acc) break;
    }
    out[i] = c;
  }
  return out;
}
