import { DataError, OptionsError, type Rng } from '@fb/core';
import {
  maximizeQ,
  positiveInterval,
  roundScore,
  type ScanDirection,
  type Scoring,
  scoreEvaluator,
} from './scoring.js';

/** Records as value codes per attribute: the search space of the scan. */
export interface ScanCoordinates {
  /** Number of records. */
  readonly n: number;
  /** Per attribute, the value code (0..arity−1) of each record. */
  readonly codes: readonly Int32Array[];
  /** Per attribute, the number of value codes. */
  readonly arity: readonly number[];
}

export interface ScanOptions {
  scoring: Scoring;
  direction: ScanDirection;
  /** Restarts of the coordinate ascent; restart 0 starts from the whole population. */
  numIters: number;
  /** Cost per value of each constrained attribute. */
  penalty: number;
}

/** Per attribute, the allowed value codes in ascending order, or null when the attribute is unconstrained. */
export type ScanSubset = (Int32Array | null)[];

export interface ScanResult {
  /** The best subset; an attribute whose every present value is allowed is reported unconstrained. */
  subset: ScanSubset;
  /** Its penalised score F(q̂) − penalty·Σ|V_m|, rounded to 4 decimals. */
  score: number;
  /** Its q̂ (1 when the subset does not deviate in the scanned direction). */
  q: number;
  size: number;
  observedSum: number;
  expectedSum: number;
  /** Restarts run (the last one possibly interrupted). */
  restarts: number;
  /** False when `shouldStop` interrupted the scan. */
  complete: boolean;
}

/** A random starting subset keeps an attribute's constraint only if this many records remain. */
export const MIN_START_RECORDS = 10;
/** Improvement below which an attribute step does not reset the visited flags. */
const IMPROVEMENT_EPS = 1e-6;

/** Throws a typed error when the scan inputs do not fit together. */
export function checkScanInput(
  coordinates: ScanCoordinates,
  expectations: Float64Array,
  outcomes: Float64Array,
  options: ScanOptions,
): void {
  const { n, codes, arity } = coordinates;
  if (codes.length === 0 || codes.length !== arity.length) {
    throw new DataError(
      'DATA_SHAPE',
      `the scan needs one code array and one arity per attribute (got ${codes.length} and ${arity.length})`,
    );
  }
  if (expectations.length !== n || outcomes.length !== n) {
    throw new DataError(
      'DATA_SHAPE',
      `${n} records but ${expectations.length} expectations and ${outcomes.length} outcomes`,
    );
  }
  codes.forEach((c, m) => {
    const k = arity[m]!;
    if (c.length !== n)
      throw new DataError('DATA_SHAPE', `attribute ${m} has ${c.length} codes for ${n} records`);
    for (let i = 0; i < n; i++) {
      if (!(c[i]! >= 0 && c[i]! < k)) {
        throw new DataError(
          'DATA_OUT_OF_DOMAIN',
          `attribute ${m}, record ${i}: code ${c[i]} is not in 0..${k - 1}`,
          { row: i },
        );
      }
    }
  });
  const maxP = options.scoring === 'bernoulli' ? 1 : Number.POSITIVE_INFINITY;
  for (let i = 0; i < n; i++) {
    const p = expectations[i]!;
    if (!(p >= 0 && p <= maxP)) {
      throw new DataError('DATA_OUT_OF_DOMAIN', `record ${i}: expectation ${p} is not in [0, ${maxP}]`, {
        row: i,
      });
    }
    if (!Number.isFinite(outcomes[i]!)) {
      throw new DataError('DATA_NOT_FINITE', `record ${i}: outcome ${outcomes[i]} is not finite`, { row: i });
    }
  }
  if (!(Number.isInteger(options.numIters) && options.numIters >= 1)) {
    throw new OptionsError(
      'OPTIONS_INVALID',
      `numIters must be a positive integer, got ${options.numIters}`,
      {
        option: '/numIters',
      },
    );
  }
  if (!(options.penalty >= 0 && Number.isFinite(options.penalty))) {
    throw new OptionsError('OPTIONS_INVALID', `penalty must be finite and >= 0, got ${options.penalty}`, {
      option: '/penalty',
    });
  }
}

/**
 * One MDSS scan (Speakman et al. 2016, penalised fast subset scanning): `numIters` restarts of
 * coordinate ascent over attributes, each attribute step solved exactly by ALTSS. Restarts are run one
 * at a time with `runRestart` so that a caller can yield between them; `scanSubsets` runs them all.
 *
 * Membership is kept as a per-record count of violated constraints, so each attribute step costs two
 * passes over the records plus the score evaluations.
 */
export class SubsetScan {
  private readonly n: number;
  private readonly nAttr: number;
  private readonly codes: readonly Int32Array[];
  private readonly arity: readonly number[];
  private readonly presentValues: Int32Array[];
  private readonly allowed: (Uint8Array | null)[];
  private readonly allowedCount: Int32Array;
  private readonly violations: Uint16Array;
  private readonly grouped: Float64Array;
  private readonly union: Float64Array;
  private readonly counts: Int32Array;
  private readonly offsets: Int32Array;
  private readonly groupY: Float64Array;
  private readonly qMin: Float64Array;
  private readonly qMax: Float64Array;
  private readonly positive: Uint8Array;
  private restart = 0;
  private interrupted = false;
  private bestScore = Number.NEGATIVE_INFINITY;
  private bestSubset: ScanSubset | null = null;

  constructor(
    coordinates: ScanCoordinates,
    private readonly expectations: Float64Array,
    private readonly outcomes: Float64Array,
    private readonly options: ScanOptions,
    private readonly rng: Rng,
  ) {
    checkScanInput(coordinates, expectations, outcomes, options);
    this.n = coordinates.n;
    this.codes = coordinates.codes;
    this.arity = coordinates.arity;
    this.nAttr = this.codes.length;
    if (this.nAttr > 0xffff)
      throw new DataError('DATA_SHAPE', `at most 65535 attributes can be scanned, got ${this.nAttr}`);
    const maxArity = Math.max(...this.arity);
    this.presentValues = this.codes.map((c, m) => {
      const seen = new Uint8Array(this.arity[m]!);
      for (let i = 0; i < c.length; i++) seen[c[i]!] = 1;
      const out: number[] = [];
      seen.forEach((s, v) => {
        if (s) out.push(v);
      });
      return Int32Array.from(out);
    });
    this.allowed = new Array(this.nAttr).fill(null);
    this.allowedCount = new Int32Array(this.nAttr);
    this.violations = new Uint16Array(this.n);
    this.grouped = new Float64Array(this.n);
    this.union = new Float64Array(this.n);
    this.counts = new Int32Array(maxArity);
    this.offsets = new Int32Array(maxArity + 1);
    this.groupY = new Float64Array(maxArity);
    this.qMin = new Float64Array(maxArity);
    this.qMax = new Float64Array(maxArity);
    this.positive = new Uint8Array(maxArity);
  }

  get restartsDone(): number {
    return this.restart;
  }

  get finished(): boolean {
    return this.interrupted || this.restart >= this.options.numIters;
  }

  /**
   * Run the next restart. `shouldStop` is asked before every attribute step; when it says stop the
   * restart ends early (its subset so far still competes for the best) and false is returned.
   */
  runRestart(shouldStop?: () => boolean): boolean {
    if (this.finished) return !this.interrupted;
    const rng = this.rng.fork(`restart-${this.restart}`);
    const m = this.nAttr;
    this.allowed.fill(null);
    this.allowedCount.fill(0);
    this.violations.fill(0);
    if (this.restart > 0) this.randomStart(rng);
    let current = this.scoreCurrent();
    const visited = new Uint8Array(m);
    let nVisited = 0;
    while (nVisited < m) {
      if (shouldStop?.()) {
        this.interrupted = true;
        break;
      }
      let k = rng.int(0, m - nVisited - 1);
      let attr = 0;
      for (; attr < m; attr++) if (!visited[attr] && k-- === 0) break;
      const next = this.step(attr);
      if (next > current + IMPROVEMENT_EPS) {
        visited.fill(0);
        nVisited = 0;
      }
      visited[attr] = 1;
      nVisited++;
      current = next;
    }
    this.restart++;
    if (current > this.bestScore) {
      this.bestScore = current;
      this.bestSubset = this.snapshot();
    }
    return !this.interrupted;
  }

  /** The best subset over the restarts run so far, with its statistics. */
  result(): ScanResult {
    const subset = this.bestSubset ?? new Array<Int32Array | null>(this.nAttr).fill(null);
    const scored = scoreSubset(
      { n: this.n, codes: this.codes, arity: this.arity },
      this.expectations,
      this.outcomes,
      subset,
      this.options,
    );
    return {
      subset,
      ...scored,
      // The scan's own score: the same statistic, summed in the order the search met the records.
      score: this.bestSubset ? this.bestScore : scored.score,
      restarts: this.restart,
      complete: !this.interrupted && this.restart >= this.options.numIters,
    };
  }

  /** Copy of the current constraints, with "every present value allowed" canonicalised to unconstrained. */
  private snapshot(): ScanSubset {
    return this.allowed.map((mask, m) => {
      if (mask === null) return null;
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
      const mask = new Uint8Array(this.arity[m]!);
      let kept = 0;
      for (const v of present) {
        if (rng.next() < r) {
          mask[v] = 1;
          kept++;
        }
      }
      if (kept === present.length) continue;
      this.constrain(m, mask, kept);
      if (this.countMatching() < MIN_START_RECORDS) this.constrain(m, null, 0);
    }
  }

  private countMatching(): number {
    let c = 0;
    for (let i = 0; i < this.n; i++) if (this.violations[i] === 0) c++;
    return c;
  }

  /** Replace attribute m's constraint, keeping the per-record violation counts up to date. */
  private constrain(m: number, next: Uint8Array | null, count: number): void {
    const prev = this.allowed[m]!;
    const codes = this.codes[m]!;
    const viol = this.violations;
    if (prev !== null || next !== null) {
      for (let i = 0; i < this.n; i++) {
        const c = codes[i]!;
        const was = prev !== null && prev[c] === 0 ? 1 : 0;
        const now = next !== null && next[c] === 0 ? 1 : 0;
        viol[i] += now - was;
      }
    }
    this.allowed[m] = next;
    this.allowedCount[m] = count;
  }

  private totalPenalty(): number {
    let c = 0;
    for (let m = 0; m < this.nAttr; m++) c += this.allowedCount[m]!;
    return this.options.penalty * c;
  }

  /** Penalised, rounded score of the current subset at its q̂. */
  private scoreCurrent(): number {
    let len = 0;
    let y = 0;
    for (let i = 0; i < this.n; i++) {
      if (this.violations[i] !== 0) continue;
      this.grouped[len++] = this.expectations[i]!;
      y += this.outcomes[i]!;
    }
    const ev = scoreEvaluator(this.options.scoring, y, this.grouped.subarray(0, len));
    const q = maximizeQ(ev, this.options.direction);
    return roundScore(ev.f(q) - this.totalPenalty());
  }

  /**
   * One coordinate-ascent step: drop attribute m's constraint, choose its best value set by ALTSS and
   * return the new subset's full penalised score.
   */
  private step(m: number): number {
    this.constrain(m, null, 0);
    const k = this.arity[m]!;
    const total = this.groupByValue(m);
    const { scoring, direction, penalty } = this.options;
    const { counts, offsets, groupY, qMin, qMax, positive, grouped } = this;

    // Per value: where its own score (with a one-value penalty) is positive.
    const thresholds: number[] = [];
    for (let v = 0; v < k; v++) {
      positive[v] = 0;
      if (counts[v] === 0) continue;
      const ev = scoreEvaluator(scoring, groupY[v]!, grouped.subarray(offsets[v]!, offsets[v + 1]!));
      const iv = positiveInterval(ev, penalty, direction);
      if (iv === null) continue;
      positive[v] = 1;
      qMin[v] = iv.qMin;
      qMax[v] = iv.qMax;
      thresholds.push(iv.qMin, iv.qMax);
    }
    const sorted = Float64Array.from(new Set(thresholds)).sort();

    // Between consecutive thresholds the set of positively contributing values is constant: score each such union.
    let best = 0;
    let bestRaw = 0;
    let bestMid = Number.NaN;
    let bestCount = 0;
    for (let t = 0; t + 1 < sorted.length; t++) {
      const mid = (sorted[t]! + sorted[t + 1]!) / 2;
      let len = 0;
      let y = 0;
      let names = 0;
      for (let v = 0; v < k; v++) {
        if (!positive[v] || !(qMin[v]! < mid && qMax[v]! > mid)) continue;
        this.union.set(grouped.subarray(offsets[v]!, offsets[v + 1]!), len);
        len += counts[v]!;
        y += groupY[v]!;
        names++;
      }
      if (len === 0) continue;
      const ev = scoreEvaluator(scoring, y, this.union.subarray(0, len));
      const raw = ev.f(maximizeQ(ev, direction));
      const s = raw - penalty * names;
      if (s > best) {
        best = s;
        bestRaw = raw;
        bestMid = mid;
        bestCount = names;
      }
    }

    // "All values" leaves the attribute unconstrained, at no penalty.
    let y = 0;
    for (let v = 0; v < k; v++) y += groupY[v]!;
    const evAll = scoreEvaluator(scoring, y, grouped.subarray(0, total));
    const rawAll = evAll.f(maximizeQ(evAll, direction));
    if (Number.isNaN(bestMid) || rawAll > best) {
      return roundScore(rawAll - this.totalPenalty());
    }
    const mask = new Uint8Array(k);
    for (let v = 0; v < k; v++) if (positive[v] && qMin[v]! < bestMid && qMax[v]! > bestMid) mask[v] = 1;
    this.constrain(m, mask, bestCount);
    return roundScore(bestRaw - this.totalPenalty());
  }

  /**
   * Counting sort of the expectations of the records matching every constraint, by their value of
   * attribute m: value v's records land in grouped[offsets[v] .. offsets[v+1]). Returns their number.
   */
  private groupByValue(m: number): number {
    const k = this.arity[m]!;
    const codes = this.codes[m]!;
    const { counts, offsets, groupY, violations, outcomes, expectations, grouped } = this;
    counts.fill(0, 0, k);
    groupY.fill(0, 0, k);
    for (let i = 0; i < this.n; i++) {
      if (violations[i] !== 0) continue;
      const v = codes[i]!;
      counts[v]!++;
      groupY[v]! += outcomes[i]!;
    }
    offsets[0] = 0;
    for (let v = 0; v < k; v++) offsets[v + 1] = offsets[v]! + counts[v]!;
    const cursor = this.counts.slice(0, k);
    for (let v = 0; v < k; v++) cursor[v] = offsets[v]!;
    for (let i = 0; i < this.n; i++) {
      if (violations[i] !== 0) continue;
      grouped[cursor[codes[i]!]!++] = expectations[i]!;
    }
    return offsets[k]!;
  }
}

/**
 * Score a given subset deterministically (no search, no randomness): its size, observed and expected
 * sums, q̂ in `options.direction` and penalised score F(q̂) − penalty·Σ|V_m|, rounded to 4 decimals.
 */
export function scoreSubset(
  coordinates: ScanCoordinates,
  expectations: Float64Array,
  outcomes: Float64Array,
  subset: ScanSubset,
  options: Pick<ScanOptions, 'scoring' | 'direction' | 'penalty'>,
): Omit<ScanResult, 'subset' | 'restarts' | 'complete'> {
  const { n, codes, arity } = coordinates;
  const masks = subset.map((vals, m) => {
    if (vals === null) return null;
    const mask = new Uint8Array(arity[m]!);
    for (const v of vals) mask[v] = 1;
    return mask;
  });
  const members = new Float64Array(n);
  let size = 0;
  let observedSum = 0;
  let expectedSum = 0;
  for (let i = 0; i < n; i++) {
    let member = true;
    for (let m = 0; m < masks.length && member; m++) {
      const mask = masks[m];
      if (mask && mask[codes[m]![i]!] !== 1) member = false;
    }
    if (!member) continue;
    members[size++] = expectations[i]!;
    observedSum += outcomes[i]!;
    expectedSum += expectations[i]!;
  }
  const ev = scoreEvaluator(options.scoring, observedSum, members.subarray(0, size));
  const q = maximizeQ(ev, options.direction);
  const penaltyCount = subset.reduce((s, v) => s + (v?.length ?? 0), 0);
  return { score: roundScore(ev.f(q) - options.penalty * penaltyCount), q, size, observedSum, expectedSum };
}

/**
 * Scan for the subset with the highest penalised score in `options.direction`: the MDSS search
 * (AIF360's `MDSS.scan`) on coded coordinates. Draws all randomness from `rng`. When `shouldStop`
 * says stop, returns the best so far with `complete: false`.
 */
export function scanSubsets(
  coordinates: ScanCoordinates,
  expectations: Float64Array,
  outcomes: Float64Array,
  options: ScanOptions,
  rng: Rng,
  shouldStop?: () => boolean,
): ScanResult {
  const scan = new SubsetScan(coordinates, expectations, outcomes, options, rng);
  while (!scan.finished) scan.runRestart(shouldStop);
  return scan.result();
}
