import { type Attribute, clampToDomain, type Dataset, type Rng } from '@fb/core';

/** A one-dimensional Gaussian mixture: weights, means and standard deviations of its modes. */
export interface Modes {
  weight: Float64Array;
  mean: Float64Array;
  sd: Float64Array;
}

/** Values a mixture is fitted on at most (a random subset beyond). */
const GMM_ROWS = 5000;
const GMM_ITERATIONS = 100;
/** Modes below this weight are dropped after the fit (CTGAN's `weight_threshold`). */
const WEIGHT_THRESHOLD = 0.005;

/**
 * A Gaussian mixture of at most `maxModes` modes fitted by EM to `values` (means started at evenly
 * spaced quantiles), the modes under 0.5 % weight dropped. CTGAN fits a Bayesian mixture with a
 * Dirichlet-process prior of concentration 0.001 and drops the same small modes; plain EM with that
 * pruning keeps the modes the data hold.
 */
export function fitModes(values: Float64Array, maxModes: number, rng: Rng): Modes {
  const v = values.length > GMM_ROWS ? subset(values, GMM_ROWS, rng) : Float64Array.from(values);
  const n = v.length;
  const sorted = Float64Array.from(v).sort();
  let mu0 = 0;
  for (let i = 0; i < n; i++) mu0 += v[i]!;
  mu0 /= n;
  let var0 = 0;
  for (let i = 0; i < n; i++) var0 += (v[i]! - mu0) ** 2;
  var0 /= n;
  // A variance floor keeps a mode on a single repeated value (an integer level) finite.
  const floor = Math.max(1e-6 * var0, 1e-12);
  let k = Math.max(1, Math.min(maxModes, n));
  const weight = new Float64Array(k).fill(1 / k);
  const mean = Float64Array.from({ length: k }, (_, m) => sorted[Math.floor(((m + 0.5) / k) * n)]!);
  const variance = new Float64Array(k).fill(Math.max(var0 / (k * k), floor));
  const resp = new Float64Array(n * k);
  let previous = Number.NEGATIVE_INFINITY;
  for (let it = 0; it < GMM_ITERATIONS; it++) {
    let logLik = 0;
    for (let i = 0; i < n; i++) {
      let best = Number.NEGATIVE_INFINITY;
      for (let m = 0; m < k; m++) {
        const l =
          Math.log(weight[m]!) - 0.5 * Math.log(variance[m]!) - (v[i]! - mean[m]!) ** 2 / (2 * variance[m]!);
        resp[i * k + m] = l;
        if (l > best) best = l;
      }
      let s = 0;
      for (let m = 0; m < k; m++) s += resp[i * k + m] = Math.exp(resp[i * k + m]! - best);
      for (let m = 0; m < k; m++) resp[i * k + m]! /= s;
      logLik += best + Math.log(s);
    }
    for (let m = 0; m < k; m++) {
      let w = 0;
      let mu = 0;
      for (let i = 0; i < n; i++) {
        w += resp[i * k + m]!;
        mu += resp[i * k + m]! * v[i]!;
      }
      if (!(w > 1e-9)) {
        weight[m] = 0;
        continue;
      }
      mu /= w;
      let s2 = 0;
      for (let i = 0; i < n; i++) s2 += resp[i * k + m]! * (v[i]! - mu) ** 2;
      weight[m] = w / n;
      mean[m] = mu;
      variance[m] = Math.max(s2 / w, floor);
    }
    // An emptied mode stays out (log 0 = -Infinity in the next E-step).
    if (Math.abs(logLik - previous) <= 1e-7 * n) break;
    previous = logLik;
  }
  const keep: number[] = [];
  for (let m = 0; m < k; m++) if (weight[m]! > WEIGHT_THRESHOLD) keep.push(m);
  if (keep.length === 0) keep.push(weight.indexOf(Math.max(...weight)));
  k = keep.length;
  let total = 0;
  for (const m of keep) total += weight[m]!;
  return {
    weight: Float64Array.from(keep, (m) => weight[m]! / total),
    mean: Float64Array.from(keep, (m) => mean[m]!),
    sd: Float64Array.from(keep, (m) => Math.sqrt(variance[m]!)),
  };
}

function subset(values: Float64Array, m: number, rng: Rng): Float64Array {
  return Float64Array.from(rng.sampleIndices(values.length, m), (i) => values[i]!);
}

/** One block of the encoding: a normalised scalar (tanh output) or a one-hot block (softmax output). */
export interface Span {
  kind: 'scalar' | 'softmax';
  offset: number;
  size: number;
}

/**
 * CTGAN's and TVAE's data transformer. A numeric (ordinal or continuous) attribute becomes a scalar α
 * and the one-hot of a mode of its Gaussian mixture: the mode drawn from its posterior given the
 * value, α = (value − mean)/(4·sd) clipped to ±0.99. A categorical attribute becomes its one-hot.
 * `decode` inverts it: the mode of largest output, value = α·4·sd + mean, snapped onto the domain.
 */
export class ModeSpecificTransformer {
  readonly d: number;
  readonly width: number;
  readonly spans: Span[] = [];
  /** Per attribute: first encoded column, and its mixture (null for a categorical attribute). */
  readonly offset: Int32Array;
  readonly modes: (Modes | null)[];
  private readonly attributes: readonly Attribute[];

  /** Whether `stop` ended the fit before every column had its modes (the transformer is then unusable). */
  readonly stopped: boolean = false;

  /** `stop` is asked before each numeric column's mixture is fitted (a run's budget). */
  constructor(
    dataset: Dataset,
    rows: Int32Array,
    maxModes: number,
    rng: Rng,
    stop: () => boolean = () => false,
  ) {
    const { d, x, schema } = dataset;
    this.d = d;
    this.attributes = schema.attributes;
    this.offset = new Int32Array(d);
    this.modes = [];
    let width = 0;
    for (let j = 0; j < d; j++) {
      const a = schema.attributes[j]!;
      this.offset[j] = width;
      if (a.categories) {
        this.modes.push(null);
        this.spans.push({ kind: 'softmax', offset: width, size: a.categories.length });
        width += a.categories.length;
        continue;
      }
      if (stop()) {
        this.stopped = true;
        break;
      }
      const column = Float64Array.from(rows, (i) => x[i * d + j]!);
      const modes = fitModes(column, maxModes, rng.fork(`modes-${j}`));
      this.modes.push(modes);
      this.spans.push({ kind: 'scalar', offset: width, size: 1 });
      this.spans.push({ kind: 'softmax', offset: width + 1, size: modes.mean.length });
      width += 1 + modes.mean.length;
    }
    this.width = width;
  }

  /** Encode the given rows of x (width d), drawing each numeric value's mode from its posterior. */
  encode(x: Float64Array, rows: Int32Array, rng: Rng): Float64Array {
    const { d, width } = this;
    const out = new Float64Array(rows.length * width);
    const post = new Float64Array(16);
    rows.forEach((row, r) => {
      for (let j = 0; j < d; j++) {
        const v = x[row * d + j]!;
        const o = r * width + this.offset[j]!;
        const modes = this.modes[j];
        if (!modes) {
          out[o + v] = 1;
          continue;
        }
        const k = modes.mean.length;
        const p = k <= post.length ? post.subarray(0, k) : new Float64Array(k);
        let best = Number.NEGATIVE_INFINITY;
        for (let m = 0; m < k; m++) {
          const s = modes.sd[m]!;
          p[m] = Math.log(modes.weight[m]!) - Math.log(s) - (v - modes.mean[m]!) ** 2 / (2 * s * s);
          if (p[m]! > best) best = p[m]!;
        }
        let sum = 0;
        for (let m = 0; m < k; m++) sum += p[m] = Math.exp(p[m]! - best);
        // CTGAN adds 1e-6 to each posterior probability before drawing.
        for (let m = 0; m < k; m++) p[m] = p[m]! / sum + 1e-6;
        const mode = rng.weightedIndex(p);
        out[o] = Math.min(0.99, Math.max(-0.99, (v - modes.mean[mode]!) / (4 * modes.sd[mode]!)));
        out[o + 1 + mode] = 1;
      }
    });
    return out;
  }

  /**
   * Decode `m` network outputs (m x width, raw: tanh is applied to the scalars here, the largest entry
   * of a block wins) into rows on the domain, written at out[outOff..].
   */
  decode(e: Float64Array, m: number, out: Float64Array, outOff = 0): void {
    const { d, width } = this;
    // Attribute by attribute: each has one decoding rule for every row.
    for (let j = 0; j < d; j++) {
      const a = this.attributes[j]!;
      const modes = this.modes[j];
      const first = this.offset[j]! + (modes ? 1 : 0);
      const k = modes ? modes.mean.length : a.categories!.length;
      for (let i = 0, at = first; i < m; i++, at += width) {
        // The largest entry of the block, the first on ties (argmaxAt, on a Float64Array).
        let best = 0;
        let top = e[at]!;
        for (let c = 1; c < k; c++) {
          if (e[at + c]! > top) {
            top = e[at + c]!;
            best = c;
          }
        }
        out[outOff + i * d + j] = modes
          ? clampToDomain(a, Math.tanh(e[at - 1]!) * 4 * modes.sd[best]! + modes.mean[best]!)
          : best;
      }
    }
  }
}
