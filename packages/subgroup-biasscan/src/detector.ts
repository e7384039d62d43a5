import { type Condition, defineSubgroupDetector, ModelError, type SubgroupFinding } from '@fb/core';
import { encodeDataset } from './encoding.js';
import { type BiasScanOptions, biasScanOptionsSchema } from './options.js';
import { drawNullOutcomes, monteCarloPValue } from './randomization.js';
import { type ScanOptions, type ScanResult, SubsetScan, scanSubsets } from './scan.js';
import type { ScanDirection } from './scoring.js';

const seconds = (from: number) => (performance.now() - from) / 1000;

/**
 * MDSS bias scan (Zhang & Neill 2016): finds the subgroups whose observed favourable-outcome rate
 * deviates most from the model's predicted probabilities, by penalised fast subset scanning, and
 * calibrates each with a randomisation test.
 */
export const biasScan = defineSubgroupDetector<BiasScanOptions>({
  id: 'mdss-bias-scan',
  version: '0.1.0',
  access: 'black-box',
  description:
    'MDSS bias scan (Zhang & Neill 2016): subgroups whose observed favourable rate deviates most from the predicted probabilities, with randomisation-test p-values.',
  optionsSchema: biasScanOptionsSchema,
  requiresModel: true,
  async scan({ dataset, model, options, ctl }) {
    if (!model!.hasProba) {
      throw new ModelError(
        'MODEL_MISMATCH',
        'the bias scan compares outcomes with predicted probabilities, but the model has no predictProba',
      );
    }
    const tStart = performance.now();
    const { coordinates, encodings } = encodeDataset(dataset, options);
    const encodeSeconds = seconds(tStart);

    // Expectations pᵢ: the predicted probability of the favourable class, from one batch query.
    const tModel = performance.now();
    const n = dataset.n;
    const favorable = dataset.schema.outcome.favorable;
    const classes = model!.nClasses;
    const proba = model!.predictProba(dataset.x);
    const expectations = new Float64Array(n);
    const outcomes = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      expectations[i] = proba[i * classes + favorable]!;
      outcomes[i] = dataset.y[i] === favorable ? 1 : 0;
    }
    const modelSeconds = seconds(tModel);

    const directions: ScanDirection[] =
      options.direction === 'both' ? ['negative', 'positive'] : [options.direction];
    const scanOptions = (direction: ScanDirection): ScanOptions => ({
      scoring: options.scoring,
      direction,
      numIters: options.numIters,
      penalty: options.penalty,
    });
    const stop = () => ctl.shouldStop() !== null;

    // Main scan, one per direction; at least restart 0 runs, so a stopped run still reports its best so far.
    const tScan = performance.now();
    const results: ScanResult[] = [];
    const total = options.numIters * directions.length;
    let done = 0;
    for (const direction of directions) {
      const scan = new SubsetScan(
        coordinates,
        expectations,
        outcomes,
        scanOptions(direction),
        ctl.rng.fork(`scan-${direction}`),
      );
      for (;;) {
        scan.runRestart(stop);
        done++;
        const halt = await ctl.checkpoint({ phase: 'scan', done, total });
        if (scan.finished || halt) break;
      }
      results.push(scan.result());
    }
    const scanSeconds = seconds(tScan);

    // Randomisation test: redraw yᵢ* ~ Bernoulli(pᵢ), rescan with the same settings, compare maxima.
    const tRand = performance.now();
    const replicates = options.randomizationReplicates;
    const tested = directions.map((_, k) => k).filter((k) => results[k]!.score > 0);
    const atLeast = new Int32Array(directions.length);
    let completed = 0;
    if (replicates > 0 && tested.length > 0 && !stop()) {
      const nullOutcomes = new Float64Array(n);
      for (let r = 0; r < replicates; r++) {
        drawNullOutcomes(expectations, ctl.rng.fork(`replicate-${r}`), nullOutcomes);
        const maxima: number[] = [];
        for (const k of tested) {
          const direction = directions[k]!;
          const res = scanSubsets(
            coordinates,
            expectations,
            nullOutcomes,
            scanOptions(direction),
            ctl.rng.fork(`replicate-${r}-${direction}`),
            stop,
          );
          if (!res.complete) break;
          maxima.push(res.score);
        }
        // An interrupted replicate is discarded: the p-value uses completed replicates only.
        if (maxima.length < tested.length) break;
        tested.forEach((k, t) => {
          if (maxima[t]! >= results[k]!.score) atLeast[k]!++;
        });
        completed++;
        if (await ctl.checkpoint({ phase: 'randomization', done: completed, total: replicates })) break;
      }
    }
    const randomizationSeconds = seconds(tRand);

    const subgroups: Omit<SubgroupFinding, 'rank'>[] = [];
    directions.forEach((direction, k) => {
      const res = results[k]!;
      if (!(res.score > 0)) return;
      const conditions: Condition[] = [];
      res.subset.forEach((codes, m) => {
        if (codes !== null) conditions.push(encodings[m]!.condition(codes));
      });
      const observed = res.observedSum / res.size;
      const expected = res.expectedSum / res.size;
      const effect = observed - expected;
      subgroups.push({
        conditions,
        size: res.size,
        score: res.score,
        effect,
        pValue: monteCarloPValue(atLeast[k]!, completed),
        direction: effect > 0 || (effect === 0 && direction === 'positive') ? 'higher' : 'lower',
        details: {
          q: res.q,
          observed,
          expected,
          scoring: options.scoring,
          scanDirection: direction,
          replicatesCompleted: completed,
        },
      });
    });
    subgroups.sort((a, b) => b.score - a.score);

    return {
      subgroups: subgroups.map((s, i) => ({ rank: i + 1, ...s })),
      extras: {
        directions,
        restarts: Object.fromEntries(directions.map((d, k) => [d, results[k]!.restarts])),
        replicatesCompleted: completed,
        replicatesPlanned: replicates,
        attributes: encodings.map((e) => ({ attribute: e.attribute, codes: e.arity, binned: e.binned })),
        timings: { encodeSeconds, modelSeconds, scanSeconds, randomizationSeconds },
      },
    };
  },
});
