import {
  type Dataset,
  defineSubgroupDetector,
  ModelError,
  OptionsError,
  type SubgroupDetector,
  type SubgroupFinding,
} from '@fb/core';
import { recodeDataset } from './encoding.js';
import { type ErrorType, predictionErrors } from './error-vectors.js';
import { oneHot } from './one-hot.js';
import { type Options, optionsSchema } from './options.js';
import { type LevelStatistics, sliceLine } from './sliceline.js';
import { VERSION } from './version.js';

const seconds = (from: number) => (performance.now() - from) / 1000;

/** The row count that `minSupport` stands for: rows when >= 1, a fraction of n when < 1. */
export function minSupportRows(minSupport: number, n: number): number {
  return minSupport >= 1 ? minSupport : Math.ceil(minSupport * n);
}

function checkOptions(options: Options, dataset: Dataset): void {
  const custom = options.errors.includes('custom');
  const vector = options.errorVector;
  if (custom && vector === null) {
    throw new OptionsError('OPTIONS_INVALID', 'errors lists "custom" but no errorVector was given', {
      option: '/errorVector',
    });
  }
  if (!custom && vector !== null) {
    throw new OptionsError('OPTIONS_INVALID', 'errorVector is given but errors does not list "custom"', {
      option: '/errors',
    });
  }
  if (options.k * options.errors.length > dataset.n) {
    throw new OptionsError(
      'OPTIONS_INVALID',
      `k = ${options.k} slices for each of ${options.errors.length} error vectors exceeds the ${dataset.n} rows of the dataset`,
      { option: '/k' },
    );
  }
  if (vector !== null && vector.length !== dataset.n) {
    throw new OptionsError(
      'OPTIONS_INVALID',
      `errorVector has ${vector.length} values but the dataset has ${dataset.n} rows`,
      { option: '/errorVector' },
    );
  }
}

/** FP errors are unearned favourable outcomes, FN errors withheld ones. */
const DIRECTION: Record<ErrorType, SubgroupFinding['direction']> = {
  'false-positive': 'higher',
  'false-negative': 'lower',
  misclassification: null,
  custom: null,
};

/**
 * SliceLine (Sagadeeva & Boehm, SIGMOD 2021): the top-k slices (conjunctions of attribute = value
 * predicates) by the score α((se/|S|)/ē − 1) − (1 − α)(n/|S| − 1) of an error vector, enumerated
 * exactly and level-wise over the one-hot matrix with size, score-bound and missing-parent pruning.
 */
export const sliceline: SubgroupDetector<Options> = defineSubgroupDetector<Options>({
  id: 'sliceline',
  version: VERSION,
  access: 'black-box',
  description:
    "SliceLine (Sagadeeva & Boehm, SIGMOD 2021): exact top-k slices of a model's errors (FP, FN, misclassification or any error vector) by linear-algebra lattice enumeration with pruning.",
  requiresModel: false,
  optionsSchema,
  checkOptions,
  async scan({ dataset, model, options, ctl }) {
    const types = options.errors;
    if (types.some((t) => t !== 'custom') && model === null) {
      throw new ModelError(
        'MODEL_MISSING',
        `errors ${JSON.stringify(types.filter((t) => t !== 'custom'))} come from a model's predictions: pass input.model (or scan only "custom" errors)`,
      );
    }
    const tRecode = performance.now();
    const table = recodeDataset(dataset, options, () => ctl.shouldStop() !== null);
    if (table === null) {
      const recodeSeconds = seconds(tRecode);
      const complete = Object.fromEntries(types.map((t) => [t, false]));
      return { subgroups: [], extras: { errorTypes: types, complete, timings: { recodeSeconds } } };
    }
    const x2 = oneHot(table);
    const recodeSeconds = seconds(tRecode);

    const tModel = performance.now();
    const predicted = model && types.some((t) => t !== 'custom') ? model.predict(dataset.x) : null;
    const modelSeconds = seconds(tModel);

    const tSearch = performance.now();
    const minSupport = minSupportRows(options.minSupport, dataset.n);
    const found: Omit<SubgroupFinding, 'rank'>[] = [];
    const averageError: Record<string, number> = {};
    const levels: Record<string, LevelStatistics[]> = {};
    const complete: Record<string, boolean> = {};
    for (const type of types) {
      if (ctl.shouldStop()) break;
      const e =
        type === 'custom'
          ? Float64Array.from(options.errorVector!)
          : predictionErrors(dataset, predicted!, type);
      const res = await sliceLine(
        x2,
        e,
        { k: options.k, alpha: options.alpha, maxLevel: options.maxLevel, minSupport },
        ctl,
      );
      averageError[type] = res.averageError;
      levels[type] = res.levels;
      complete[type] = res.complete;
      for (const s of res.top) {
        const conditions = Array.from(s.predicates, (c) => {
          const f = x2.featureOf[c]!;
          return table.attributes[f]!.condition(c - x2.offsets[f]!);
        });
        const sliceError = s.error / s.size;
        found.push({
          conditions,
          size: s.size,
          score: s.score,
          effect: sliceError - res.averageError,
          pValue: null,
          direction: DIRECTION[type],
          details: {
            errorType: type,
            totalError: s.error,
            maxError: s.maxError,
            averageError: sliceError,
            overallAverageError: res.averageError,
            level: s.predicates.length,
          },
        });
      }
    }
    const searchSeconds = seconds(tSearch);
    found.sort((a, b) => b.score - a.score);
    return {
      subgroups: found.map((s, i) => ({ rank: i + 1, ...s })),
      extras: {
        errorTypes: types,
        minSupportRows: minSupport,
        oneHotColumns: x2.l,
        attributes: table.attributes.map((a) => ({
          attribute: a.attribute,
          codes: a.arity,
          binned: a.binned,
          distinctValues: a.distinctValues,
        })),
        binning: table.attributes
          .filter((a) => a.binned)
          .map((a) => ({ attribute: a.attribute, distinctValues: a.distinctValues, bins: a.bins })),
        averageError,
        levels,
        complete,
        timings: { recodeSeconds, modelSeconds, searchSeconds },
      },
    };
  },
});
