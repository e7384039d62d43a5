/**
 * The arithmetic of a fully connected network on typed arrays: batched forward passes, backpropagation
 * of a per-row output gradient, and Adam. The first layer reads the encoder's sparse rows (one
 * (column, value) entry per raw attribute), so a one-hot input costs what its non-zero entries cost.
 * Kernels are row-major [inputs][units], as in a dense layer: out = act(in · W + b).
 */

import { WasmDense, wasmKernelsAvailable } from './dense-wasm.js';

export type Activation = 'relu' | 'tanh' | 'sigmoid';

/** Rows of the encoded input: entry `e` of row `r` is (index[r*d+e], value[r*d+e]). */
export interface SparseInput {
  readonly index: Int32Array;
  readonly value: Float64Array;
  /** Entries per row. */
  readonly d: number;
}

export class DenseStack {
  /** Widths: the encoded input, each hidden layer, the classes. */
  readonly sizes: readonly number[];
  /** The parameters. After writing to them, call `parametersChanged` before the next pass. */
  readonly kernels: Float64Array[];
  readonly biases: Float64Array[];
  readonly activation: Activation;
  /** Per layer, the batch's outputs (activations; logits for the last layer), then their gradients. */
  private outs: Float64Array[] = [];
  private deltas: Float64Array[] = [];
  private capacity = 0;
  /** Scratch for one row's non-zero inputs. */
  private readonly nzAt: Int32Array;
  private readonly nzValue: Float64Array;
  /** Per layer, scratch for the kernel's transpose [units][inputs], and zero biases. */
  private readonly transposed: Float64Array[];
  private readonly zeros: Float64Array;
  /** Scratch for transposed activations and deltas of a batch. */
  private xT = new Float64Array(0);
  private dT = new Float64Array(0);
  /** The loops on WebAssembly (null: on typed arrays here), and the parameters it holds a copy of. */
  private readonly wasm: WasmDense | null;
  private parameterVersion = 0;
  private syncedVersion = -1;

  constructor(
    sizes: readonly number[],
    kernels: Float64Array[],
    biases: Float64Array[],
    activation: Activation,
  ) {
    this.sizes = sizes;
    this.kernels = kernels;
    this.biases = biases;
    this.activation = activation;
    const widest = Math.max(...sizes);
    this.nzAt = new Int32Array(widest);
    this.nzValue = new Float64Array(widest);
    this.transposed = kernels.map((k) => new Float64Array(k.length));
    this.zeros = new Float64Array(widest);
    this.wasm = wasmKernelsAvailable() ? new WasmDense(sizes, activation) : null;
  }

  /** Whether the loops run on WebAssembly SIMD (else on typed arrays; the results are the same bits). */
  get onWasm(): boolean {
    return this.wasm !== null;
  }

  /** Call after writing to `kernels` or `biases` (an optimiser's step), before the next pass. */
  parametersChanged(): void {
    this.parameterVersion++;
  }

  get layers(): number {
    return this.kernels.length;
  }

  private reserve(m: number): void {
    if (m <= this.capacity) return;
    this.capacity = m;
    this.outs = this.sizes.slice(1).map((w) => new Float64Array(m * w));
    this.deltas = this.sizes.slice(1).map((w) => new Float64Array(m * w));
    const widest = Math.max(...this.sizes.slice(1));
    this.xT = new Float64Array(m * widest);
    this.dT = new Float64Array(m * widest);
  }

  /**
   * Forward pass of m rows: `rows[r0 + r]` picks row r's entries in `input` (identity when `rows` is
   * null). Returns the logits, m x classes (a view valid until the next call).
   */
  forward(input: SparseInput, rows: Int32Array | null, r0: number, m: number): Float64Array {
    if (this.wasm) return this.forwardWasm(this.wasm, input, rows, r0, m);
    this.reserve(m);
    const L = this.layers;
    const { index, value, d } = input;
    const h = this.sizes[1]!;
    const w0 = this.kernels[0]!;
    const b0 = this.biases[0]!;
    const out0 = this.outs[0]!;
    const nzAt = this.nzAt;
    const nzValue = this.nzValue;
    for (let r = 0; r < m; r++) {
      const i = rows ? rows[r0 + r]! : r0 + r;
      let nz = 0;
      for (let e = i * d; e < i * d + d; e++) {
        const v = value[e]!;
        if (v === 0) continue;
        nzAt[nz] = index[e]! * h;
        nzValue[nz++] = v;
      }
      sumRows(nzAt, nzValue, nz, w0, b0, h, out0, r * h);
    }
    if (L > 1) activate(out0, m * h, this.activation);
    for (let l = 1; l < L; l++) {
      const inW = this.sizes[l]!;
      const outW = this.sizes[l + 1]!;
      dense(
        this.outs[l - 1]!,
        m,
        inW,
        this.kernels[l]!,
        this.biases[l]!,
        outW,
        this.outs[l]!,
        this.nzAt,
        this.nzValue,
      );
      if (l < L - 1) activate(this.outs[l]!, m * outW, this.activation);
    }
    return this.outs[L - 1]!.subarray(0, m * this.sizes[L]!);
  }

  /**
   * Backpropagate `gradOut` (m x classes, the loss gradient w.r.t. the logits of the last forward pass)
   * down to the first layer's pre-activation. When `grads` is given, add each layer's kernel and bias
   * gradients to it (same layout as kernels, biases). Returns the first layer's pre-activation gradient,
   * m x sizes[1] (a view valid until the next call).
   */
  backward(
    input: SparseInput,
    rows: Int32Array | null,
    r0: number,
    m: number,
    gradOut: Float64Array,
    grads: { kernels: Float64Array[]; biases: Float64Array[] } | null,
  ): Float64Array {
    if (this.wasm) return this.backwardWasm(this.wasm, input, rows, r0, m, gradOut, grads);
    const L = this.layers;
    this.deltas[L - 1]!.set(gradOut.subarray(0, m * this.sizes[L]!));
    for (let l = L - 1; l >= 1; l--) {
      const inW = this.sizes[l]!;
      const outW = this.sizes[l + 1]!;
      const delta = this.deltas[l]!;
      const below = this.outs[l - 1]!;
      if (grads)
        accumulate(below, delta, m, inW, outW, grads.kernels[l]!, grads.biases[l]!, this.xT, this.dT);
      // delta_below = (delta · Wᵀ) ⊙ act'(below): each row from its non-zero deltas and the kernel's
      // transpose, four inputs at a time (sumRows).
      const W = this.kernels[l]!;
      const Wt = this.transposed[l]!;
      for (let k = 0; k < inW; k++) for (let u = 0; u < outW; u++) Wt[u * inW + k] = W[k * outW + u]!;
      const db = this.deltas[l - 1]!;
      const { nzAt, nzValue } = this;
      for (let r = 0; r < m; r++) {
        const nz = nonZeros(delta, r * outW, outW, inW, nzAt, nzValue);
        sumRows(nzAt, nzValue, nz, Wt, this.zeros, inW, db, r * inW);
        for (let k = 0; k < inW; k++)
          db[r * inW + k] = db[r * inW + k]! * derivative(below[r * inW + k]!, this.activation);
      }
    }
    const h = this.sizes[1]!;
    const delta0 = this.deltas[0]!;
    if (grads) sparseAccumulate(input, rows, r0, m, delta0, h, grads.kernels[0]!, grads.biases[0]!);
    return delta0.subarray(0, m * h);
  }

  /** The first layer's entries of the batch's rows (non-zero values, column times h) into `w`. */
  private gatherEntries(
    w: WasmDense,
    input: SparseInput,
    rows: Int32Array | null,
    r0: number,
    m: number,
  ): void {
    const { index, value, d } = input;
    const h = this.sizes[1]!;
    const { entryAt, entryVal, entryCount } = w;
    for (let r = 0; r < m; r++) {
      const i = rows ? rows[r0 + r]! : r0 + r;
      let nz = 0;
      for (let e = i * d; e < i * d + d; e++) {
        const v = value[e]!;
        if (v === 0) continue;
        entryAt[r * d + nz] = index[e]! * h;
        entryVal[r * d + nz++] = v;
      }
      entryCount[r] = nz;
    }
  }

  private forwardWasm(
    w: WasmDense,
    input: SparseInput,
    rows: Int32Array | null,
    r0: number,
    m: number,
  ): Float64Array {
    w.reserve(m, input.d);
    this.syncParameters(w);
    const L = this.layers;
    const h = this.sizes[1]!;
    this.gatherEntries(w, input, rows, r0, m);
    const p0 = w.paramAt(0);
    w.k.sparseRows(w.entryAtPtr, w.entryValPtr, w.entryCountPtr, input.d, m, p0.W, p0.b, h, w.outAt(0));
    if (L > 1) this.activateWasm(w, 0, m * h);
    for (let l = 1; l < L; l++) {
      const outW = this.sizes[l + 1]!;
      const p = w.paramAt(l);
      w.k.dense(w.outAt(l - 1), m, this.sizes[l]!, p.W, p.b, outW, w.outAt(l), w.nzAt, w.nzVal);
      if (l < L - 1) this.activateWasm(w, l, m * outW);
    }
    return w.outs[L - 1]!.subarray(0, m * this.sizes[L]!);
  }

  /** Bring the module's copy of the parameters up to date (after `parametersChanged`). */
  private syncParameters(w: WasmDense): void {
    if (this.syncedVersion === this.parameterVersion) return;
    w.syncParameters(this.kernels, this.biases);
    this.syncedVersion = this.parameterVersion;
  }

  /** The activation on layer l's first n outputs: relu on WebAssembly, the others by Math here. */
  private activateWasm(w: WasmDense, l: number, n: number): void {
    if (this.activation === 'relu') w.k.relu(w.outAt(l), n);
    else activate(w.outs[l]!, n, this.activation);
  }

  private backwardWasm(
    w: WasmDense,
    input: SparseInput,
    rows: Int32Array | null,
    r0: number,
    m: number,
    gradOut: Float64Array,
    grads: { kernels: Float64Array[]; biases: Float64Array[] } | null,
  ): Float64Array {
    this.syncParameters(w);
    const L = this.layers;
    w.deltas[L - 1]!.set(gradOut.subarray(0, m * this.sizes[L]!));
    if (grads) {
      for (let l = 0; l < L; l++) {
        w.gW[l]!.set(grads.kernels[l]!);
        w.gb[l]!.set(grads.biases[l]!);
      }
    }
    for (let l = L - 1; l >= 1; l--) {
      const inW = this.sizes[l]!;
      const outW = this.sizes[l + 1]!;
      const p = w.paramAt(l);
      if (grads) w.k.accumulate(w.outAt(l - 1), w.deltaAt(l), m, inW, outW, p.gW, p.gb);
      w.k.backDelta(
        w.deltaAt(l),
        m,
        outW,
        p.Wt,
        w.zeros,
        inW,
        w.deltaAt(l - 1),
        w.outAt(l - 1),
        w.act,
        w.nzAt,
        w.nzVal,
      );
    }
    const h = this.sizes[1]!;
    if (grads) {
      this.gatherEntries(w, input, rows, r0, m);
      const p0 = w.paramAt(0);
      w.k.sparseAccumulate(
        w.entryAtPtr,
        w.entryValPtr,
        w.entryCountPtr,
        input.d,
        m,
        w.deltaAt(0),
        h,
        p0.gW,
        p0.gb,
      );
      for (let l = 0; l < L; l++) {
        grads.kernels[l]!.set(w.gW[l]!);
        grads.biases[l]!.set(w.gb[l]!);
      }
    }
    return w.deltas[0]!.subarray(0, m * h);
  }
}

/**
 * The non-zero values of `src[off .. off+len)` into `value`, and for each its position times `stride`
 * (the offset of its row in a [len][stride] matrix) into `at`. Returns how many.
 */
function nonZeros(
  src: Float64Array,
  off: number,
  len: number,
  stride: number,
  at: Int32Array,
  value: Float64Array,
): number {
  let nz = 0;
  for (let k = 0; k < len; k++) {
    const a = src[off + k]!;
    if (a !== 0) {
      at[nz] = k * stride;
      value[nz++] = a;
    }
  }
  return nz;
}

/**
 * out = in · W + b for m rows. Each row's non-zero inputs (after relu, about half) are gathered first,
 * then every output is one register sum over them.
 */
function dense(
  x: Float64Array,
  m: number,
  inW: number,
  W: Float64Array,
  b: Float64Array,
  outW: number,
  out: Float64Array,
  nzAt: Int32Array,
  nzValue: Float64Array,
): void {
  for (let r = 0; r < m; r++) {
    const nz = nonZeros(x, r * inW, inW, outW, nzAt, nzValue);
    sumRows(nzAt, nzValue, nz, W, b, outW, out, r * outW);
  }
}

/**
 * out[o .. o+outW) = b + Σ_t value[t] · W[at[t] .. at[t]+outW): four outputs at a time, each in its own
 * register sum (independent additions instead of one chain, no stores inside the loop).
 */
function sumRows(
  at: Int32Array,
  value: Float64Array,
  nz: number,
  W: Float64Array,
  b: Float64Array,
  outW: number,
  out: Float64Array,
  o: number,
): void {
  let u = 0;
  for (; u + 4 <= outW; u += 4) {
    let s0 = b[u]!;
    let s1 = b[u + 1]!;
    let s2 = b[u + 2]!;
    let s3 = b[u + 3]!;
    for (let t = 0; t < nz; t++) {
      const v = value[t]!;
      const w = at[t]! + u;
      s0 += v * W[w]!;
      s1 += v * W[w + 1]!;
      s2 += v * W[w + 2]!;
      s3 += v * W[w + 3]!;
    }
    out[o + u] = s0;
    out[o + u + 1] = s1;
    out[o + u + 2] = s2;
    out[o + u + 3] = s3;
  }
  for (; u < outW; u++) {
    let s = b[u]!;
    for (let t = 0; t < nz; t++) s += value[t]! * W[at[t]! + u]!;
    out[o + u] = s;
  }
}

/** gW += xᵀ · delta, gb += Σ_r delta. */
function accumulate(
  x: Float64Array,
  delta: Float64Array,
  m: number,
  inW: number,
  outW: number,
  gW: Float64Array,
  gb: Float64Array,
  xT: Float64Array,
  dT: Float64Array,
): void {
  // Transposed copies make every gradient entry a register sum over the batch's rows.
  for (let r = 0; r < m; r++) {
    for (let k = 0; k < inW; k++) xT[k * m + r] = x[r * inW + k]!;
    for (let u = 0; u < outW; u++) {
      const g = delta[r * outW + u]!;
      dT[u * m + r] = g;
      gb[u] += g;
    }
  }
  for (let k = 0; k < inW; k++) {
    const xk = k * m;
    const wk = k * outW;
    let u = 0;
    for (; u + 4 <= outW; u += 4) {
      const d0 = u * m;
      let s0 = 0;
      let s1 = 0;
      let s2 = 0;
      let s3 = 0;
      for (let r = 0; r < m; r++) {
        const a = xT[xk + r]!;
        s0 += a * dT[d0 + r]!;
        s1 += a * dT[d0 + m + r]!;
        s2 += a * dT[d0 + 2 * m + r]!;
        s3 += a * dT[d0 + 3 * m + r]!;
      }
      gW[wk + u] += s0;
      gW[wk + u + 1] += s1;
      gW[wk + u + 2] += s2;
      gW[wk + u + 3] += s3;
    }
    for (; u < outW; u++) {
      let s = 0;
      for (let r = 0; r < m; r++) s += xT[xk + r]! * dT[u * m + r]!;
      gW[wk + u] += s;
    }
  }
}

/** The first layer's gradients from sparse input rows: gW0[column] += value · delta0 row, gb0 += delta0 row. */
function sparseAccumulate(
  input: SparseInput,
  rows: Int32Array | null,
  r0: number,
  m: number,
  delta0: Float64Array,
  h: number,
  g0: Float64Array,
  gb0: Float64Array,
): void {
  const { index, value, d } = input;
  for (let r = 0; r < m; r++) {
    const i = rows ? rows[r0 + r]! : r0 + r;
    const o = r * h;
    for (let u = 0; u < h; u++) gb0[u] += delta0[o + u]!;
    for (let e = i * d; e < i * d + d; e++) {
      const v = value[e]!;
      if (v === 0) continue;
      const k = index[e]! * h;
      for (let u = 0; u < h; u++) g0[k + u] += v * delta0[o + u]!;
    }
  }
}

function activate(x: Float64Array, len: number, act: Activation): void {
  if (act === 'relu') for (let i = 0; i < len; i++) x[i] = Math.max(x[i]!, 0);
  else if (act === 'tanh') for (let i = 0; i < len; i++) x[i] = Math.tanh(x[i]!);
  else for (let i = 0; i < len; i++) x[i] = 1 / (1 + Math.exp(-x[i]!));
}

/** The activation's derivative, from its output. */
function derivative(a: number, act: Activation): number {
  if (act === 'relu') return a > 0 ? 1 : 0;
  if (act === 'tanh') return 1 - a * a;
  return a * (1 - a);
}

/** Softmax of each row of `logits` (m x K) into `out`. */
export function softmaxRows(logits: Float64Array, m: number, K: number, out: Float64Array, outOff = 0): void {
  for (let r = 0; r < m; r++) {
    let top = Number.NEGATIVE_INFINITY;
    for (let k = 0; k < K; k++) top = Math.max(top, logits[r * K + k]!);
    let sum = 0;
    for (let k = 0; k < K; k++) {
      const e = Math.exp(logits[r * K + k]! - top);
      out[outOff + r * K + k] = e;
      sum += e;
    }
    for (let k = 0; k < K; k++) out[outOff + r * K + k] = out[outOff + r * K + k]! / sum;
  }
}

/**
 * Adam (Kingma and Ba) with TensorFlow.js's conventions: ε = 1e-7 added to √v̂, bias corrections by
 * running powers of β₁ and β₂.
 */
export class Adam {
  private readonly m: Float64Array[];
  private readonly v: Float64Array[];
  private beta1Power = 1;
  private beta2Power = 1;
  constructor(
    params: Float64Array[],
    private readonly rate: number,
    private readonly beta1 = 0.9,
    private readonly beta2 = 0.999,
    private readonly epsilon = 1e-7,
  ) {
    this.m = params.map((p) => new Float64Array(p.length));
    this.v = params.map((p) => new Float64Array(p.length));
  }

  /** One step on each parameter array with its gradient (same order as at construction). */
  step(params: Float64Array[], grads: Float64Array[]): void {
    const { beta1, beta2, epsilon } = this;
    this.beta1Power *= beta1;
    this.beta2Power *= beta2;
    const c1 = 1 - this.beta1Power;
    const c2 = 1 - this.beta2Power;
    for (let q = 0; q < params.length; q++) {
      const p = params[q]!;
      const g = grads[q]!;
      const m = this.m[q]!;
      const v = this.v[q]!;
      for (let i = 0; i < p.length; i++) {
        const gi = g[i]!;
        const mi = beta1 * m[i]! + (1 - beta1) * gi;
        const vi = beta2 * v[i]! + (1 - beta2) * gi * gi;
        m[i] = mi;
        v[i] = vi;
        p[i] = p[i]! - (this.rate * (mi / c1)) / (Math.sqrt(vi / c2) + epsilon);
      }
    }
  }
}
