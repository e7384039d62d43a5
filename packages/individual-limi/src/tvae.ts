import type { Dataset, Rng, RunController } from '@fb/core';
import { argmaxAt } from './codec.js';
import type { LatentGenerator, LatentProber } from './generator.js';
import { ModeSpecificTransformer } from './mode-specific.js';
import type { Hyperplane } from './probe.js';

export interface TvaeSettings {
  latentDim: number;
  hiddenUnits: number;
  steps: number;
  learningRate: number;
  batchSize: number;
  maxModes: number;
}

/** TVAE's weight on the reconstruction against the KL term (`loss_factor`) and its L2 scale. */
const LOSS_FACTOR = 2;
const WEIGHT_DECAY = 1e-5;

/** Flat parameter layout: every weight matrix is row-major (inputs x outputs). */
interface Layout {
  W1: number;
  b1: number;
  Wm: number;
  bm: number;
  Wv: number;
  bv: number;
  W2: number;
  b2: number;
  W3: number;
  b3: number;
  sigma: number;
  size: number;
}

function layout(p: number, h: number, k: number, c: number, scalars: number): Layout {
  let at = 0;
  const take = (n: number) => {
    const o = at;
    at += n;
    return o;
  };
  return {
    W1: take(p * h),
    b1: take(h),
    Wm: take(h * k),
    bm: take(k),
    Wv: take(h * k),
    bv: take(k),
    W2: take((k + c) * h),
    b2: take(h),
    W3: take(h * p),
    b3: take(p),
    sigma: take(scalars),
    get size() {
      return at;
    },
  };
}

/** The categorical attributes a decoder is conditioned on, their one-hot blocks and their rows. */
interface Conditions {
  /** Attribute index, first column of its block in the condition vector, category counts. */
  attribute: Int32Array;
  offset: Int32Array;
  counts: Float64Array[];
  /** Training-row positions per attribute and category. */
  rows: Int32Array[][];
  width: number;
}

function conditions(dataset: Dataset, train: Int32Array): Conditions {
  const { d, x, schema } = dataset;
  const attribute: number[] = [];
  const offset: number[] = [];
  const counts: Float64Array[] = [];
  const rows: Int32Array[][] = [];
  let width = 0;
  schema.attributes.forEach((a, j) => {
    if (!a.categories) return;
    const k = a.categories.length;
    const lists: number[][] = Array.from({ length: k }, () => []);
    train.forEach((row, r) => {
      lists[x[row * d + j]!]!.push(r);
    });
    attribute.push(j);
    offset.push(width);
    counts.push(Float64Array.from(lists, (l) => l.length));
    rows.push(lists.map((l) => Int32Array.from(l)));
    width += k;
  });
  return {
    attribute: Int32Array.from(attribute),
    offset: Int32Array.from(offset),
    counts,
    rows,
    width,
  };
}

export interface TvaeTraining {
  /** Mean loss per row (reconstruction x 2 + KL) over each pass's worth of steps (⌈rows / batch⌉). */
  lossPerEpoch: number[];
  /** Width of the transformer's encoding and of the condition vector. */
  encodedWidth: number;
  conditionWidth: number;
  /** Modes kept per numeric attribute. */
  modes: Record<string, number>;
}

/**
 * A TVAE (Xu et al., "Modeling Tabular Data using Conditional GAN", NeurIPS 2019, the SDV family's
 * tabular VAE) on CTGAN's mode-specific encoding, with CTGAN's conditional vector: the decoder reads
 * [z, cond], cond the one-hot of one category of one categorical attribute, and training picks each
 * row by CTGAN's training-by-sampling (an attribute uniformly, a category by log-frequency, a row of
 * that category). LIMI's latent space is then [z, cond] as in the original, whose latent codes are
 * CTGAN's noise and condition vector: latent vectors draw z ~ N(0, I) and cond from the data's
 * frequencies (CTGAN's `sample_original_condvec`).
 *
 * Encoder and decoder have one ReLU hidden layer of `hiddenUnits` each; the loss is TVAE's (a Gaussian
 * with a learnt scale in [0.01, 1] on tanh of each scalar, cross-entropy on each one-hot block, times
 * 2, plus the KL term), minimised by Adam with weight decay 1e-5 for `steps` steps of `batchSize` rows.
 * Plain typed-array arithmetic, every draw from `rng`. Returns null when the run is stopped.
 */
export async function fitTvaeGenerator(
  dataset: Dataset,
  train: Int32Array,
  settings: TvaeSettings,
  rng: Rng,
  ctl: RunController,
): Promise<{ generator: LatentGenerator; training: TvaeTraining } | null> {
  const stop = () => ctl.shouldStop() !== null;
  const transformer = new ModeSpecificTransformer(dataset, train, settings.maxModes, rng.fork('modes'), stop);
  if (transformer.stopped || stop()) return null;
  const p = transformer.width;
  const n = train.length;
  const data = transformer.encode(dataset.x, train, rng.fork('encode'));
  const cond = conditions(dataset, train);
  const C = cond.width;
  const k = settings.latentDim;
  const h = settings.hiddenUnits;
  const scalars = transformer.spans.filter((s) => s.kind === 'scalar');
  const blocks = transformer.spans.filter((s) => s.kind === 'softmax');
  const S = scalars.length;
  const L = layout(p, h, k, C, S);
  const theta = new Float64Array(L.size);
  const init = rng.fork('init');
  // PyTorch's default Linear initialisation: U(±1/√fan_in) for weights and biases.
  const dense = (w: number, b: number, fanIn: number, fanOut: number) => {
    const bound = 1 / Math.sqrt(fanIn);
    for (let i = 0; i < fanIn * fanOut; i++) theta[w + i] = init.uniform(-bound, bound);
    for (let i = 0; i < fanOut; i++) theta[b + i] = init.uniform(-bound, bound);
  };
  dense(L.W1, L.b1, p, h);
  dense(L.Wm, L.bm, h, k); // stored k x h (output-major)
  dense(L.Wv, L.bv, h, k);
  dense(L.W2, L.b2, k + C, h);
  dense(L.W3, L.b3, h, p);
  theta.fill(0.1, L.sigma, L.sigma + S);

  // Each encoded row has the same number of non-zero entries (one per categorical attribute, two per
  // numeric one): the encoder's first layer runs on those only.
  const nnz = dataset.d + S;
  const nzIndex = new Int32Array(n * nnz);
  const nzValue = new Float64Array(n * nnz);
  const isScalar = new Uint8Array(p);
  for (const s of scalars) isScalar[s.offset] = 1;
  for (let r = 0; r < n; r++) {
    let e = r * nnz;
    for (let c = 0; c < p; c++) {
      const v = data[r * p + c]!;
      // A scalar of exactly 0 still takes its slot, so that every row has nnz entries.
      if (v !== 0 || isScalar[c] === 1) {
        nzIndex[e] = c;
        nzValue[e++] = v;
      }
    }
  }
  const hot = new Int32Array(n * blocks.length);
  for (let r = 0; r < n; r++)
    blocks.forEach((b, q) => {
      hot[r * blocks.length + q] = argmaxAt(data, r * p + b.offset, b.size);
    });
  const logCounts = cond.counts.map((c) => Float64Array.from(c, (v) => Math.log1p(v)));

  const B = Math.min(settings.batchSize, n);
  const grad = new Float64Array(L.size);
  // Views of the parameters and their gradients (Wm and Wv are stored output-major, k x h, so that
  // the hot loops run along contiguous memory).
  const views = (a: Float64Array) => {
    const v = (at: number, size: number) => a.subarray(at, at + size);
    return [
      v(L.W1, p * h),
      v(L.b1, h),
      v(L.Wm, h * k),
      v(L.bm, k),
      v(L.Wv, h * k),
      v(L.bv, k),
      v(L.W2, (k + C) * h),
      v(L.b2, h),
      v(L.W3, h * p),
      v(L.b3, p),
      v(L.sigma, S),
    ] as const;
  };
  const [W1, b1, Wm, bm, Wv, bv, W2, b2, W3, b3, sigmas] = views(theta);
  const [gW1, gb1, gWm, gbm, gWv, gbv, gW2, gb2, gW3, gb3, gSigma] = views(grad);

  const m1 = new Float64Array(L.size);
  const m2 = new Float64Array(L.size);
  const batch = new Int32Array(B);
  const condIdx = new Int32Array(B);
  const h1 = new Float64Array(B * h);
  const mu = new Float64Array(B * k);
  const lv = new Float64Array(B * k);
  const eps = new Float64Array(B * k);
  const z = new Float64Array(B * k);
  const h2 = new Float64Array(B * h);
  const out = new Float64Array(B * p);
  // The loss's gradient with respect to each row's outputs, kept for the batch (the output layer's
  // weight gradient is summed once all rows are through).
  const dOutAll = new Float64Array(B * p);
  const dh = new Float64Array(h);
  const dz = new Float64Array(k);
  const trainUnit = new Int32Array(h);
  const encUnit = new Int32Array(h);
  const trainLevel = new Float64Array(h);
  const draws = rng.fork('steps');
  const stepsPerEpoch = Math.ceil(n / B);
  const lossPerEpoch: number[] = [];
  let windowLoss = 0;
  let windowRows = 0;
  for (let step = 0; step < settings.steps; step++) {
    if (await ctl.checkpoint({ phase: 'tvae', done: step, total: settings.steps })) return null;
    // Training-by-sampling: an attribute, a category by log-frequency, a row of that category.
    for (let r = 0; r < B; r++) {
      if (C === 0) {
        batch[r] = draws.int(0, n - 1);
        condIdx[r] = -1;
        continue;
      }
      const a = draws.int(0, cond.attribute.length - 1);
      const cat = draws.weightedIndex(logCounts[a]!);
      const rows = cond.rows[a]![cat]!;
      batch[r] = rows[draws.int(0, rows.length - 1)]!;
      condIdx[r] = cond.offset[a]! + cat;
    }
    for (let i = 0; i < B * k; i++) eps[i] = draws.normal();
    grad.fill(0);
    let loss = 0;
    for (let r = 0; r < B; r++) {
      const row = batch[r]!;
      // Encoder.
      const a1 = h1.subarray(r * h, (r + 1) * h);
      a1.set(b1);
      for (let e = row * nnz; e < (row + 1) * nnz; e++) {
        const v = nzValue[e]!;
        const w = nzIndex[e]! * h;
        for (let u = 0; u < h; u++) a1[u]! += v * W1[w + u]!;
      }
      // ReLU, and the units it leaves active: an inactive unit's terms below are exact zeros (its
      // level, or its gradient), which leave every sum as it is, so they are skipped.
      let on = 0;
      for (let u = 0; u < h; u++) {
        if (a1[u]! < 0) a1[u] = 0;
        if (a1[u] !== 0) encUnit[on++] = u;
      }
      for (let q = 0; q < k; q++) {
        let sm = bm[q]!;
        let sv = bv[q]!;
        const w = q * h;
        for (let t = 0; t < on; t++) {
          const u = encUnit[t]!;
          sm += a1[u]! * Wm[w + u]!;
          sv += a1[u]! * Wv[w + u]!;
        }
        mu[r * k + q] = sm;
        lv[r * k + q] = sv;
        z[r * k + q] = sm + Math.exp(0.5 * sv) * eps[r * k + q]!;
        loss += -0.5 * (1 + sv - sm * sm - Math.exp(sv));
      }
      // Decoder on [z, cond].
      const a2 = h2.subarray(r * h, (r + 1) * h);
      a2.set(b2);
      for (let q = 0; q < k; q++) {
        const v = z[r * k + q]!;
        const w = q * h;
        for (let u = 0; u < h; u++) a2[u]! += v * W2[w + u]!;
      }
      if (condIdx[r]! >= 0) {
        const w = (k + condIdx[r]!) * h;
        for (let u = 0; u < h; u++) a2[u]! += W2[w + u]!;
      }
      for (let u = 0; u < h; u++) if (a2[u]! < 0) a2[u] = 0;
      const o = out.subarray(r * p, (r + 1) * p);
      let active = 0;
      for (let u = 0; u < h; u++) {
        const v = a2[u]!;
        if (v === 0) continue;
        trainUnit[active] = u;
        trainLevel[active++] = v;
      }
      denseOut(o, b3, W3, p, trainUnit, trainLevel, active);
      // Loss and its gradient with respect to the outputs (mean over the batch).
      const dOut = dOutAll.subarray(r * p, (r + 1) * p);
      const x = data.subarray(row * p, (row + 1) * p);
      for (let s = 0; s < S; s++) {
        const c = scalars[s]!.offset;
        const t = Math.tanh(o[c]!);
        const err = x[c]! - t;
        const sigma = sigmas[s]!;
        loss += LOSS_FACTOR * ((err * err) / (2 * sigma * sigma) + Math.log(sigma));
        dOut[c] = (LOSS_FACTOR * (-err / (sigma * sigma)) * (1 - t * t)) / B;
        gSigma[s]! += (LOSS_FACTOR * (-(err * err) / (sigma * sigma * sigma) + 1 / sigma)) / B;
      }
      for (let q = 0; q < blocks.length; q++) {
        const { offset, size } = blocks[q]!;
        let max = Number.NEGATIVE_INFINITY;
        for (let c = offset; c < offset + size; c++) if (o[c]! > max) max = o[c]!;
        let sum = 0;
        for (let c = offset; c < offset + size; c++) sum += Math.exp(o[c]! - max);
        const target = offset + hot[row * blocks.length + q]!;
        loss += LOSS_FACTOR * (max + Math.log(sum) - o[target]!);
        for (let c = offset; c < offset + size; c++)
          dOut[c] = (LOSS_FACTOR * (Math.exp(o[c]! - max) / sum - (c === target ? 1 : 0))) / B;
      }
      // Back through the decoder.
      for (let c = 0; c < p; c++) gb3[c]! += dOut[c]!;
      dh.fill(0);
      backUnits(dh, W3, p, dOut, trainUnit, active);
      for (let u = 0; u < h; u++) gb2[u]! += dh[u]!;
      // dh is zero at the inactive units: their terms are exact zeros, skipped.
      for (let q = 0; q < k; q++) {
        const input = z[r * k + q]!;
        const w = q * h;
        let sum = 0;
        for (let t = 0; t < active; t++) {
          const u = trainUnit[t]!;
          const g = dh[u]!;
          gW2[w + u]! += input * g;
          sum += g * W2[w + u]!;
        }
        dz[q] = sum;
      }
      if (condIdx[r]! >= 0) {
        const w = (k + condIdx[r]!) * h;
        for (let u = 0; u < h; u++) gW2[w + u]! += dh[u]!;
      }
      // Through the reparameterisation and the KL term to the encoder's outputs, then the encoder.
      dh.fill(0);
      for (let q = 0; q < k; q++) {
        const sd = Math.exp(0.5 * lv[r * k + q]!);
        // dz already carries the batch mean (through dOut); the KL term gets it here.
        const dMu = dz[q]! + mu[r * k + q]! / B;
        const dLv = dz[q]! * eps[r * k + q]! * 0.5 * sd + (0.5 * (sd * sd - 1)) / B;
        gbm[q]! += dMu;
        gbv[q]! += dLv;
        const w = q * h;
        for (let t = 0; t < on; t++) {
          const u = encUnit[t]!;
          const v = a1[u]!;
          gWm[w + u]! += v * dMu;
          gWv[w + u]! += v * dLv;
          dh[u]! += dMu * Wm[w + u]! + dLv * Wv[w + u]!;
        }
      }
      for (let u = 0; u < h; u++) {
        if (a1[u] === 0) dh[u] = 0;
        gb1[u]! += dh[u]!;
      }
      for (let e = row * nnz; e < (row + 1) * nnz; e++) {
        const v = nzValue[e]!;
        if (v === 0) continue;
        const w = nzIndex[e]! * h;
        for (let t = 0; t < on; t++) {
          const u = encUnit[t]!;
          gW1[w + u]! += v * dh[u]!;
        }
      }
    }
    // The output layer's weight gradient: per weight, the rows' terms in row order, as when each row
    // added its own (a row whose unit is inactive adds nothing).
    weightGradient(gW3, h2, h, dOutAll, p, B);
    adamStep(theta, grad, m1, m2, step + 1, settings.learningRate);
    for (let s = 0; s < S; s++) sigmas[s] = Math.min(1, Math.max(0.01, sigmas[s]!));
    windowLoss += loss;
    windowRows += B;
    if ((step + 1) % stepsPerEpoch === 0 || step + 1 === settings.steps) {
      lossPerEpoch.push(windowLoss / windowRows);
      windowLoss = 0;
      windowRows = 0;
    }
  }

  const K = k + C;
  const frequencies = cond.counts;
  // The active units of the row being decoded, and their levels.
  const unit = new Int32Array(h);
  const level = new Float64Array(h);
  const generator: LatentGenerator = {
    k: K,
    kind: 'tvae',
    sampleLatent(r: Rng, m: number): Float64Array {
      const zc = new Float64Array(m * K);
      for (let i = 0; i < m; i++) {
        for (let q = 0; q < k; q++) zc[i * K + q] = r.normal();
        if (C === 0) continue;
        const a = r.int(0, cond.attribute.length - 1);
        zc[i * K + k + cond.offset[a]! + r.weightedIndex(frequencies[a]!)] = 1;
      }
      return zc;
    },
    decode(latent: Float64Array, m: number): Float64Array {
      return rowsOf(preActivations(latent, m), m);
    },
    prober(plane: Hyperplane, lambda: number): LatentProber {
      // The decoder's first layer is linear in its input: the pre-activations of z - t·w are those of z
      // minus t times those of w (without the bias), so a probe's cost no longer depends on K.
      const dir = new Float64Array(h);
      for (let q = 0; q < K; q++) {
        const v = plane.w[q]!;
        if (v === 0) continue;
        for (let u = 0; u < h; u++) dir[u]! += v * W2[q * h + u]!;
      }
      let preZ: Float64Array = new Float64Array(0);
      let dist = new Float64Array(0);
      let pre = new Float64Array(0);
      return {
        load(z: Float64Array, m: number): void {
          preZ = preActivations(z, m);
          dist = new Float64Array(m);
          for (let i = 0; i < m; i++) {
            let t = plane.b;
            for (let q = 0; q < K; q++) t += plane.w[q]! * z[i * K + q]!;
            dist[i] = t;
          }
          if (pre.length < m * h) pre = new Float64Array(m * h);
        },
        decode(side: -1 | 0 | 1, index: Int32Array, take: number): Float64Array {
          const shift = side * lambda;
          for (let r = 0; r < take; r++) {
            const i = index[r]!;
            const t = dist[i]!;
            const from = i * h;
            const to = r * h;
            if (side === 0) for (let u = 0; u < h; u++) pre[to + u] = preZ[from + u]! - t * dir[u]!;
            else for (let u = 0; u < h; u++) pre[to + u] = preZ[from + u]! - t * dir[u]! + shift * dir[u]!;
          }
          return rowsOf(pre, take);
        },
      };
    },
  };
  /** The decoder's hidden pre-activations of `m` latent vectors (m x K), m x h (zero entries skipped). */
  function preActivations(latent: Float64Array, m: number): Float64Array {
    const hidden = new Float64Array(m * h);
    for (let i = 0; i < m; i++) {
      const a = i * h;
      hidden.set(b2, a);
      for (let q = 0; q < K; q++) {
        const v = latent[i * K + q]!;
        if (v === 0) continue;
        const w = q * h;
        for (let u = 0; u < h; u++) hidden[a + u]! += v * W2[w + u]!;
      }
    }
    return hidden;
  }
  /** Rows decoded from `m` hidden pre-activations (m x h): ReLU, the output layer, the transformer. */
  function rowsOf(hidden: Float64Array, m: number): Float64Array {
    const enc = new Float64Array(m * p);
    for (let i = 0; i < m; i++) {
      // The active units (ReLU > 0), then each output as b3 plus their terms in unit order (the sums
      // of the row-by-row layer, accumulated in registers).
      let active = 0;
      for (let u = 0, a = i * h; u < h; u++) {
        const v = hidden[a + u]!;
        if (!(v > 0)) continue;
        unit[active] = u;
        level[active++] = v;
      }
      denseOut(enc.subarray(i * p, (i + 1) * p), b3, W3, p, unit, level, active);
    }
    const rows = new Float64Array(m * transformer.d);
    transformer.decode(enc, m, rows);
    return rows;
  }
  const modes: Record<string, number> = {};
  dataset.schema.attributes.forEach((a, j) => {
    const md = transformer.modes[j];
    if (md) modes[a.name] = md.mean.length;
  });
  return { generator, training: { lossPerEpoch, encodedWidth: p, conditionWidth: C, modes } };
}

/**
 * A dense layer's outputs from its active inputs: out[c] = bias[c] + Σ level[t]·W[unit[t], c] over t in
 * order (W row-major, inputs x p), the sum the layer makes adding one input row after another, here
 * kept in registers four outputs at a time.
 */
function denseOut(
  out: Float64Array,
  bias: Float64Array,
  W: Float64Array,
  p: number,
  unit: Int32Array,
  level: Float64Array,
  active: number,
): void {
  let c = 0;
  for (; c + 4 <= p; c += 4) {
    let o0 = bias[c]!;
    let o1 = bias[c + 1]!;
    let o2 = bias[c + 2]!;
    let o3 = bias[c + 3]!;
    for (let t = 0; t < active; t++) {
      const v = level[t]!;
      const w = unit[t]! * p + c;
      o0 += v * W[w]!;
      o1 += v * W[w + 1]!;
      o2 += v * W[w + 2]!;
      o3 += v * W[w + 3]!;
    }
    out[c] = o0;
    out[c + 1] = o1;
    out[c + 2] = o2;
    out[c + 3] = o3;
  }
  for (; c < p; c++) {
    let o = bias[c]!;
    for (let t = 0; t < active; t++) o += level[t]! * W[unit[t]! * p + c]!;
    out[c] = o;
  }
}

/**
 * The gradient reaching each active input unit of a dense layer (W row-major, inputs x p):
 * into[u] = Σ_c dOut[c]·W[u, c] in column order, four units at a time.
 */
function backUnits(
  into: Float64Array,
  W: Float64Array,
  p: number,
  dOut: Float64Array,
  unit: Int32Array,
  active: number,
): void {
  let t = 0;
  for (; t + 4 <= active; t += 4) {
    const w0 = unit[t]! * p;
    const w1 = unit[t + 1]! * p;
    const w2 = unit[t + 2]! * p;
    const w3 = unit[t + 3]! * p;
    let s0 = 0;
    let s1 = 0;
    let s2 = 0;
    let s3 = 0;
    for (let c = 0; c < p; c++) {
      const g = dOut[c]!;
      s0 += g * W[w0 + c]!;
      s1 += g * W[w1 + c]!;
      s2 += g * W[w2 + c]!;
      s3 += g * W[w3 + c]!;
    }
    into[unit[t]!] = s0;
    into[unit[t + 1]!] = s1;
    into[unit[t + 2]!] = s2;
    into[unit[t + 3]!] = s3;
  }
  for (; t < active; t++) {
    const w = unit[t]! * p;
    let s = 0;
    for (let c = 0; c < p; c++) s += dOut[c]! * W[w + c]!;
    into[unit[t]!] = s;
  }
}

/**
 * A dense layer's weight gradient over a batch of B rows, into a zeroed `grad` (inputs x p):
 * grad[u, c] = Σ_r input[r, u]·dOut[r, c] in row order over the rows where input[r, u] ≠ 0.
 */
function weightGradient(
  grad: Float64Array,
  input: Float64Array,
  h: number,
  dOut: Float64Array,
  p: number,
  B: number,
): void {
  for (let u = 0; u < h; u++) {
    let c = 0;
    for (; c + 4 <= p; c += 4) {
      let g0 = 0;
      let g1 = 0;
      let g2 = 0;
      let g3 = 0;
      for (let r = 0; r < B; r++) {
        const v = input[r * h + u]!;
        if (v === 0) continue;
        const at = r * p + c;
        g0 += v * dOut[at]!;
        g1 += v * dOut[at + 1]!;
        g2 += v * dOut[at + 2]!;
        g3 += v * dOut[at + 3]!;
      }
      const at = u * p + c;
      grad[at] = g0;
      grad[at + 1] = g1;
      grad[at + 2] = g2;
      grad[at + 3] = g3;
    }
    for (; c < p; c++) {
      let g = 0;
      for (let r = 0; r < B; r++) {
        const v = input[r * h + u]!;
        if (v !== 0) g += v * dOut[r * p + c]!;
      }
      grad[u * p + c] = g;
    }
  }
}

/** One Adam step (β = 0.9, 0.999, ε = 1e-8) with PyTorch's weight decay (added to the gradient). */
function adamStep(
  theta: Float64Array,
  grad: Float64Array,
  m1: Float64Array,
  m2: Float64Array,
  t: number,
  lr: number,
): void {
  const c1 = 1 - 0.9 ** t;
  const c2 = 1 - 0.999 ** t;
  for (let i = 0; i < theta.length; i++) {
    const g = grad[i]! + WEIGHT_DECAY * theta[i]!;
    m1[i] = 0.9 * m1[i]! + 0.1 * g;
    m2[i] = 0.999 * m2[i]! + 0.001 * g * g;
    theta[i]! -= (lr * (m1[i]! / c1)) / (Math.sqrt(m2[i]! / c2) + 1e-8);
  }
}
