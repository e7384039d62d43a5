import { factorRidge, linearValue, RidgeSolver } from '@fb/models';
import type { Options } from './options.js';

/** The reference's partitions, in its order: predicted favourable (p₀ > ½), predicted unfavourable, all rows. */
export const PARTITIONS = ['predicted-favourable', 'predicted-unfavourable', 'all'] as const;
export type PartitionName = (typeof PARTITIONS)[number];

/** One correction: in `round`, the auditor's held-out correlation on `partition` exceeded the threshold. */
export interface Correction {
  round: number;
  partition: PartitionName;
  score: number;
}

export type StoppedBy = 'no-violation' | 'last-partition' | 'max-iterations' | 'budget';

export interface BoostRun {
  corrections: Correction[];
  /** The correction with the highest score (the first on ties), or null when none was made. */
  best: Correction | null;
  rounds: number;
  stoppedBy: StoppedBy;
}

interface Partition {
  name: PartitionName;
  /** Every row of the partition (a correction moves all of them). */
  rows: Int32Array;
  heldOut: Int32Array;
  /** The auditor fitted on the partition's training rows; null when it has no training or held-out row. */
  ridge: RidgeSolver | null;
}

/** Probabilities are kept this far from 0 and 1 before taking log-odds. */
const EPS = 1e-6;
const logit = (p: number) => {
  const c = Math.min(1 - EPS, Math.max(EPS, p));
  return Math.log(c / (1 - c));
};

/** The reference's regression target: the log-loss derivative's magnitude, linearised near 0 and 1. */
export function lossSlope(p: number, y: number): number {
  return y === 1 ? (p >= 0.1 ? 1 / p : 20 - 100 * p) : p < 0.9 ? 1 / (1 - p) : 100 * p - 80;
}

/**
 * MULTIACCURACY-BOOST (Kim, Ghorbani & Zou 2019) as in the reference notebook, on the log-odds of the
 * favourable outcome. Each round: a ridge auditor per partition, fitted on its training rows to the loss
 * slope; its held-out mean of auditor × residual is the score; the first partition (in the reference's
 * order) whose score exceeds the threshold gets its log-odds moved by −eta × auditor, and the next round
 * starts. The partitions, the split and the auditors' factorisations depend only on the initial predictions,
 * so replicas under the null reuse them.
 */
export class Booster {
  private constructor(
    private readonly design: Float64Array,
    private readonly p: number,
    private readonly start: Float64Array,
    private readonly partitions: Partition[],
    private readonly options: Options,
  ) {}

  /**
   * The booster's partitions and their auditors, or null when `stop` said stop while the auditors'
   * systems were being factorised (the work of the whole set-up: it polls every few milliseconds of it).
   * `pause` is awaited between partitions (a checkpoint that yields).
   *
   * @param design n x p auditor features, row-major.
   * @param p0 initial probability of the favourable outcome per row.
   * @param heldOut 1 for the rows held out to score the auditors.
   */
  static async create(
    design: Float64Array,
    p: number,
    p0: Float64Array,
    heldOut: Uint8Array,
    options: Options,
    stop: () => boolean,
    pause: () => Promise<void>,
  ): Promise<Booster | null> {
    const n = p0.length;
    const partitions: Partition[] = [];
    for (const name of PARTITIONS) {
      const rows: number[] = [];
      for (let i = 0; i < n; i++) {
        const favourable = p0[i]! > 0.5;
        if (name === 'all' || (name === 'predicted-favourable') === favourable) rows.push(i);
      }
      const train = rows.filter((i) => !heldOut[i]);
      const held = rows.filter((i) => heldOut[i]);
      let ridge: RidgeSolver | null = null;
      if (train.length > 0 && held.length > 0) {
        // The relative floor keeps ridge = 0 solvable when one-hot columns are collinear (then close to
        // the minimum-norm solution).
        const ridgeOptions = { alpha: options.ridge, relativeAlpha: 1e-12, rows: Int32Array.from(train) };
        const factor = factorRidge(design, p, ridgeOptions, stop);
        if (!factor) return null;
        ridge = new RidgeSolver(design, p, ridgeOptions, factor);
      }
      partitions.push({ name, rows: Int32Array.from(rows), heldOut: Int32Array.from(held), ridge });
      await pause();
      if (stop()) return null;
    }
    return new Booster(design, p, Float64Array.from(p0, logit), partitions, options);
  }

  /**
   * Boost against outcomes `y` (1 = favourable). `round` is awaited after every round that made a
   * correction (a checkpoint) and returns true to stop; `stop` is polled before each auditor's fit
   * within a round, and a round it stops is dropped whole (no correction from it).
   */
  async run(
    y: Float64Array,
    round: (done: number) => Promise<boolean>,
    stop: () => boolean,
  ): Promise<BoostRun> {
    const { options } = this;
    const n = y.length;
    const logits = this.start.slice();
    const slope = new Float64Array(n);
    const residual = new Float64Array(n);
    // "over": the residual p − y with negative values set to 0; "under": its mirror image.
    const sign = options.direction === 'under' ? -1 : 1;
    const clip = options.direction !== 'both';
    const corrections: Correction[] = [];
    let best: Correction | null = null;
    let stoppedBy: StoppedBy = 'max-iterations';
    let t = 0;
    while (t < options.maxIterations) {
      for (let i = 0; i < n; i++) {
        const q = 1 / (1 + Math.exp(-logits[i]!));
        slope[i] = lossSlope(q, y[i]!);
        const r = sign * (q - y[i]!);
        residual[i] = clip && r < 0 ? 0 : r;
      }
      let corrected: Partition | null = null;
      let halted = false;
      for (const part of this.partitions) {
        if (!part.ridge) continue;
        if (stop()) {
          halted = true;
          break;
        }
        const fit = part.ridge.fit(slope);
        let corr = 0;
        for (const i of part.heldOut) corr += linearValue(fit, this.design, this.p, i) * residual[i]!;
        corr /= part.heldOut.length;
        if (!(corr > options.threshold)) continue;
        const c: Correction = { round: t, partition: part.name, score: corr };
        corrections.push(c);
        if (!best || corr > best.score) best = c;
        for (const i of part.rows)
          logits[i]! -= sign * options.eta * linearValue(fit, this.design, this.p, i);
        corrected = part;
        break;
      }
      if (halted) {
        stoppedBy = 'budget';
        break;
      }
      t++;
      if (!corrected) {
        stoppedBy = 'no-violation';
        break;
      }
      if (options.stopAfterLastPartition && corrected.name === 'all') {
        stoppedBy = 'last-partition';
        break;
      }
      if (await round(t)) {
        stoppedBy = 'budget';
        break;
      }
    }
    return { corrections, best, rounds: t, stoppedBy };
  }

  /** The rows of a partition. */
  rowsOf(name: PartitionName): Int32Array {
    return this.partitions.find((p) => p.name === name)!.rows;
  }
}
