import {
  type Condition,
  checkRows,
  createDataset,
  createRng,
  type Dataset,
  defineSchema,
  OptionsError,
  type Outcome,
  type Rng,
  resolveOptions,
  rowCount,
  type Schema,
} from '@fb/core';
import { threadCount } from '@fb/core/threads';
import { BiasIndex } from './bias-index.js';
import { type GaussianCopula, sampleCopula } from './copula.js';
import { ensemble, epistemicSigmas, lazy } from './epistemic.js';
import { subgroupKey } from './keys.js';
import { sigmoid } from './normal.js';
import { type SynthOptions, synthOptionsSchema } from './options.js';
import {
  baseLogits,
  declaredOutcome,
  fitOutcome,
  type OutcomeModel,
  randomOutcome,
} from './outcome-model.js';
import {
  BLOCK_SUMS,
  counterfactualPick,
  drawOutcomes,
  type OutcomeSetup,
  outcomeArrays,
  pickedCombo,
} from './outcomes.js';
import { drawPopulation, POPULATION_CHUNK, PopulationRows, populationRows } from './population.js';
import { phaseOneCopula } from './prescriptive.js';
import { generateReferenceCompat } from './reference-compat.js';
import {
  type Placement,
  placeRows,
  populateSubgroups,
  rowBlock,
  type SamplingTask,
  streamOf,
  usesHelpers,
} from './sampling-threads.js';
import {
  constraintCondition,
  constraintLatent,
  definePairs,
  type PairDef,
  type SubgroupDef,
} from './subgroups.js';

export interface SubgroupTruth {
  id: number;
  pair: number;
  side: 'A' | 'B';
  /** The defining conjunction, in core's Condition form. */
  conditions: Condition[];
  /** The seed layout's key: per attribute the constrained cell or `*`, joined by `|`. */
  key: string;
  /** Injected logit bias of this subgroup. */
  bias: number;
  aleatoricSigma: number;
  /** Rows generated for it (population membership: rows meeting its conditions, which the sums cover). */
  size: number;
  /** Mean noise-free probability and favourable-label rate of its rows. */
  meanProbability: number;
  favourableRate: number;
  /** Mean epistemic sigma of its rows (computed on first read, as `GroundTruth.epistemicSigma`). */
  meanEpistemicSigma: number;
}

export interface PairTruth {
  id: number;
  a: SubgroupTruth;
  b: SubgroupTruth;
  /** group_key: the two subgroup keys joined by `-`. */
  key: string;
  /** Similarity over the union of defining attributes (1 same value, 0.5 one side only, 0 different). */
  similarity: number;
  /** The drawn s (null for predefined pairs). */
  similarityTarget: number | null;
  /** Non-protected / protected attributes among the defining ones. */
  granularity: number;
  intersectionality: number;
  /** The drawn size imbalance f. */
  imbalance: number;
  predefined: boolean;
  /** Injected bias of A minus that of B (logit). */
  biasGap: number;
  /** Mean noise-free probability of A's rows minus B's. */
  expectedGap: number;
  /** Favourable-label rate of A's rows minus B's. */
  realisedGap: number;
}

/**
 * The exact truth of a generated dataset. The outcome model is
 *   p(x) = σ(η(x) + β(x) + ε),  η(x) = b + W·enc(x) (no protected attribute has weight),
 *   β(x) = the sum of the biases of all subgroups whose conditions x meets (usually one or none),
 *   ε ~ N(0, σ_a²) per row (aleatoric).
 * The noise-free decision is [σ(η + β) >= threshold].
 *
 * Counterfactuals with several protected attributes: the variants of x are all joint assignments
 * of its protected attributes (every combination of their domain values, the others unchanged).
 * The counterfactual of x is the variant that flips the noise-free decision with the largest
 * change of β if one exists, else the variant with the largest |β' - β|, ties to the lowest
 * combination index (protected attributes in schema order, mixed radix); when every variant has
 * the same β it is the lowest-index combination other than x's own. Because η ignores protected
 * attributes, any change of the decision across variants is caused by injected bias.
 */
export interface GroundTruth {
  pairs: PairTruth[];
  subgroups: SubgroupTruth[];
  /**
   * Per row: the subgroup it was generated for, -1 for background rows (population membership: the
   * lowest id of a subgroup whose conditions it meets, -1 if none).
   */
  subgroupOf: Int32Array;
  /** Per row: the injected bias β(x) (logit). */
  bias: Float64Array;
  /**
   * Per row: sd of the ensemble members' probabilities (out-of-sample), 0 without ensemble. Computed
   * (the ensemble fitted and evaluated) on first read, on the calling thread; never in shared memory.
   */
  epistemicSigma: Float64Array;
  /** Per row: sd of its aleatoric logit noise, and the noise drawn. */
  aleatoricSigma: Float64Array;
  aleatoricNoise: Float64Array;
  /** Per row: σ(η + β + ε), the probability its label was drawn from (or thresholded). */
  probability: Float64Array;
  /** Per row: the same with the counterfactual's β (same noise, same uniform for the label). */
  counterfactualProbability: Float64Array;
  counterfactualLabel: Int32Array;
  /** Noise-free decision threshold. */
  threshold: number;
  /**
   * Share of labels the aleatoric noise changed: the label drawn with the same uniform (or threshold)
   * from the noise-free σ(η + β) differs. The noise's effect on outcomes, in the outcomes' own unit.
   */
  labelNoiseShare: number;
  model: OutcomeModel;
  /** Noise-free σ(η + β) of any inputs (row-major). */
  probabilityOf(x: Float64Array): Float64Array;
  /** The lowest id of a subgroup each input falls in, -1 if none. */
  subgroupsOf(x: Float64Array): Int32Array;
  /** 1 where some protected-only change flips the noise-free decision (hence caused by bias). */
  isBiasedInput(x: Float64Array): Uint8Array;
  /** The counterfactual input of each input (row-major, protected attributes changed only). */
  counterfactualOf(x: Float64Array): Float64Array;
}

export interface SynthResult {
  dataset: Dataset;
  truth: GroundTruth;
  copula: GaussianCopula;
  options: SynthOptions;
}

/** The user's options validated, defaults filled; `source` is passed through untouched. */
export function resolveSynthOptions(options: Partial<SynthOptions> = {}): SynthOptions {
  if (options === null || typeof options !== 'object' || Array.isArray(options))
    throw new OptionsError('OPTIONS_INVALID', 'options must be an object');
  const { source, ...rest } = options;
  const o = resolveOptions<SynthOptions>(synthOptionsSchema, rest);
  o.source = source ?? null;
  return o;
}

const logit = (p: number) => Math.log(p / (1 - p));

/** Most values (rows x attributes) a generated table may hold: 2^27 doubles, 1 GiB. */
export const MAX_TABLE_VALUES = 2 ** 27;

/**
 * Refuse options whose table could exceed `MAX_TABLE_VALUES` before any row is drawn. Quota
 * membership: each subgroup holds at most maxGroupSize rows, and background rows are backgroundShare
 * of the whole table. Population membership: the table has `populationRows` rows.
 */
function checkTableSize(subgroups: number, d: number, o: SynthOptions): void {
  const population = o.membership === 'population';
  const rows = population
    ? populationRows(o)
    : Math.ceil((subgroups * o.maxGroupSize) / (1 - o.backgroundShare));
  if (rows * d > MAX_TABLE_VALUES) {
    throw new OptionsError(
      'OPTIONS_INVALID',
      `these options allow up to ${rows} rows of ${d} attributes, more than the ${MAX_TABLE_VALUES} values a table may hold: lower ${population && o.rows !== null ? 'rows' : 'maxGroupSize, pairs or backgroundShare'}`,
      { option: population && o.rows !== null ? '/rows' : '/maxGroupSize' },
    );
  }
}

/**
 * Phases 3 and 4 of every row: fresh conditional rows per subgroup and their outcomes (on `threads`
 * threads), then background rows outside every subgroup and theirs (on the calling thread, while the
 * helpers sample). Row r drawn (subgroup rows in subgroup order, then background) lands at row
 * position[r] (null: at r).
 */
function populate(
  copula: GaussianCopula,
  subgroups: readonly SubgroupDef[],
  index: BiasIndex,
  setup: OutcomeSetup,
  o: SynthOptions,
  perm: Int32Array | null,
) {
  const d = copula.schema.attributes.length;
  const nSub = subgroups.reduce((s, g) => s + g.size, 0);
  const n = rowsOf(subgroups, o);
  const nBg = n - nSub;
  const threads = threadCount(o.threads);
  const shared = usesHelpers(nSub, threads);
  const memory = (bytes: number) => (shared ? new SharedArrayBuffer(bytes) : new ArrayBuffer(bytes));
  let position: Int32Array | null = null;
  if (perm) {
    position = new Int32Array(memory(4 * n));
    for (let i = 0; i < n; i++) position[perm[i]!] = i;
  }
  const sums = new Float64Array(memory(8 * BLOCK_SUMS * subgroups.length));
  const backgroundSums = new Float64Array(BLOCK_SUMS);
  // With helpers, every thread places its rows straight into the arrays returned, in shared memory.
  const to: Placement = {
    position,
    x: new Float64Array(memory(8 * n * d)),
    outcomes: outcomeArrays(n, shared),
  };
  const owner = new Int32Array(n).fill(-1);
  let row = 0;
  const tasks = subgroups.map((g): SamplingTask => {
    const m = g.constraints.length;
    const task = {
      index: new Int32Array(m),
      lo: new Float64Array(m),
      hi: new Float64Array(m),
      size: g.size,
      row,
      label: `subgroup-${g.id}`,
    };
    g.constraints.forEach((c, k) => {
      task.index[k] = c.attr;
      [task.lo[k]!, task.hi[k]!] = constraintLatent(copula, c);
    });
    for (let r = row; r < row + g.size; r++) owner[position ? position[r]! : r] = g.id;
    row += g.size;
    return task;
  });
  // Background: unconditional draws, kept when outside every subgroup; bounded effort. They need
  // no subgroup row, so the calling thread draws them while helper threads start sampling.
  const background = () => {
    const brng = streamOf(o.seed, 'rows').fork('background');
    const block = rowBlock(nBg, d);
    // Candidates in chunks of one reused array (the same rows as one long draw), each chunk about as
    // many rows as are still needed at the acceptance rate so far: the stream's later rows are never
    // used, so drawing them would only cost time (most of a small data set's when the chunk was fixed).
    const capacity = Math.min(BACKGROUND_CHUNK, nBg + BACKGROUND_SPARE);
    const cand = new Float64Array(capacity * d);
    let kept = 0;
    let drawn = 0;
    const limit = 50 * nBg + 10_000;
    while (kept < nBg) {
      const rate = drawn === 0 ? 1 : Math.max(kept / drawn, 1 / 64);
      const wanted = Math.ceil((nBg - kept) / rate) + BACKGROUND_SPARE;
      const batch = Math.min(capacity, wanted, limit - drawn);
      if (batch <= 0) {
        throw new OptionsError(
          'OPTIONS_INVALID',
          `the subgroups cover nearly the whole population: only ${kept} of ${nBg} background rows found in ${drawn} draws; lower backgroundShare or use more specific subgroups`,
          { option: '/backgroundShare' },
        );
      }
      sampleCopula(copula, batch, brng, cand);
      drawn += batch;
      const first = index.firstOf(cand, batch);
      for (let i = 0; i < batch && kept < nBg; i++) {
        if (first[i] !== -1) continue;
        for (let j = 0; j < d; j++) block.x[kept * d + j] = cand[i * d + j]!;
        kept++;
      }
    }
    const orng = streamOf(o.seed, 'outcome').fork('background');
    drawOutcomes(setup, index, block.x, 0, nBg, null, orng, block.outcomes, backgroundSums, 0);
    placeRows(block, nBg, nSub, d, to);
  };
  populateSubgroups(
    { seed: o.seed, copula, subgroups, maxCombinations: o.maxProtectedCombinations, setup, tasks, sums },
    index,
    threads,
    to,
    background,
  );
  return { x: to.x, outcomes: to.outcomes, owner, n, sums, backgroundSums, position };
}

/**
 * Phase 4 of population membership, on the calling thread: the outcomes of every drawn row, in chunks,
 * from the stream `seed/outcome/population`. A row meeting some subgroup's conditions takes the
 * aleatoric sigma of the lowest such subgroup (its `subgroupOf`), any other row one drawn per row. Per
 * subgroup, the sums of `drawOutcomes` over the rows meeting its conditions.
 */
function populateFromRows(
  population: PopulationRows,
  subgroups: readonly SubgroupDef[],
  index: BiasIndex,
  setup: OutcomeSetup,
  o: SynthOptions,
) {
  const { x, n } = population;
  const owner = index.firstOf(x, n);
  const aleatoric = new Float64Array(n);
  const sigmaOf = new Float64Array(subgroups.length);
  for (const g of subgroups) sigmaOf[g.id] = g.aleatoric;
  for (let i = 0; i < n; i++) aleatoric[i] = owner[i]! < 0 ? Number.NaN : sigmaOf[owner[i]!]!;
  const outcomes = outcomeArrays(n, false);
  const clean = new Float64Array(n);
  const chunk = new Float64Array(BLOCK_SUMS);
  const rowSums = new Float64Array(BLOCK_SUMS);
  const orng = streamOf(o.seed, 'outcome').fork('population');
  for (let lo = 0; lo < n; lo += POPULATION_CHUNK) {
    const hi = Math.min(n, lo + POPULATION_CHUNK);
    drawOutcomes(setup, index, x, lo, hi, aleatoric, orng, outcomes, chunk, 0, clean);
    for (let k = 0; k < BLOCK_SUMS; k++) rowSums[k]! += chunk[k]!;
  }
  const sums = new Float64Array(BLOCK_SUMS * subgroups.length);
  subgroups.forEach((g, t) => {
    const at = t * BLOCK_SUMS;
    for (const i of population.members(g.constraints)) {
      sums[at]!++;
      sums[at + 1]! += clean[i]!;
      sums[at + 2]! += outcomes.y[i]!;
    }
  });
  // Each subgroup's rows, in the order its epistemic sigma is summed (see `epistemicMeans`).
  const subgroupRows = (t: number) => population.members(subgroups[t]!.constraints);
  return { x, outcomes, owner, n, sums, noisyLabels: rowSums[3]!, subgroupRows };
}

/** Background candidates drawn at a time: at most BACKGROUND_CHUNK, and BACKGROUND_SPARE beyond the need. */
const BACKGROUND_CHUNK = 8192;
const BACKGROUND_SPARE = 16;

/** Rows of the data set: the subgroups' and the background's. */
function rowsOf(subgroups: readonly SubgroupDef[], o: SynthOptions): number {
  const nSub = subgroups.reduce((s, g) => s + g.size, 0);
  return nSub + Math.round((nSub * o.backgroundShare) / (1 - o.backgroundShare));
}

/** Output schema: the copula's attributes and a binary outcome (the source's when it is binary). */
function outputSchema(copula: GaussianCopula, source: Dataset | null): Schema {
  let outcome: Outcome = { name: 'outcome', labels: ['unfavourable', 'favourable'], favorable: 1 };
  if (source) {
    const so = source.schema.outcome;
    const labels =
      so.labels.length === 2
        ? [so.labels[1 - so.favorable]!, so.labels[so.favorable]!]
        : ['unfavourable', 'favourable'];
    outcome = { name: so.name, labels, favorable: 1 };
  }
  return defineSchema({ attributes: copula.schema.attributes, outcome });
}

function outcomeModel(copula: GaussianCopula, o: SynthOptions, rng: Rng): OutcomeModel {
  const w = o.weights;
  if (Array.isArray(w)) return declaredOutcome(copula, w, o.intercept ?? logit(o.baseRate));
  const fit = w === 'fit' || (w === 'auto' && o.source !== null);
  if (fit) {
    if (!o.source)
      throw new OptionsError('OPTIONS_INVALID', 'weights "fit" needs a source dataset', {
        option: '/weights',
      });
    const m = fitOutcome(copula, o.source, o.fitRows, o.ridge, rng.fork('fit'));
    return o.intercept === null ? m : { ...m, intercept: o.intercept };
  }
  return randomOutcome(copula, o.signal, o.intercept ?? logit(o.baseRate), rng.fork('weights'));
}

/**
 * Generate a dataset with planted, exactly known discrimination (the four-phase generator):
 * 1. a Gaussian copula, fitted to `source` or built from an abstract schema;
 * 2. subgroup pairs differing on at least one protected attribute, with controlled similarity,
 *    granularity and intersectionality;
 * 3. fresh rows per subgroup by exact conditional sampling, plus background rows (with `membership:
 *    'population'`, rows drawn unconditionally before phase 2 instead, a subgroup being the rows that
 *    meet its conditions: see population.ts);
 * 4. outcomes σ(η + β + ε) with injected bias, aleatoric noise, an out-of-sample ensemble's
 *    epistemic sigma and exact counterfactuals.
 */
export function generate(options: Partial<SynthOptions> = {}): SynthResult {
  const o = resolveSynthOptions(options);
  if (o.referenceCompat) return generateReferenceCompat(o, options);
  const rng = createRng(o.seed);
  const copula = phaseOneCopula(o, rng.fork('copula'));
  const schema = outputSchema(copula, o.source);
  const d = schema.attributes.length;
  // Population membership: the rows first, from the seed and the copula only.
  let population: PopulationRows | null = null;
  if (o.membership === 'population') {
    checkTableSize(0, d, o);
    population = new PopulationRows(copula, drawPopulation(copula, populationRows(o), o.seed));
  }
  const pairs = definePairs(copula, o, rng.fork('pairs'), population);
  const subgroups = pairs.flatMap((p) => [p.a, p.b]);
  if (!population) checkTableSize(subgroups.length, d, o);
  const index = new BiasIndex(copula, subgroups, o.maxProtectedCombinations);

  // Phase 4's model first: each block of rows draws its outcomes as soon as it is sampled.
  const model = outcomeModel(copula, o, rng);
  const tau = logit(o.threshold);
  const setup: OutcomeSetup = {
    schema,
    model,
    tau,
    threshold: o.threshold,
    bernoulli: o.labels === 'bernoulli',
    minAleatoric: o.minAleatoric,
    maxAleatoric: o.maxAleatoric,
  };
  const pop = population
    ? populateFromRows(population, subgroups, index, setup, o)
    : populateQuota(copula, subgroups, index, setup, o, rng);
  const { x, owner: subgroupOf, outcomes, n, noisyLabels } = pop;

  const dataset = createDataset({ schema, x, y: outcomes.y, name: `synth(seed=${o.seed})` });
  const truthFns = truthFunctions(schema, model, index, tau);
  // The epistemic annotations, when first read (see epistemic.ts).
  const epistemic = lazy(() => {
    if (o.ensembleSize === 0)
      return { sigma: new Float64Array(n), means: new Float64Array(subgroups.length) };
    const members = ensemble(copula, model, o, rng.fork('ensemble'));
    const sigma = epistemicSigmas(schema, members, x, n);
    return { sigma, means: epistemicMeans(sigma, subgroups, pop.subgroupRows) };
  });
  const subgroupTruth = summarise(schema, copula, pairs, subgroups, pop.sums, (id) => epistemic().means[id]!);
  return {
    dataset,
    copula,
    options: o,
    truth: {
      ...subgroupTruth,
      subgroupOf,
      bias: outcomes.bias,
      get epistemicSigma() {
        return epistemic().sigma;
      },
      aleatoricSigma: outcomes.aleatoricSigma,
      aleatoricNoise: outcomes.aleatoricNoise,
      probability: outcomes.probability,
      counterfactualProbability: outcomes.counterfactualProbability,
      counterfactualLabel: outcomes.counterfactualLabel,
      threshold: o.threshold,
      labelNoiseShare: n ? noisyLabels / n : 0,
      model,
      ...truthFns,
    },
  };
}

/**
 * Phases 3 and 4 of quota membership (streams seed/rows/... and seed/outcome/..., see PopulationJob),
 * rows placed in the shuffled order.
 */
function populateQuota(
  copula: GaussianCopula,
  subgroups: readonly SubgroupDef[],
  index: BiasIndex,
  setup: OutcomeSetup,
  o: SynthOptions,
  rng: Rng,
) {
  const nRows = rowsOf(subgroups, o);
  let perm: Int32Array | null = null;
  if (o.shuffle) {
    perm = new Int32Array(nRows);
    for (let i = 0; i < nRows; i++) perm[i] = i;
    rng.fork('shuffle').shuffle(perm);
  }
  const pop = populate(copula, subgroups, index, setup, o, perm);
  let noisyLabels = pop.backgroundSums[3]!;
  for (let t = 0; t < subgroups.length; t++) noisyLabels += pop.sums[t * BLOCK_SUMS + 3]!;
  // Subgroup t's rows in the order drawn (at their shuffled places).
  const firstRow = new Int32Array(subgroups.length + 1);
  subgroups.forEach((g, t) => {
    firstRow[t + 1] = firstRow[t]! + g.size;
  });
  const subgroupRows = (t: number) => {
    const rows = new Int32Array(subgroups[t]!.size);
    for (let i = 0; i < rows.length; i++) {
      const r = firstRow[t]! + i;
      rows[i] = pop.position ? pop.position[r]! : r;
    }
    return rows;
  };
  return { ...pop, noisyLabels, subgroupRows };
}

/**
 * Mean epistemic sigma per subgroup id over `subgroupRows(t)`, the rows of subgroups[t] (summed in that
 * order, as the outcomes' sums are: the rows drawn for it, or in population membership those meeting
 * its conditions, ascending).
 */
function epistemicMeans(
  sigma: Float64Array,
  subgroups: readonly SubgroupDef[],
  subgroupRows: (t: number) => Int32Array,
): Float64Array {
  const means = new Float64Array(subgroups.length);
  subgroups.forEach((g, t) => {
    const rows = subgroupRows(t);
    let sum = 0;
    for (let i = 0; i < rows.length; i++) sum += sigma[rows[i]!]!;
    means[g.id] = sum / (rows.length || 1);
  });
  return means;
}

function truthFunctions(schema: Schema, model: OutcomeModel, index: BiasIndex, tau: number) {
  const prepare = (x: Float64Array) => {
    const n = rowCount(schema, x);
    checkRows(schema, x, n);
    return { n, eta: baseLogits(schema, model, x, n), scan: index.scan(x, n) };
  };
  return {
    probabilityOf(x: Float64Array): Float64Array {
      const { n, eta, scan } = prepare(x);
      return Float64Array.from({ length: n }, (_, i) => sigmoid(eta[i]! + scan.beta[i]!));
    },
    subgroupsOf(x: Float64Array): Int32Array {
      const n = rowCount(schema, x);
      checkRows(schema, x, n);
      return index.firstOf(x, n);
    },
    isBiasedInput(x: Float64Array): Uint8Array {
      const { n, eta, scan } = prepare(x);
      return Uint8Array.from({ length: n }, (_, i) =>
        counterfactualPick(eta[i]!, scan, i, tau) >= 4 ? 1 : 0,
      );
    },
    counterfactualOf(x: Float64Array): Float64Array {
      const { n, eta, scan } = prepare(x);
      const d = schema.attributes.length;
      const out = Float64Array.from(x);
      for (let i = 0; i < n; i++)
        index.writeCombo(pickedCombo(scan, i, counterfactualPick(eta[i]!, scan, i, tau)), out, i * d);
      return out;
    },
  };
}

function summarise(
  schema: Schema,
  copula: GaussianCopula,
  pairs: readonly PairDef[],
  defs: readonly SubgroupDef[],
  sums: Float64Array,
  meanEpistemic: (id: number) => number,
): { pairs: PairTruth[]; subgroups: SubgroupTruth[] } {
  // Per subgroup id: its rows, Σ σ(η + β) and Σ y (the sums of its block).
  const G = defs.length;
  const size = new Float64Array(G);
  const prob = new Float64Array(G);
  const fav = new Float64Array(G);
  defs.forEach((g, t) => {
    size[g.id] = sums[t * BLOCK_SUMS]!;
    prob[g.id] = sums[t * BLOCK_SUMS + 1]!;
    fav[g.id] = sums[t * BLOCK_SUMS + 2]!;
  });
  const sub = (g: SubgroupDef): SubgroupTruth => {
    const k = size[g.id]! || 1;
    return {
      id: g.id,
      pair: g.pair,
      side: g.side === 0 ? 'A' : 'B',
      conditions: g.constraints.map((c) => constraintCondition(schema, copula, c)),
      key: subgroupKey(
        schema,
        g.constraints.map((c) => constraintCondition(schema, copula, c)),
      ),
      bias: g.bias,
      aleatoricSigma: g.aleatoric,
      size: size[g.id]!,
      meanProbability: prob[g.id]! / k,
      favourableRate: fav[g.id]! / k,
      get meanEpistemicSigma() {
        return meanEpistemic(g.id);
      },
    };
  };
  const subgroups: SubgroupTruth[] = [];
  const out = pairs.map((p): PairTruth => {
    const a = sub(p.a);
    const b = sub(p.b);
    subgroups.push(a, b);
    return {
      id: p.id,
      a,
      b,
      key: `${a.key}-${b.key}`,
      similarity: p.similarity,
      similarityTarget: p.similarityTarget,
      granularity: p.granularity,
      intersectionality: p.intersectionality,
      imbalance: p.imbalance,
      predefined: p.predefined,
      biasGap: a.bias - b.bias,
      expectedGap: a.meanProbability - b.meanProbability,
      realisedGap: a.favourableRate - b.favourableRate,
    };
  });
  return { pairs: out, subgroups };
}
