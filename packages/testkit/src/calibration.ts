// Null worlds and rejection rates for the calibration checks of detectors that report p-values:
// imported by their tests and by their calibration benchmarks (`@fb/testkit/calibration`, free of
// any test runner so that plain Node scripts can use it).
import { type Classifier, createDataset, createRng, type Dataset, type Schema } from '@fb/core';
import { fixtureSchema } from './fixture.js';

/** The kit's schema: sex and race (protected), age in 1..9, hours in [0, 80], job (4 categories). */
export const nullSchema: Schema = fixtureSchema;

export interface NullWorldOptions {
  /** Rows (default 2000). */
  n?: number;
  /**
   * `true`: sex and race depend on age and job (a protected class that differs in its covariates,
   * as in real data); `false`: they are drawn independently of everything.
   */
  protectedDependsOnFeatures?: boolean;
  /**
   * How strongly sex depends on age when it does: the slope of its log-odds per year of age
   * (default 0.6: from 8 % women at age 1 to 91 % at age 9).
   */
  dependence?: number;
  /**
   * `'features'`: the probability of the favourable outcome is a logistic function of age, hours and
   * job; `'interaction'`: of age within job (rising with age in j3, falling in j0), which a model
   * additive in the attributes cannot fit; `'none'`: a constant 0.35 (no attribute says anything about
   * the outcome or the loss).
   */
  signal?: 'features' | 'interaction' | 'none';
}

/** A null world: data whose outcome never depends on the protected attributes given the others, and a model equal to the true probability. */
export interface NullWorld {
  dataset: Dataset;
  /** Predicts the true probability of the favourable outcome (calibrated; no protected input). */
  model: Classifier;
  /** The true probability of the favourable outcome per row. */
  p: Float64Array;
}

function featureScore(age: number, hours: number, job: number): number {
  const z = -2.2 + 0.35 * age + 0.025 * hours + (job === 3 ? 0.8 : job === 0 ? -0.4 : 0);
  return 1 / (1 + Math.exp(-z));
}

function interactionScore(age: number, hours: number, job: number): number {
  const slope = job === 3 ? 0.5 : job === 0 ? -0.5 : 0.1;
  return 1 / (1 + Math.exp(-(-1 + slope * (age - 5) + 0.02 * (hours - 40))));
}

function scoreOf(signal: 'features' | 'interaction' | 'none') {
  return signal === 'none' ? () => 0.35 : signal === 'features' ? featureScore : interactionScore;
}

class ScoreModel implements Classifier {
  readonly nFeatures = 5;
  readonly nClasses = 2;
  readonly description: string;
  private readonly score: (x: Float64Array, off: number) => number;

  constructor(signal: 'features' | 'interaction' | 'none') {
    this.description = `null-world-${signal}`;
    const score = scoreOf(signal);
    this.score = (x, o) => score(x[o + 2]!, x[o + 3]!, x[o + 4]!);
  }

  predictProba(x: Float64Array): Float64Array {
    const n = x.length / 5;
    const out = new Float64Array(2 * n);
    for (let i = 0; i < n; i++) {
      const p = this.score(x, 5 * i);
      out[2 * i] = 1 - p;
      out[2 * i + 1] = p;
    }
    return out;
  }

  predict(x: Float64Array): Int32Array {
    const n = x.length / 5;
    const out = new Int32Array(n);
    for (let i = 0; i < n; i++) out[i] = this.score(x, 5 * i) >= 0.5 ? 1 : 0;
    return out;
  }
}

/** One null data set drawn from `seed`. */
export function nullWorld(seed: number | string, options: NullWorldOptions = {}): NullWorld {
  const n = options.n ?? 2000;
  const dependent = options.protectedDependsOnFeatures ?? true;
  const signal = options.signal ?? 'features';
  const slope = options.dependence ?? 0.6;
  const rng = createRng(seed);
  const model = new ScoreModel(signal);
  const score = scoreOf(signal);
  const x = new Float64Array(5 * n);
  const y = new Int32Array(n);
  const p = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const o = 5 * i;
    const age = rng.int(1, 9);
    const hours = Math.round(rng.uniform(0, 80) * 10) / 10;
    const job = rng.int(0, 3);
    let sex: number;
    let race: number;
    if (dependent) {
      // Women are older; race c is concentrated in job j0.
      sex = rng.bernoulli(1 / (1 + Math.exp(-slope * (age - 5)))) ? 1 : 0;
      race = rng.weightedIndex(job === 0 ? [0.2, 0.2, 0.6] : [0.7, 0.2, 0.1]);
    } else {
      sex = rng.int(0, 1);
      race = rng.weightedIndex([0.6, 0.25, 0.15]);
    }
    x.set([sex, race, age, hours, job], o);
    p[i] = score(age, hours, job);
    y[i] = rng.bernoulli(p[i]!) ? 1 : 0;
  }
  const dataset = createDataset({ schema: nullSchema, x, y, name: `null-world-${seed}` });
  return { dataset, model, p };
}

/**
 * A biased variant of a binary model: the odds of the favourable class (1) multiplied by `factor` on
 * the rows where `member(x, offset)` holds, for the power side of a calibration set.
 */
export function shiftedOddsModel(
  model: Classifier,
  factor: number,
  member: (x: Float64Array, offset: number) => boolean,
): Classifier {
  const d = model.nFeatures;
  return {
    nFeatures: d,
    nClasses: 2,
    predictProba(x: Float64Array): Float64Array {
      const out = model.predictProba!(x);
      for (let i = 0; i < x.length / d; i++) {
        if (!member(x, i * d)) continue;
        const odds = (factor * out[2 * i + 1]!) / out[2 * i]!;
        out[2 * i + 1] = odds / (1 + odds);
        out[2 * i] = 1 - out[2 * i + 1]!;
      }
      return out;
    },
    predict(x: Float64Array): Int32Array {
      const proba = this.predictProba!(x);
      return Int32Array.from({ length: x.length / d }, (_, i) => (proba[2 * i + 1]! >= 0.5 ? 1 : 0));
    },
  };
}

/** The rejection rate of a test over null data sets, with its Monte Carlo uncertainty. */
export interface RejectionRate {
  runs: number;
  rejections: number;
  rate: number;
  /** Nominal level of the test. */
  level: number;
  /** 95 % Wilson interval of the true rejection rate, from the observed one. */
  interval: [number, number];
  /** level ± 1.96·√(level(1 − level)/runs): where the observed rate of a test of that level falls 95 % of the time. */
  band: [number, number];
  /** Whether the observed rate lies inside the band. */
  withinBand: boolean;
  /** Whether it lies above the band: more rejections than a test of that level gives (anti-conservative). */
  aboveBand: boolean;
}

export function rejectionRate(rejections: number, runs: number, level: number): RejectionRate {
  const z = 1.959963984540054;
  const rate = rejections / runs;
  const z2 = z * z;
  const centre = (rate + z2 / (2 * runs)) / (1 + z2 / runs);
  const half = (z * Math.sqrt((rate * (1 - rate)) / runs + z2 / (4 * runs * runs))) / (1 + z2 / runs);
  const halfBand = z * Math.sqrt((level * (1 - level)) / runs);
  const band: [number, number] = [Math.max(0, level - halfBand), level + halfBand];
  return {
    runs,
    rejections,
    rate,
    level,
    interval: [Math.max(0, centre - half), Math.min(1, centre + half)],
    band,
    withinBand: rate >= band[0] && rate <= band[1],
    aboveBand: rate > band[1],
  };
}

/** One line: rate, its interval and the band of a test of the nominal level. */
export function formatRejectionRate(label: string, r: RejectionRate): string {
  const f = (v: number) => v.toFixed(3);
  return (
    `${label}: ${r.rejections}/${r.runs} rejected at ${r.level} = ${f(r.rate)} ` +
    `(95 % interval ${f(r.interval[0])}-${f(r.interval[1])}; a level-${r.level} test falls in ` +
    `${f(r.band[0])}-${f(r.band[1])} 95 % of the time${r.withinBand ? '' : r.aboveBand ? ': ABOVE' : ': below'})`
  );
}
