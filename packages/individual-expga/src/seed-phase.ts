import {
  type CountingClassifier,
  type Dataset,
  DomainSampler,
  protectedIndices,
  type Rng,
  type RunController,
} from '@fb/core';
import { type LocalExplainer, rankOf } from './explainer.js';
import type { SeedSource } from './options.js';

/** Model rows per explanation batch (candidates x perturbed samples). */
const ROWS_PER_QUERY = 16_384;

export interface SeedPhaseSettings {
  candidates: number;
  seeds: number;
  source: SeedSource;
  thresholdRank: number;
  /** Distinct queries one seed's counterfactual check takes (itself and its protected variants). */
  checkQueries: number;
}

export interface SeedPhaseResult {
  /** The seeds, `count` rows of width d. */
  seeds: Float64Array;
  count: number;
  /** Candidates explained. */
  explained: number;
  /** How often the best-ranked protected attribute took each rank (0-based), over explained candidates. */
  rankHistogram: number[];
}

/**
 * ExpGA's seed selection: explain candidates (uniform domain draws or data rows) with the local
 * explainer and keep those whose best-ranked protected attribute ranks below `thresholdRank`,
 * until `seeds` are kept or `candidates` are explained. Several candidates share one model query.
 */
export async function selectSeeds(
  dataset: Dataset,
  model: CountingClassifier,
  explainer: LocalExplainer,
  ctl: RunController,
  rng: { candidates: Rng; lime: Rng },
  settings: SeedPhaseSettings,
): Promise<SeedPhaseResult> {
  const { d, schema } = dataset;
  const prot = protectedIndices(schema);
  const favourable = schema.outcome.favorable;
  const c = model.nClasses;
  const per = explainer.samples;
  const batch = Math.max(1, Math.floor(ROWS_PER_QUERY / per));
  const total = settings.source === 'data' ? Math.min(settings.candidates, dataset.n) : settings.candidates;
  const order = settings.source === 'data' ? rng.candidates.sampleIndices(dataset.n, total) : null;
  const sampler = new DomainSampler(schema);
  const candidates = new Float64Array(batch * d);
  const rows = new Float64Array(batch * per * d);
  const seeds = new Float64Array(settings.seeds * d);
  const rankHistogram = new Array<number>(d).fill(0);
  let count = 0;
  let explained = 0;
  const stop = () => ctl.shouldStop() !== null;
  while (explained < total && count < settings.seeds) {
    if (await ctl.checkpoint({ phase: 'seeds', done: explained, total })) break;
    let m = Math.min(batch, total - explained);
    // Under a query budget, explain only what it affords after the checks of the seeds kept so far,
    // so that the explanations never overrun it and the seeds found can still be checked.
    const maxQueries = ctl.budget.maxQueries;
    if (maxQueries !== undefined) {
      const left = maxQueries - model.distinctQueries - count * settings.checkQueries;
      m = Math.min(m, Math.floor(left / (per + settings.checkQueries)));
      if (m < 1) {
        ctl.stopFor('query-budget');
        break;
      }
    }
    // One candidate's samples and explanation are long work on wide data: the budget is polled
    // between candidates and inside the explanation's ridge fit; a part-built batch is not queried.
    let perturbed = 0;
    for (; perturbed < m && !ctl.shouldStop(); perturbed++) {
      const i = perturbed;
      if (order)
        candidates.set(dataset.x.subarray(order[explained + i]! * d, (order[explained + i]! + 1) * d), i * d);
      else sampler.sample(rng.candidates, candidates, i * d);
      explainer.perturb(rng.lime, candidates, i * d, rows, i * per * d);
    }
    if (perturbed < m) break;
    const queried = rows.subarray(0, m * per * d);
    let score: Float64Array;
    if (model.hasProba) {
      const proba = model.predictProba(queried);
      score = new Float64Array(m * per);
      for (let s = 0; s < m * per; s++) score[s] = proba[s * c + favourable]!;
    } else {
      score = Float64Array.from(model.predict(queried), (label) => (label === favourable ? 1 : 0));
    }
    for (let i = 0; i < m && count < settings.seeds; i++) {
      const coef = explainer.explain(rows, i * per * d, score, i * per, stop);
      if (!coef) break;
      explained++;
      let rank = d;
      for (const p of prot) rank = Math.min(rank, rankOf(coef, p));
      rankHistogram[rank]!++;
      if (rank < settings.thresholdRank) seeds.set(candidates.subarray(i * d, (i + 1) * d), count++ * d);
    }
    if (ctl.shouldStop()) break;
  }
  return { seeds, count, explained, rankHistogram };
}
