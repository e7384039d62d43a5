import type { CountingClassifier } from './classifier.js';
import { DataError, ModelError, OptionsError } from './errors.js';
import { ProtectedVariants, type VariantMode } from './protected-variants.js';
import type { AttributeValueCount, DiscriminatoryPair, IndividualFindings } from './result-types.js';
import { GrowableArray, RowIndex } from './row-index.js';
import type { RunController } from './run-control.js';
import { type Attribute, bounds, inDomain, type Schema, valueLabel } from './schema.js';

/**
 * Seconds to build and validate one stored pair of the result: 12 us measured on a loaded two-core
 * machine (100,000 pairs of 13 attributes: 0.79 s building, 0.47 s validating), with margin.
 */
const RESULT_SECONDS_PER_PAIR = 15e-6;

/**
 * The resolution at which two values of an attribute are the same tested input: 1 for category
 * codes, `step` for a grid, and for a continuous attribute without step the power of ten
 * 10^(⌊log₁₀(max − min)⌋ − 3), which cuts its range into 1,000 to 10,000 cells (0.1 for a range of
 * 100, 1,000 for a range of 1.5 million).
 */
export function keyResolution(a: Attribute): number {
  if (a.categories) return 1;
  if (a.step !== undefined) return a.step;
  const [lo, hi] = bounds(a);
  const range = hi - lo;
  return range > 0 && Number.isFinite(range) ? 10 ** (Math.floor(Math.log10(range)) - 3) : 1;
}

/**
 * The key of a tested sample, as `CounterfactualChecker` keys it: the input's non-protected values
 * (in schema order), each as its cell index `round((v - min) / keyResolution)`. Two inputs with the
 * same key are one tested sample. A method that keeps its own record of what it has submitted keys
 * it with this, so that its counts agree with the checker's TSN.
 */
export class TestedSampleKey {
  /** Positions of the non-protected attributes, the ones the key is made of. */
  readonly nonProtected: Int32Array;
  /** Per non-protected attribute: its lower bound and key resolution. */
  private readonly origin: Float64Array;
  private readonly cell: Float64Array;
  private readonly scratch: Float64Array;

  constructor(schema: Schema) {
    const attrs = schema.attributes;
    this.nonProtected = Int32Array.from(attrs.map((a, j) => (a.protected ? -1 : j)).filter((j) => j >= 0));
    this.origin = Float64Array.from(this.nonProtected, (j) => bounds(attrs[j]!)[0]);
    this.cell = Float64Array.from(this.nonProtected, (j) => keyResolution(attrs[j]!));
    this.scratch = new Float64Array(this.nonProtected.length);
  }

  /** Values in a key. */
  get width(): number {
    return this.nonProtected.length;
  }

  /**
   * The key of the input at `x[off..]` (a full row, protected values included), written into one
   * scratch row that the next call overwrites.
   */
  of(x: ArrayLike<number>, off: number): Float64Array {
    const { nonProtected, origin, cell, scratch } = this;
    for (let k = 0; k < nonProtected.length; k++) {
      scratch[k] = Math.round((x[off + nonProtected[k]!]! - origin[k]!) / cell[k]!);
    }
    return scratch;
  }
}

/** Outcome of checking one row of a batch. */
export const CheckStatus = {
  /** Not checked: the tested-sample or query budget ran out. */
  Skipped: -1,
  Fair: 0,
  Discriminatory: 1,
} as const;
export type CheckStatus = (typeof CheckStatus)[keyof typeof CheckStatus];

export interface BatchCheck {
  /** Per row: -1 skipped (budget), 0 no decision change, 1 discriminatory. */
  status: Int8Array;
  /** Per row: 1 if this call ran the row's check (a new tested sample), 0 if known or skipped. */
  fresh: Uint8Array;
}

/**
 * The counting contract, implemented once for every individual method.
 *
 * A *tested sample* is a distinct input, keyed on its non-protected attributes at their declared
 * resolution (`TestedSampleKey`: each value's cell index on its `keyResolution` grid, so that values
 * closer than the resolution, e.g. generated reals on a continuous attribute, are one input), whose
 * counterfactual check ran; the first input of a cell is the one queried and reported; a *discriminatory sample* is
 * a tested sample for which some change of protected attributes changes the model's decision (or,
 * with a threshold γ > 0, moves the favourable-class probability by more than γ). For each batch the
 * checker builds every protected
 * variant of every new input, queries the model once, and records TSN, DSN, the discriminatory pairs
 * and the per-attribute-value counts. An input already tested returns its known status without a
 * model query and without counting again.
 */
export class CounterfactualChecker {
  readonly schema: Schema;
  readonly mode: VariantMode;
  private readonly model: CountingClassifier;
  private readonly ctl: RunController;
  private readonly d: number;
  private readonly prot: number[];
  private readonly domains: Float64Array[];
  private readonly variants: ProtectedVariants;
  private readonly keys: RowIndex;
  private readonly statusById = new GrowableArray((n) => new Int32Array(n));
  private readonly testedKey: TestedSampleKey;
  private readonly pairSamples = new GrowableArray((n) => new Float64Array(n));
  private readonly pairCounterfactuals = new GrowableArray((n) => new Float64Array(n));
  private readonly pairOutcomes = new GrowableArray((n) => new Int32Array(n));
  private readonly queryRows = new GrowableArray((n) => new Float64Array(n));
  private nPairs = 0;
  private nDiscriminatory = 0;
  /** Pairs kept for the findings; beyond it pairs are counted, not stored. */
  private readonly maxStored: number;
  private readonly dsnByValue: Int32Array[];
  private readonly pairsByValue: Int32Array[];

  /**
   * The discrimination threshold γ of seed 000 (AEQUITAS, KOSEI): 0 counts a changed decision; above 0,
   * a twin counts when |P(x) − P(x′)| > γ on the probability of the favourable class.
   */
  readonly gamma: number;

  constructor(
    schema: Schema,
    model: CountingClassifier,
    ctl: RunController,
    mode: VariantMode = 'all-combinations',
    gamma = 0,
  ) {
    if (!(gamma >= 0 && gamma < 1)) {
      throw new OptionsError('OPTIONS_INVALID', `gamma must lie in [0, 1), got ${gamma}`, {
        option: '/gamma',
      });
    }
    if (gamma > 0 && !model.hasProba) {
      throw new ModelError(
        'MODEL_MISMATCH',
        `a discrimination threshold gamma = ${gamma} compares probabilities, but the model has no predictProba`,
      );
    }
    this.gamma = gamma;
    this.schema = schema;
    this.mode = mode;
    this.model = model;
    this.ctl = ctl;
    this.maxStored = ctl.maxPairs;
    ctl.resultSeconds = () => this.storedPairs * RESULT_SECONDS_PER_PAIR;
    this.d = schema.attributes.length;
    if (model.nFeatures !== this.d) {
      throw new DataError(
        'DATA_SHAPE',
        `the model takes ${model.nFeatures} features but the schema has ${this.d}`,
      );
    }
    this.variants = new ProtectedVariants(schema, mode);
    this.prot = [...this.variants.prot];
    this.domains = [...this.variants.domains];
    this.testedKey = new TestedSampleKey(schema);
    this.keys = new RowIndex(this.testedKey.width);
    this.dsnByValue = this.domains.map((dom) => new Int32Array(dom.length));
    this.pairsByValue = this.domains.map((dom) => new Int32Array(dom.length));
  }

  /** Tested samples so far. */
  get tsn(): number {
    return this.keys.size;
  }
  /** Discriminatory samples so far. */
  get dsn(): number {
    return this.nDiscriminatory;
  }
  /** Discriminatory pairs found so far (stored or not). */
  get pairs(): number {
    return this.nPairs;
  }
  /** Pairs stored for the findings: the first `budget.maxPairs` found. */
  get storedPairs(): number {
    return Math.min(this.nPairs, this.maxStored);
  }
  /** Protected attribute positions, in schema order. */
  get protectedIndices(): readonly number[] {
    return this.prot;
  }

  /** The cell indices of an input's non-protected values (written into one scratch row). */
  private keyOf(x: Float64Array, off: number): Float64Array {
    return this.testedKey.of(x, off);
  }

  /**
   * Check a batch of n inputs (n x d, row-major, every value in its domain). New inputs are tested
   * with one model query for the whole batch; known ones return their recorded status.
   */
  check(x: Float64Array): BatchCheck {
    const { d } = this;
    if (x.length % d !== 0)
      throw new DataError('DATA_SHAPE', `a batch of ${x.length} values is not rows of width ${d}`);
    const n = x.length / d;
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < d; j++) {
        const a = this.schema.attributes[j]!;
        if (!inDomain(a, x[i * d + j]!)) {
          throw new DataError(
            'DATA_OUT_OF_DOMAIN',
            `input ${i}: value ${x[i * d + j]} of "${a.name}" is outside its domain`,
            {
              attribute: a.name,
              row: i,
            },
          );
        }
      }
    }
    const status = new Int8Array(n);
    const fresh = new Uint8Array(n);
    const perInput = this.variants.perInput;
    let allowed = this.ctl.remainingTested();
    const maxQ = this.ctl.budget.maxQueries;
    if (maxQ !== undefined) {
      const left = maxQ - this.model.distinctQueries;
      const affordable = Math.max(0, Math.floor(left / (perInput + 1)));
      // Fewer queries left than one more input needs: the query budget is what ends the run.
      if (affordable === 0) this.ctl.stopFor('query-budget');
      allowed = Math.min(allowed, affordable);
    }
    if (this.ctl.signal?.aborted) allowed = 0;
    // First pass: resolve known keys, register new ones within the budget.
    const before = this.keys.size;
    const newRows: number[] = [];
    for (let i = 0; i < n; i++) {
      const key = this.keyOf(x, i * d);
      const id = this.keys.find(key);
      if (id >= 0) {
        // Known (possibly registered earlier in this batch); resolved after the query if pending.
        status[i] = id >= before ? 2 : (this.statusById.array[id]! as CheckStatus);
        continue;
      }
      if (newRows.length >= allowed) {
        status[i] = CheckStatus.Skipped;
        continue;
      }
      this.keys.getOrAdd(key);
      newRows.push(i);
      fresh[i] = 1;
    }
    if (newRows.length > 0) this.runQueries(x, newRows, perInput, status, before);
    // Resolve duplicates of inputs first seen in this batch.
    for (let i = 0; i < n; i++) {
      if (status[i] === 2)
        status[i] = this.statusById.array[this.keys.find(this.keyOf(x, i * d))]! as CheckStatus;
    }
    this.ctl.tested = this.keys.size;
    this.ctl.discriminatory = this.nDiscriminatory;
    return { status, fresh };
  }

  private runQueries(
    x: Float64Array,
    rows: number[],
    perInput: number,
    status: Int8Array,
    firstId: number,
  ): void {
    const { d, prot } = this;
    const block = perInput + 1;
    // Reused across calls: the counting wrapper keeps its own copy of every row it is sent.
    const batch = this.queryRows.ensure(rows.length * block * d).subarray(0, rows.length * block * d);
    const counts = new Int32Array(rows.length);
    for (let r = 0; r < rows.length; r++) {
      const off = rows[r]! * d;
      batch.set(x.subarray(off, off + d), r * block * d);
      counts[r] = this.variants.write(x, off, batch, (r * block + 1) * d);
    }
    const labels = this.model.predict(batch);
    // With a threshold, the favourable-class probability of every row (the same rows: no new query).
    const c = this.model.nClasses;
    const fav = this.schema.outcome.favorable;
    const proba = this.gamma > 0 ? this.model.predictProba(batch) : null;
    const statusStore = this.statusById.ensure(firstId + rows.length);
    const touchedDsn = this.domains.map((dom) => new Uint8Array(dom.length));
    for (let r = 0; r < rows.length; r++) {
      const own = labels[r * block]!;
      const sampleOff = r * block * d;
      let disc = false;
      for (const t of touchedDsn) t.fill(0);
      for (let v = 1; v <= counts[r]!; v++) {
        const lab = labels[r * block + v]!;
        if (proba) {
          const gap = proba[r * block * c + fav]! - proba[(r * block + v) * c + fav]!;
          if (!(Math.abs(gap) > this.gamma)) continue;
        } else if (lab === own) continue;
        disc = true;
        const cfOff = (r * block + v) * d;
        this.recordPair(batch, sampleOff, cfOff, own, lab);
        for (let k = 0; k < prot.length; k++) {
          const a = batch[sampleOff + prot[k]!]!;
          const b = batch[cfOff + prot[k]!]!;
          if (a === b) continue;
          const ia = this.variants.domainIndex(k, a);
          const ib = this.variants.domainIndex(k, b);
          this.pairsByValue[k]![ia]!++;
          this.pairsByValue[k]![ib]!++;
          touchedDsn[k]![ia] = 1;
          touchedDsn[k]![ib] = 1;
        }
      }
      if (disc) {
        this.nDiscriminatory++;
        touchedDsn.forEach((t, k) => {
          for (let v = 0; v < t.length; v++) if (t[v]) this.dsnByValue[k]![v]!++;
        });
      }
      const st = disc ? CheckStatus.Discriminatory : CheckStatus.Fair;
      statusStore[firstId + r] = st;
      status[rows[r]!] = st;
    }
  }

  private recordPair(batch: Float64Array, sOff: number, cOff: number, own: number, lab: number): void {
    const { d } = this;
    const i = this.nPairs++;
    if (i >= this.maxStored) return;
    const samples = this.pairSamples.ensure((i + 1) * d);
    const counterfactuals = this.pairCounterfactuals.ensure((i + 1) * d);
    for (let j = 0; j < d; j++) {
      samples[i * d + j] = batch[sOff + j]!;
      counterfactuals[i * d + j] = batch[cOff + j]!;
    }
    const outs = this.pairOutcomes.ensure((i + 1) * 2);
    outs[2 * i] = own;
    outs[2 * i + 1] = lab;
  }

  /** The stored pairs and the per-value counts (of every pair) so far, in the result contract's shape. */
  findings(): IndividualFindings {
    const { d, prot, schema } = this;
    const pairs: DiscriminatoryPair[] = [];
    for (let i = 0; i < this.storedPairs; i++) {
      const sample = Array.from(this.pairSamples.array.subarray(i * d, (i + 1) * d));
      const counterfactual = Array.from(this.pairCounterfactuals.array.subarray(i * d, (i + 1) * d));
      pairs.push({
        caseId: i,
        sample,
        counterfactual,
        sampleOutcome: this.pairOutcomes.array[2 * i]!,
        counterfactualOutcome: this.pairOutcomes.array[2 * i + 1]!,
        changed: prot.filter((p) => sample[p] !== counterfactual[p]).map((p) => schema.attributes[p]!.name),
      });
    }
    const byAttributeValue: AttributeValueCount[] = [];
    prot.forEach((p, k) => {
      const a = schema.attributes[p]!;
      this.domains[k]!.forEach((value, v) => {
        byAttributeValue.push({
          attribute: a.name,
          value,
          label: valueLabel(a, value),
          dsn: this.dsnByValue[k]![v]!,
          pairs: this.pairsByValue[k]![v]!,
        });
      });
    });
    return { kind: 'individual', pairs, byAttributeValue };
  }
}
