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
import { BiasIndex, type BiasScan } from './bias-index.js';
import { type GaussianCopula, latentToValues, sampleCopula } from './copula.js';
import { subgroupKey } from './keys.js';
import { sigmoid } from './normal.js';
import { type SynthOptions, synthOptionsSchema } from './options.js';
import {
  baseLogits,
  declaredOutcome,
  fitEnsemble,
  fitOutcome,
  logitsOf,
  type OutcomeModel,
  randomOutcome,
} from './outcome-model.js';
import { phaseOneCopula } from './prescriptive.js';
import { generateReferenceCompat } from './reference-compat.js';
import { type SamplingTask, sampleSubgroups } from './sampling-threads.js';
import {
  constraintCondition,
  constraintLatent,
  definePairs,
  type PairDef,
  type SubgroupDef,
  satisfies,
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
  /** Rows generated for it. */
  size: number;
  /** Mean noise-free probability and favourable-label rate of its rows. */
  meanProbability: number;
  favourableRate: number;
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
  /** Per row: the subgroup it was generated for, -1 for background rows. */
  subgroupOf: Int32Array;
  /** Per row: the injected bias β(x) (logit). */
  bias: Float64Array;
  /** Per row: sd of the ensemble members' probabilities (out-of-sample), 0 without ensemble. */
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
 * Refuse options whose table could exceed `MAX_TABLE_VALUES` before any row is drawn: each subgroup
 * holds at most maxGroupSize rows, and background rows are backgroundShare of the whole table.
 */
function checkTableSize(subgroups: number, d: number, o: SynthOptions): void {
  const rows = Math.ceil((subgroups * o.maxGroupSize) / (1 - o.backgroundShare));
  if (rows * d > MAX_TABLE_VALUES) {
    throw new OptionsError(
      'OPTIONS_INVALID',
      `these options allow up to ${rows} rows of ${d} attributes, more than the ${MAX_TABLE_VALUES} values a table may hold: lower maxGroupSize, pairs or backgroundShare`,
      { option: '/maxGroupSize' },
    );
  }
}

/**
 * The counterfactual of input i (see GroundTruth): 0 = the minimum-bias combination, 1 = the
 * maximum-bias one, 2 = the lowest other combination (all equal); +4 when it flips the decision.
 */
function counterfactualPick(eta: number, s: BiasScan, i: number, tau: number): number {
  const beta = s.beta[i]!;
  const dec = eta + beta >= tau;
  if (dec && eta + s.minBeta[i]! < tau) return 4;
  if (!dec && eta + s.maxBeta[i]! >= tau) return 5;
  const dMin = Math.abs(s.minBeta[i]! - beta);
  const dMax = Math.abs(s.maxBeta[i]! - beta);
  if (dMin === 0 && dMax === 0) return 2;
  return dMin > dMax || (dMin === dMax && s.minCombo[i]! < s.maxCombo[i]!) ? 0 : 1;
}

const pickedBeta = (s: BiasScan, i: number, pick: number) =>
  (pick & 3) === 0 ? s.minBeta[i]! : (pick & 3) === 1 ? s.maxBeta[i]! : s.beta[i]!;
const pickedCombo = (s: BiasScan, i: number, pick: number) =>
  (pick & 3) === 0 ? s.minCombo[i]! : (pick & 3) === 1 ? s.maxCombo[i]! : s.otherCombo[i]!;

/** Phase 3: fresh conditional rows per subgroup, then background rows outside every subgroup. */
function populate(
  copula: GaussianCopula,
  subgroups: readonly SubgroupDef[],
  index: BiasIndex,
  o: SynthOptions,
  rng: Rng,
) {
  const d = copula.schema.attributes.length;
  const nSub = subgroups.reduce((s, g) => s + g.size, 0);
  const nBg = Math.round((nSub * o.backgroundShare) / (1 - o.backgroundShare));
  const n = nSub + nBg;
  const x = new Float64Array(n * d);
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
    row += g.size;
    return task;
  });
  const job = {
    seed: o.seed,
    forks: ['rows'],
    correlation: copula.correlation,
    tasks,
  };
  // Background: unconditional draws, kept when outside every subgroup; bounded effort. They need
  // no subgroup row, so the calling thread draws them while helper threads start sampling.
  const background = () => {
    const brng = rng.fork('background');
    let drawn = 0;
    const limit = 50 * nBg + 10_000;
    while (row < n) {
      const want = n - row;
      const batch = Math.min(Math.max(2 * want, 256), limit - drawn);
      if (batch <= 0) {
        throw new OptionsError(
          'OPTIONS_INVALID',
          `the subgroups cover nearly the whole population: only ${row - nSub} of ${nBg} background rows found in ${drawn} draws; lower backgroundShare or use more specific subgroups`,
          { option: '/backgroundShare' },
        );
      }
      const cand = sampleCopula(copula, batch, brng);
      drawn += batch;
      const first = index.firstOf(cand, batch);
      for (let i = 0; i < batch && row < n; i++) {
        if (first[i] !== -1) continue;
        for (let j = 0; j < d; j++) x[row * d + j] = cand[i * d + j]!;
        row++;
      }
    }
  };
  sampleSubgroups(job, x.subarray(0, nSub * d), threadCount(o.threads), background);
  latentToValues(copula, x.subarray(0, nSub * d));
  for (const [t, g] of subgroups.entries()) {
    for (let i = tasks[t]!.row; i < tasks[t]!.row + g.size; i++) {
      owner[i] = g.id;
      // The latent draw lies in the cell; write the value exactly against floating-point edges.
      for (const c of g.constraints) {
        const at = i * d + c.attr;
        if (!satisfies(c, x[at]!)) x[at] = c.lo;
      }
    }
  }
  return { x, owner, n };
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

/** The members of the epistemic ensemble (see `fitEnsemble`). */
function ensemble(copula: GaussianCopula, model: OutcomeModel, o: SynthOptions, erng: Rng): OutcomeModel[] {
  const training = sampleCopula(copula, o.ensembleTrainingRows, erng.fork('data'));
  return fitEnsemble(
    copula,
    model,
    training,
    o.ensembleTrainingRows,
    o.ensembleSize,
    o.ridge,
    erng.fork('fit'),
  );
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
 * 3. fresh rows per subgroup by exact conditional sampling, plus background rows;
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
  const pairs = definePairs(copula, o, rng.fork('pairs'));
  const subgroups = pairs.flatMap((p) => [p.a, p.b]);
  checkTableSize(subgroups.length, d, o);
  const index = new BiasIndex(copula, subgroups, o.maxProtectedCombinations);

  // Phase 3 re-derives this stream from the seed in every thread (see SamplingJob).
  const pop = populate(copula, subgroups, index, o, rng.fork('rows'));
  const n = pop.n;
  let x = pop.x;
  let subgroupOf = pop.owner;
  if (o.shuffle) {
    const perm = rng.fork('shuffle').shuffle(Int32Array.from({ length: n }, (_, i) => i));
    const xs = new Float64Array(n * d);
    const owners = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      const from = perm[i]! * d;
      for (let j = 0; j < d; j++) xs[i * d + j] = x[from + j]!;
      owners[i] = subgroupOf[perm[i]!]!;
    }
    x = xs;
    subgroupOf = owners;
  }

  // Phase 4.
  const model = outcomeModel(copula, o, rng);
  const tau = logit(o.threshold);
  const members = o.ensembleSize > 0 ? ensemble(copula, model, o, rng.fork('ensemble')) : [];
  const [eta, ...memberLogits] = logitsOf(schema, [model, ...members], x, n) as [
    Float64Array,
    ...Float64Array[],
  ];
  const scan = index.scan(x, n);
  const orng = rng.fork('outcome');
  const aleatoricSigma = new Float64Array(n);
  const aleatoricNoise = new Float64Array(n);
  const probability = new Float64Array(n);
  const cfProbability = new Float64Array(n);
  const cfLabel = new Int32Array(n);
  const y = new Int32Array(n);
  const subAleatoric = Float64Array.from(subgroups, (g) => g.aleatoric);
  let noisyLabels = 0;
  for (let i = 0; i < n; i++) {
    const g = subgroupOf[i]!;
    const sa = g >= 0 ? subAleatoric[g]! : orng.uniform(o.minAleatoric, o.maxAleatoric);
    const eps = orng.normal(0, sa);
    const u = orng.next();
    aleatoricSigma[i] = sa;
    aleatoricNoise[i] = eps;
    const p = sigmoid(eta[i]! + scan.beta[i]! + eps);
    const pc = sigmoid(eta[i]! + pickedBeta(scan, i, counterfactualPick(eta[i]!, scan, i, tau)) + eps);
    probability[i] = p;
    cfProbability[i] = pc;
    y[i] = o.labels === 'bernoulli' ? (u < p ? 1 : 0) : p >= o.threshold ? 1 : 0;
    const clean = sigmoid(eta[i]! + scan.beta[i]!);
    if (y[i] !== (o.labels === 'bernoulli' ? (u < clean ? 1 : 0) : clean >= o.threshold ? 1 : 0))
      noisyLabels++;
    cfLabel[i] = o.labels === 'bernoulli' ? (u < pc ? 1 : 0) : pc >= o.threshold ? 1 : 0;
  }
  const epistemicSigma = new Float64Array(n);
  const k = memberLogits.length;
  for (let i = 0; k > 0 && i < n; i++) {
    let sum = 0;
    let sq = 0;
    for (const l of memberLogits) {
      const p = sigmoid(l[i]!);
      sum += p;
      sq += p * p;
    }
    const mean = sum / k;
    epistemicSigma[i] = Math.sqrt(Math.max(sq / k - mean * mean, 0) * (k / Math.max(k - 1, 1)));
  }

  const dataset = createDataset({ schema, x, y, name: `synth(seed=${o.seed})` });
  const truthFns = truthFunctions(schema, model, index, tau);
  const subgroupTruth = summarise(schema, copula, pairs, subgroupOf, eta, scan.beta, y, epistemicSigma);
  return {
    dataset,
    copula,
    options: o,
    truth: {
      ...subgroupTruth,
      subgroupOf,
      bias: scan.beta,
      epistemicSigma,
      aleatoricSigma,
      aleatoricNoise,
      probability,
      counterfactualProbability: cfProbability,
      counterfactualLabel: cfLabel,
      threshold: o.threshold,
      labelNoiseShare: n ? noisyLabels / n : 0,
      model,
      ...truthFns,
    },
  };
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
  subgroupOf: Int32Array,
  eta: Float64Array,
  beta: Float64Array,
  y: Int32Array,
  epistemic: Float64Array,
): { pairs: PairTruth[]; subgroups: SubgroupTruth[] } {
  const G = pairs.length * 2;
  const size = new Float64Array(G);
  const prob = new Float64Array(G);
  const fav = new Float64Array(G);
  const epi = new Float64Array(G);
  for (let i = 0; i < subgroupOf.length; i++) {
    const g = subgroupOf[i]!;
    if (g < 0) continue;
    size[g]!++;
    prob[g]! += sigmoid(eta[i]! + beta[i]!);
    fav[g]! += y[i]!;
    epi[g]! += epistemic[i]!;
  }
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
      meanEpistemicSigma: epi[g.id]! / k,
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
