import { OptionsError, type Rng } from '@fb/core';
import { type PreparedScore, prepareScore, type ScanConfig, type ScanData } from './data.js';
import { createKernel, Grouping, type Kernel, needsRecords } from './kernels.js';
import { Membership } from './membership.js';
import { fitDirection } from './solve.js';
import { AttributeStep, type StepMethod } from './step.js';

/** Per attribute, the allowed value codes in ascending order, or null when the attribute is unconstrained. */
export type ScanSubset = (Int32Array | null)[];

export interface SubsetScore {
  /** Penalised score F(S) − penalty·Σ|V_m| over the constrained attributes. */
  score: number;
  /** The fitted free parameter t (ln q, or the mean shift μ for the Gaussian). */
  t: number;
  /**
   * The parameter as reported: q = eᵗ (Bernoulli, Poisson), the subgroup's proportion under H₁
   * (Berk-Jones), or μ (Gaussian).
   */
  parameter: number;
  size: number;
  /** Sums of the raw observations and expectations over the subset. */
  observedSum: number;
  expectedSum: number;
}

export interface ScanResult extends SubsetScore {
  /** The best subset; an attribute whose every value present in the data is allowed is reported unconstrained. */
  subset: ScanSubset;
  /** Iterations run (the last one possibly interrupted). */
  iterationsRun: number;
  /** False when `shouldStop` interrupted the scan. */
  complete: boolean;
}

/** A solved step: its choice of values for the attribute and its unpenalised-elsewhere score. */
interface SolvedStep {
  all: boolean;
  values: Int32Array;
  score: number;
}

/** A random starting subset keeps an attribute's constraint only if this many records remain. */
export const MIN_START_RECORDS = 10;

/** Relative score gain below which a step does not mark the attributes unscanned again. */
const IMPROVEMENT_EPS = 1e-9;

function reportedParameter(prepared: PreparedScore, t: number): number {
  if (prepared.score === 'gaussian') return t;
  if (prepared.score === 'berk-jones') {
    const a = prepared.alpha * Math.exp(t);
    return a / (1 - prepared.alpha + a);
  }
  return Math.exp(t);
}

/** Choose each attribute's step method, rejecting a prefix scan where it would not be exact. */
function stepMethods(config: ScanConfig, kernel: Kernel, attributes: number): StepMethod[] {
  const requested = config.stepMethod ?? 'auto';
  const prefixExact = kernel.priority(0) !== null && config.penalty === 0;
  if (requested === 'prefix' && !prefixExact) {
    throw new OptionsError(
      'OPTIONS_INVALID',
      'stepMethod "prefix" is exact only for the Poisson, Gaussian and Berk-Jones scores with penalty 0',
      { option: '/stepMethod' },
    );
  }
  const free: StepMethod = requested === 'intervals' || !prefixExact ? 'intervals' : 'prefix';
  return Array.from({ length: attributes }, (_, m) => (config.contiguous?.[m] ? 'contiguous' : free));
}

/**
 * The multidimensional fast subset scan (seed 003, Algorithm 1; Speakman et al. 2016): `iterations`
 * runs of coordinate ascent over attributes, the first from all records and the others from random
 * subsets, each attribute step solved exactly. Run iterations one at a time with `runIteration` to
 * yield between them; `scanSubsets` runs them all.
 *
 * Membership is kept as bitsets (`Membership`), so a step costs an AND of the other attributes'
 * words, one visit of each record matching them, and the score evaluations of that attribute's values.
 */
export class SubsetScan {
  readonly prepared: PreparedScore;
  private readonly n: number;
  private readonly nAttr: number;
  private readonly presentValues: Int32Array[];
  /** Per attribute, 1 for each allowed code (all ones when unconstrained). */
  private readonly allowed: Uint8Array[];
  /** Per attribute, the number of allowed codes, or 0 when unconstrained. */
  private readonly allowedCount: Int32Array;
  /** The records each constraint allows. */
  private readonly membership: Membership;
  private readonly members: Int32Array;
  private readonly grouping: Grouping;
  /**
   * Whether a step reads the relaxed members' records and expectation sums (Bernoulli, Poisson); the
   * Gaussian and Berk-Jones kernels read only the counts and value sums.
   */
  private readonly full: boolean;
  private readonly kernel: Kernel;
  private readonly step: AttributeStep;
  private readonly methods: StepMethod[];
  /**
   * Per attribute, the number of its current constraint among the distinct ones it has had (0:
   * unconstrained), and those constraints by their mask.
   */
  private readonly constraintIds: Int32Array;
  private readonly constraintIndex: Map<string, number>[];
  /**
   * The steps solved so far, by attribute and the other attributes' constraints. A step depends on
   * nothing else (its records are those matching every other constraint), so a step met again, as
   * the restarts often do near the same optimum, is not solved again.
   */
  private readonly steps = new Map<string, SolvedStep>();
  private iteration = 0;
  private interrupted = false;
  private bestScore = Number.NEGATIVE_INFINITY;
  private bestSubset: ScanSubset | null = null;
  /** The best subset's records (every constraint's bits ANDed), or null before the first iteration. */
  private bestBits: Int32Array | null = null;
  private bestUpdates = 0;

  constructor(
    private readonly data: ScanData,
    private readonly config: ScanConfig,
    private readonly rng: Rng,
  ) {
    this.prepared = prepareScore(data, config);
    this.n = this.prepared.n;
    this.nAttr = data.codes.length;
    const maxArity = Math.max(1, ...data.arity);
    this.presentValues = data.codes.map((c, m) => {
      const seen = new Uint8Array(data.arity[m]!);
      for (let i = 0; i < c.length; i++) seen[c[i]!] = 1;
      const out: number[] = [];
      seen.forEach((s, v) => {
        if (s) out.push(v);
      });
      return Int32Array.from(out);
    });
    this.allowed = data.arity.map((k) => new Uint8Array(k).fill(1));
    this.allowedCount = new Int32Array(this.nAttr);
    this.membership = new Membership(data.codes, data.arity, this.n);
    this.members = new Int32Array(this.n);
    this.grouping = new Grouping(this.prepared, maxArity, needsRecords(this.prepared));
    this.full = needsRecords(this.prepared) || this.prepared.score === 'poisson';
    this.kernel = createKernel(this.grouping, this.prepared, maxArity);
    this.step = new AttributeStep(this.grouping, this.kernel, config.direction, config.penalty, maxArity);
    this.methods = stepMethods(config, this.kernel, this.nAttr);
    this.constraintIds = new Int32Array(this.nAttr);
    this.constraintIndex = data.arity.map(() => new Map<string, number>());
  }

  get iterationsRun(): number {
    return this.iteration;
  }

  /**
   * How many times an iteration has improved the best subset so far: `result()` changes only when
   * this does (a caller that reads it after every iteration can skip the unchanged ones).
   */
  get improvements(): number {
    return this.bestUpdates;
  }

  /**
   * An upper bound on the penalised score of any subset (`result().score` can never exceed it),
   * computed without scanning: for the Gaussian score, F of the best set of records in the scanned
   * direction, subgroup or not (the mean-shift score of a set depends only on its size and sum, so
   * the best set of each size holds the largest values), allowing for rounding; Infinity for the
   * other scores. A caller asking only whether the scan can reach a score may skip the scan when
   * this bound is below it.
   */
  scoreBound(): number {
    const { score, values, variance, n } = this.prepared;
    if (score !== 'gaussian') return Number.POSITIVE_INFINITY;
    const sign = this.config.direction === 'positive' ? 1 : -1;
    const sorted = new Float64Array(n);
    for (let i = 0; i < n; i++) sorted[i] = -sign * values[i]!;
    sorted.sort();
    let sum = 0;
    let best = 0;
    for (let k = 1; k <= n; k++) {
      sum -= sorted[k - 1]!;
      if (!(sum > 0)) break;
      best = Math.max(best, (sum * sum) / k);
    }
    // The scan's own arithmetic differs from this one by rounding only.
    return (best / (2 * variance)) * (1 + 1e-9) + 1e-9;
  }

  get finished(): boolean {
    return this.interrupted || this.iteration >= this.config.iterations;
  }

  /**
   * Run the next iteration. `shouldStop` is asked before every attribute step; when it says stop the
   * iteration ends early (its subset so far still competes for the best) and false is returned.
   */
  runIteration(shouldStop?: () => boolean): boolean {
    if (this.finished) return !this.interrupted;
    const rng = this.rng.fork(`iteration-${this.iteration}`);
    const m = this.nAttr;
    for (const a of this.allowed) a.fill(1);
    this.allowedCount.fill(0);
    this.constraintIds.fill(0);
    this.membership.reset();
    if (this.iteration > 0) this.randomStart(rng);
    let current = this.scoreMembers();
    const scanned = new Uint8Array(m);
    let nScanned = 0;
    while (nScanned < m) {
      if (shouldStop?.()) {
        this.interrupted = true;
        break;
      }
      let k = rng.int(0, m - nScanned - 1);
      let attr = 0;
      for (; attr < m; attr++) if (!scanned[attr] && k-- === 0) break;
      const next = this.scanAttribute(attr);
      if (next > current + IMPROVEMENT_EPS * Math.max(1, Math.abs(current))) {
        scanned.fill(0);
        nScanned = 0;
      }
      scanned[attr] = 1;
      nScanned++;
      current = next;
    }
    this.iteration++;
    if (current > this.bestScore) {
      this.bestScore = current;
      this.bestSubset = this.snapshot();
      this.bestBits = this.membership.matching(-1).slice();
      this.bestUpdates++;
    }
    return !this.interrupted;
  }

  /** The best subset over the iterations run so far, scored exactly. */
  result(): ScanResult {
    const subset = this.bestSubset ?? new Array<Int32Array | null>(this.nAttr).fill(null);
    return {
      subset,
      ...scorePrepared(
        this.data,
        this.prepared,
        this.config,
        subset,
        this.bestBits === null ? subsetMembers(this.data, this.n, subset) : bitMembers(this.bestBits, this.n),
      ),
      iterationsRun: this.iteration,
      complete: !this.interrupted && this.iteration >= this.config.iterations,
    };
  }

  /** Copy of the current constraints, with "every present value allowed" canonicalised to unconstrained. */
  private snapshot(): ScanSubset {
    return this.allowed.map((mask, m) => {
      if (this.allowedCount[m] === 0) return null;
      const present = this.presentValues[m]!;
      if (present.every((v) => mask[v] === 1)) return null;
      const vals: number[] = [];
      mask.forEach((on, v) => {
        if (on) vals.push(v);
      });
      return Int32Array.from(vals);
    });
  }

  /** Random start: attributes in random order, each value kept with one shared probability r ~ U(0, 1). */
  private randomStart(rng: Rng): void {
    const r = rng.next();
    const order = rng.shuffle(Int32Array.from({ length: this.nAttr }, (_, i) => i));
    for (const m of order) {
      const present = this.presentValues[m]!;
      const mask = new Uint8Array(this.data.arity[m]!);
      let kept = 0;
      for (const v of present) {
        if (rng.next() < r) {
          mask[v] = 1;
          kept++;
        }
      }
      if (kept === present.length) continue;
      this.constrain(m, mask, kept);
      if (this.membership.count() < MIN_START_RECORDS) this.constrain(m, null, 0);
    }
  }

  /** Set attribute m's constraint (null: unconstrained). */
  private constrain(m: number, next: Uint8Array | null, count: number): void {
    const allowed = this.allowed[m]!;
    const before = allowed.slice();
    if (next === null) allowed.fill(1);
    else allowed.set(next);
    this.allowedCount[m] = next === null ? 0 : count;
    this.constraintIds[m] = next === null ? 0 : this.constraintId(m, allowed);
    // A step that keeps the attribute's values (the last sweep of every ascent) changes no record.
    let changed = false;
    for (let v = 0; v < allowed.length && !changed; v++) changed = before[v] !== allowed[v];
    if (changed) this.membership.set(m, next === null ? null : allowed);
  }

  /**
   * Group the records that match every constraint except attribute m's by their value of m, in
   * ascending record order. Returns how many there are.
   */
  private gather(m: number): number {
    const g = this.grouping;
    g.reset(this.data.arity[m]!);
    const { counts, sumValues, sumExpected } = g;
    const { values, expected } = this.prepared;
    const codes = this.data.codes[m]!;
    const members = this.members;
    const full = this.full;
    const bits = this.membership.matching(m);
    let count = 0;
    for (let w = 0, words = this.membership.words; w < words; w++) {
      let word = bits[w]!;
      while (word !== 0) {
        const i = (w << 5) | (31 - Math.clz32(word & -word));
        word &= word - 1;
        const c = codes[i]!;
        counts[c]!++;
        sumValues[c]! += values[i]!;
        if (full) {
          members[count] = i;
          sumExpected[c]! += expected[i]!;
        }
        count++;
      }
    }
    g.finish(members, count, codes);
    return count;
  }

  private otherPenalty(skip: number): number {
    let c = 0;
    for (let m = 0; m < this.nAttr; m++) if (m !== skip) c += this.allowedCount[m]!;
    return this.config.penalty * c;
  }

  /** Penalised score of the current members at their direction-constrained maximum. */
  private scoreMembers(): number {
    this.gather(0);
    const allowed = this.allowed[0]!;
    const chosen: number[] = [];
    for (let v = 0; v < this.grouping.k; v++) if (allowed[v] === 1) chosen.push(v);
    this.kernel.select(Int32Array.from(chosen), chosen.length);
    return fitDirection(this.kernel, this.config.direction).f - this.otherPenalty(-1);
  }

  /** The number of attribute m's constraint `mask` among the distinct ones it has had (from 1). */
  private constraintId(m: number, mask: Uint8Array): number {
    const index = this.constraintIndex[m]!;
    let key = '';
    for (let v = 0; v < mask.length; v += 4096)
      key += String.fromCharCode(...mask.subarray(v, Math.min(mask.length, v + 4096)));
    let id = index.get(key);
    if (id === undefined) {
      id = index.size + 1;
      index.set(key, id);
    }
    return id;
  }

  /** One coordinate-ascent step on attribute m; returns the new subset's penalised score. */
  private scanAttribute(m: number): number {
    let key = `${m}`;
    for (let a = 0; a < this.nAttr; a++) key += a === m ? '|' : `|${this.constraintIds[a]}`;
    let solved = this.steps.get(key);
    if (solved === undefined) {
      this.gather(m);
      const choice = this.step.solve(this.methods[m]!);
      solved = { all: choice.all, values: choice.values.slice(0, choice.count), score: choice.score };
      this.steps.set(key, solved);
    }
    const mask = new Uint8Array(this.data.arity[m]!);
    for (let j = 0; j < solved.values.length; j++) mask[solved.values[j]!] = 1;
    this.constrain(m, solved.all ? null : mask, solved.values.length);
    return solved.score - this.otherPenalty(m);
  }
}

/** The records of `subset`, in ascending order (the first `size` of `members`). */
function subsetMembers(data: ScanData, n: number, subset: ScanSubset): { members: Int32Array; size: number } {
  const masks = subset.map((vals, m) => {
    if (vals === null) return null;
    const mask = new Uint8Array(data.arity[m]!);
    for (const v of vals) mask[v] = 1;
    return mask;
  });
  const members = new Int32Array(n);
  let size = 0;
  for (let i = 0; i < n; i++) {
    let member = true;
    for (let m = 0; m < masks.length && member; m++) {
      const mask = masks[m];
      if (mask && mask[data.codes[m]![i]!] !== 1) member = false;
    }
    if (member) members[size++] = i;
  }
  return { members, size };
}

/** The records whose bits are set, in ascending order (the first `size` of `members`). */
function bitMembers(bits: Int32Array, n: number): { members: Int32Array; size: number } {
  const members = new Int32Array(n);
  let size = 0;
  for (let w = 0; w < bits.length; w++) {
    let word = bits[w]!;
    while (word !== 0) {
      members[size++] = (w << 5) | (31 - Math.clz32(word & -word));
      word &= word - 1;
    }
  }
  return { members, size };
}

/** Score the records `members[0..size)` (ascending) of `subset`. */
function scorePrepared(
  data: ScanData,
  prepared: PreparedScore,
  config: Pick<ScanConfig, 'direction' | 'penalty'>,
  subset: ScanSubset,
  { members, size }: { members: Int32Array; size: number },
): SubsetScore {
  const grouping = new Grouping(prepared, 1, needsRecords(prepared));
  grouping.reset(1);
  let observedSum = 0;
  let expectedSum = 0;
  for (let k = 0; k < size; k++) {
    const i = members[k]!;
    observedSum += data.observed[i]!;
    expectedSum += data.expected[i]!;
    grouping.sumValues[0]! += prepared.values[i]!;
    grouping.sumExpected[0]! += prepared.expected[i]!;
  }
  grouping.counts[0] = size;
  grouping.finish(members, size, null);
  const kernel = createKernel(grouping, prepared, 1);
  kernel.select(Int32Array.of(0), 1);
  const fit = fitDirection(kernel, config.direction);
  const penaltyCount = subset.reduce((s, v) => s + (v?.length ?? 0), 0);
  return {
    score: fit.f - config.penalty * penaltyCount,
    t: fit.t,
    parameter: reportedParameter(prepared, fit.t),
    size,
    observedSum,
    expectedSum,
  };
}

/**
 * Score a given subset deterministically (no search, no randomness): its size, sums, fitted parameter
 * in `config.direction` and penalised score F(S) − penalty·Σ|V_m|.
 */
export function scoreSubset(data: ScanData, subset: ScanSubset, config: ScanConfig): SubsetScore {
  const prepared = prepareScore(data, config);
  return scorePrepared(data, prepared, config, subset, subsetMembers(data, prepared.n, subset));
}

/**
 * Scan for the subset with the highest penalised score in `config.direction`. Draws all randomness
 * from `rng`. When `shouldStop` says stop, returns the best so far with `complete: false`.
 */
export function scanSubsets(
  data: ScanData,
  config: ScanConfig,
  rng: Rng,
  shouldStop?: () => boolean,
): ScanResult {
  const scan = new SubsetScan(data, config, rng);
  while (!scan.finished) scan.runIteration(shouldStop);
  return scan.result();
}
