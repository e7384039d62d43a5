import { type Classifier, type Dataset, ProtectedVariants, type Schema } from '@fb/core';
import { type BiasedSubgroup, biasedSubgroups, type TruthView } from './truth.js';

/** Variant rows queried per model call when the truth is computed (bounds the memory of a batch). */
const CHUNK_ROWS = 1 << 16;

/**
 * One planted subgroup (the biased side of an injected pair) as the audited model treats it: its
 * members among the audited rows, and those members the model really discriminates in the planted
 * direction.
 */
export interface PlantedGroupTruth {
  /** Injected pair id and side of the biased subgroup. */
  pair: number;
  side: 0 | 1;
  /** Injected logit bias (negative: the subgroup is disadvantaged). */
  bias: number;
  /** 1 for the audited rows inside the subgroup. */
  members: Uint8Array;
  size: number;
  /**
   * 1 for members the model discriminates in the planted direction: some protected-only change that
   * takes the row out of the subgroup moves the model's decision the way the generator's bias moves
   * the true probability (the learned part of the planted bias).
   */
  learned: Uint8Array;
  learnedCount: number;
}

/**
 * The audited model's own counterfactual behaviour on the audited rows, computed exactly by querying
 * every protected variant of every row: which rows it discriminates at all, and, per planted
 * subgroup, which members it discriminates in the planted direction; and which rows it treats
 * differently where the generator planted nothing (spurious).
 */
export interface ModelTruth {
  /** 1 for rows whose decision changes under some protected-only change. */
  discriminated: Uint8Array;
  discriminatedCount: number;
  /**
   * 1 for rows with a spurious difference: some protected-only change moves the model's decision
   * although it leaves the injected bias unchanged, or moves it against the bias (not planted).
   */
  spurious: Uint8Array;
  spuriousCount: number;
  groups: PlantedGroupTruth[];
  /**
   * Every distinct (audited row, protected variant) pair: each row with every other joint assignment
   * of its protected values, each unordered pair of inputs once (rows that repeat, or are each other's
   * variants, give one pair). Null without the twin model.
   */
  variantPairs: number | null;
  /** Distinct variant pairs whose two inputs get different decisions from the model. Null without the twin model. */
  flips: number | null;
  /**
   * Variant pairs the planted bias caused: the model's decisions on the row and the variant differ and
   * the twin model's (the same specification trained on the no-bias twin's labels) are equal. Null
   * without the twin model.
   */
  trueFlips: number | null;
  /** 1 for rows with at least one bias-caused variant pair (`trueFlips`). Null without the twin model. */
  biasCaused: Uint8Array | null;
  /** Rows marked in `biasCaused`. Null without the twin model. */
  biasCausedCount: number | null;
  /**
   * `trueFlips / variantPairs`: the precision of the trivial output that lists every protected variant
   * of every audited row without asking the model (the precision floor). Null without the twin model
   * or without variant pairs.
   */
  baseRate: number | null;
}

/** 1 where the predicted class is the schema's favourable one. */
export function favourableDecisions(schema: Schema, predictions: Int32Array): Uint8Array {
  const fav = schema.outcome.favorable ?? 1;
  const out = new Uint8Array(predictions.length);
  for (let i = 0; i < predictions.length; i++) out[i] = predictions[i] === fav ? 1 : 0;
  return out;
}

/** Injected bias β of each row (the sum of the biases of the planted subgroups it meets). */
export function injectedBias(
  subgroups: readonly BiasedSubgroup[],
  x: Float64Array,
  d: number,
  n: number,
): Float64Array {
  const beta = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let b = 0;
    for (const s of subgroups) if (s.matches(x, i * d)) b += s.bias;
    beta[i] = b;
  }
  return beta;
}

/** A row's values as text: the key of an input. */
function rowText(x: ArrayLike<number>, off: number, d: number): string {
  let s = '';
  for (let j = 0; j < d; j++) s += `${x[off + j]},`;
  return s;
}

/** A set of unordered pairs of input keys. */
class UnorderedPairs {
  private readonly seen = new Set<string>();
  /** Adds {a, b}; true when it was not there yet. */
  add(a: string, b: string): boolean {
    const key = a < b ? `${a}|${b}` : `${b}|${a}`;
    if (this.seen.has(key)) return false;
    this.seen.add(key);
    return true;
  }
  get size(): number {
    return this.seen.size;
  }
}

/**
 * Compute the model truth of `model` on `dataset` (the audited rows) against the planted subgroups
 * of `truth`. Every row's protected variants (all combinations) go to the model in batches. With
 * `twinModel` (the same model specification trained on the no-bias twin's labels: same rows, split,
 * seed and options) the same batches also go to the twin, and the variant pairs are counted: all of
 * them, those the model flips, and those it flips where the twin does not (caused by the bias).
 */
export function modelTruth(
  model: Classifier,
  dataset: Dataset,
  truth: TruthView,
  twinModel?: Classifier,
): ModelTruth {
  const { n, d, schema, x } = dataset;
  const variants = new ProtectedVariants(schema, 'all-combinations');
  const per = variants.perInput;
  const subgroups = biasedSubgroups(truth, schema);
  const K = subgroups.length;
  const own = favourableDecisions(schema, model.predict(x));
  const twinOwn = twinModel ? favourableDecisions(schema, twinModel.predict(x)) : null;
  const biasCaused = twinModel ? new Uint8Array(n) : null;
  let flips = 0;
  let trueFlips = 0;
  const pairs = new UnorderedPairs();
  const members = subgroups.map(() => new Uint8Array(n));
  for (let i = 0; i < n; i++) {
    for (let k = 0; k < K; k++) members[k]![i] = subgroups[k]!.matches(x, i * d) ? 1 : 0;
  }
  const ownBeta = injectedBias(subgroups, x, d, n);
  const discriminated = new Uint8Array(n);
  const spurious = new Uint8Array(n);
  const learned = subgroups.map(() => new Uint8Array(n));
  const rowsPerChunk = Math.max(1, Math.floor(CHUNK_ROWS / Math.max(per, 1)));
  const buffer = new Float64Array(rowsPerChunk * per * d);
  for (let start = 0; start < n && per > 0; start += rowsPerChunk) {
    const end = Math.min(n, start + rowsPerChunk);
    let m = 0;
    for (let i = start; i < end; i++) m += variants.write(x, i * d, buffer, m * d);
    const rows = buffer.subarray(0, m * d);
    const decisions = favourableDecisions(schema, model.predict(rows));
    const twinDecisions = twinModel ? favourableDecisions(schema, twinModel.predict(rows)) : null;
    const beta = injectedBias(subgroups, rows, d, m);
    let v = 0;
    for (let i = start; i < end; i++) {
      const rowKey = twinDecisions ? rowText(x, i * d, d) : '';
      for (let j = 0; j < per; j++, v++) {
        const move = decisions[v]! - own[i]!;
        // Each distinct unordered pair counts once (audited rows may repeat, or be each other's variant).
        const fresh = twinDecisions !== null && pairs.add(rowKey, rowText(rows, v * d, d));
        if (move === 0) continue;
        discriminated[i] = 1;
        if (fresh) flips++;
        if (twinDecisions && twinDecisions[v] === twinOwn![i]) {
          if (fresh) trueFlips++;
          biasCaused![i] = 1;
        }
        const planted = Math.sign(beta[v]! - ownBeta[i]!);
        if (planted === 0 || planted !== move) {
          spurious[i] = 1;
          continue;
        }
        for (let k = 0; k < K; k++) {
          if (members[k]![i] && !subgroups[k]!.matches(rows, v * d)) learned[k]![i] = 1;
        }
      }
    }
  }
  const count = (mask: Uint8Array) => mask.reduce((a, b) => a + b, 0);
  const variantPairs = pairs.size;
  return {
    discriminated,
    discriminatedCount: count(discriminated),
    spurious,
    spuriousCount: count(spurious),
    groups: subgroups.map((s, k) => ({
      pair: s.pair,
      side: s.side,
      bias: s.bias,
      members: members[k]!,
      size: count(members[k]!),
      learned: learned[k]!,
      learnedCount: count(learned[k]!),
    })),
    variantPairs: twinModel ? variantPairs : null,
    flips: twinModel ? flips : null,
    trueFlips: twinModel ? trueFlips : null,
    biasCaused,
    biasCausedCount: biasCaused ? count(biasCaused) : null,
    baseRate: twinModel && variantPairs ? trueFlips / variantPairs : null,
  };
}
