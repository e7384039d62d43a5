import { DENSE_WASM } from './wasm/dense-wasm.js';
import { layout, lazyModule, type Region, type WasmMemory, wasmApi } from './wasm-api.js';

/**
 * The MLP's inner loops on WebAssembly SIMD (src/wasm/dense.wat): the same additions in the same order
 * as the typed-array loops of dense-stack.ts, two doubles per instruction, so a network trains and
 * predicts to the same bits either way (tested). The JavaScript loops remain for runtimes without
 * WebAssembly SIMD.
 */
interface DenseExports {
  readonly memory: WasmMemory;
  sparseRows(
    at: number,
    val: number,
    count: number,
    d: number,
    m: number,
    W: number,
    b: number,
    h: number,
    out: number,
  ): void;
  dense(
    x: number,
    m: number,
    inW: number,
    W: number,
    b: number,
    outW: number,
    out: number,
    at: number,
    val: number,
  ): void;
  transpose(W: number, inW: number, outW: number, Wt: number): void;
  backDelta(
    delta: number,
    m: number,
    outW: number,
    Wt: number,
    zeros: number,
    inW: number,
    db: number,
    below: number,
    act: number,
    at: number,
    val: number,
  ): void;
  accumulate(x: number, delta: number, m: number, inW: number, outW: number, gW: number, gb: number): void;
  relu(x: number, n: number): void;
  sparseAccumulate(
    at: number,
    val: number,
    count: number,
    d: number,
    m: number,
    delta0: number,
    h: number,
    g0: number,
    gb0: number,
  ): void;
}

/** The compiled kernels, or null where WebAssembly SIMD is not available. */
const kernelModule = lazyModule(DENSE_WASM);

/** Whether the network's loops run on WebAssembly here (`FB_MLP_KERNELS=js` turns it off). */
export function wasmKernelsAvailable(): boolean {
  return process.env.FB_MLP_KERNELS !== 'js' && kernelModule() !== null;
}

const ACTIVATION_CODE = { relu: 0, tanh: 1, sigmoid: 2 } as const;

/**
 * One network's arrays in its own module instance's memory. The parameters (`W`, `b`) are copies
 * of the network's own arrays, refreshed by `syncParameters`; gradients are accumulated here and
 * copied out. Batch arrays are sized for `capacity` rows; growing them grows the memory, after which
 * every view is made again (views of the old buffer are detached).
 */
export class WasmDense {
  readonly k: DenseExports;
  private readonly sizes: readonly number[];
  readonly act: number;
  /** Per layer: kernel, bias, transposed kernel, kernel gradient, bias gradient. */
  private readonly paramRegions: { W: Region; b: Region; Wt: Region; gW: Region; gb: Region }[] = [];
  private readonly paramOffsets: { W: number; b: number; Wt: number; gW: number; gb: number }[];
  private readonly zerosRegion: Region;
  private readonly nzAtRegion: Region;
  private readonly nzValRegion: Region;
  private readonly batchStart: number;
  private capacity = 0;
  private entries = 0;
  private outRegions: Region[] = [];
  private deltaRegions: Region[] = [];
  private atRegion: Region = { at: 0, length: 0 };
  private valRegion: Region = { at: 0, length: 0 };
  private countRegion: Region = { at: 0, length: 0 };
  /** Views, remade whenever the memory grows. */
  outs: Float64Array[] = [];
  deltas: Float64Array[] = [];
  W: Float64Array[] = [];
  b: Float64Array[] = [];
  gW: Float64Array[] = [];
  gb: Float64Array[] = [];
  entryAt = new Int32Array(0);
  entryVal = new Float64Array(0);
  entryCount = new Int32Array(0);

  constructor(sizes: readonly number[], activation: keyof typeof ACTIVATION_CODE) {
    const module = kernelModule();
    if (!module) throw new Error('WebAssembly SIMD is not available');
    this.k = new wasmApi!.Instance(module, {}).exports as DenseExports;
    this.sizes = sizes;
    this.act = ACTIVATION_CODE[activation];
    const regions = layout(0);
    const take = regions.take;
    for (let l = 0; l + 1 < sizes.length; l++) {
      const n = sizes[l]! * sizes[l + 1]!;
      const w = sizes[l + 1]!;
      this.paramRegions.push({ W: take(n), b: take(w), Wt: take(n), gW: take(n), gb: take(w) });
    }
    this.paramOffsets = this.paramRegions.map((p) => ({
      W: p.W.at,
      b: p.b.at,
      Wt: p.Wt.at,
      gW: p.gW.at,
      gb: p.gb.at,
    }));
    const widest = Math.max(...sizes);
    this.zerosRegion = take(widest);
    this.nzAtRegion = take(widest, 4);
    this.nzValRegion = take(widest);
    this.batchStart = regions.end;
    this.grow(regions.end);
  }

  get zeros(): number {
    return this.zerosRegion.at;
  }
  get nzAt(): number {
    return this.nzAtRegion.at;
  }
  get nzVal(): number {
    return this.nzValRegion.at;
  }
  /** Byte offsets of layer l's kernel, bias, transposed kernel and gradients. */
  paramAt(l: number): {
    readonly W: number;
    readonly b: number;
    readonly Wt: number;
    readonly gW: number;
    readonly gb: number;
  } {
    return this.paramOffsets[l]!;
  }
  outAt(l: number): number {
    return this.outRegions[l]!.at;
  }
  deltaAt(l: number): number {
    return this.deltaRegions[l]!.at;
  }
  get entryAtPtr(): number {
    return this.atRegion.at;
  }
  get entryValPtr(): number {
    return this.valRegion.at;
  }
  get entryCountPtr(): number {
    return this.countRegion.at;
  }

  /** Room for m rows of d first-layer entries each. */
  reserve(m: number, d: number): void {
    if (m <= this.capacity && d <= this.entries) return;
    this.capacity = Math.max(m, this.capacity);
    this.entries = Math.max(d, this.entries);
    const regions = layout(this.batchStart);
    const take = regions.take;
    const cap = this.capacity;
    this.outRegions = this.sizes.slice(1).map((w) => take(cap * w));
    this.deltaRegions = this.sizes.slice(1).map((w) => take(cap * w));
    this.atRegion = take(cap * this.entries, 4);
    this.valRegion = take(cap * this.entries);
    this.countRegion = take(cap, 4);
    this.grow(regions.end);
  }

  private grow(bytes: number): void {
    const memory = this.k.memory;
    const have = memory.buffer.byteLength;
    if (bytes > have) memory.grow(Math.ceil((bytes - have) / 65536));
    const buffer = memory.buffer;
    const f64 = (r: Region) => new Float64Array(buffer, r.at, r.length);
    this.W = this.paramRegions.map((p) => f64(p.W));
    this.b = this.paramRegions.map((p) => f64(p.b));
    this.gW = this.paramRegions.map((p) => f64(p.gW));
    this.gb = this.paramRegions.map((p) => f64(p.gb));
    this.outs = this.outRegions.map(f64);
    this.deltas = this.deltaRegions.map(f64);
    this.entryAt = new Int32Array(buffer, this.atRegion.at, this.atRegion.length);
    this.entryVal = f64(this.valRegion);
    this.entryCount = new Int32Array(buffer, this.countRegion.at, this.countRegion.length);
  }

  /** Copy the network's parameters in, and transpose every kernel past the first (for backDelta). */
  syncParameters(kernels: readonly Float64Array[], biases: readonly Float64Array[]): void {
    for (let l = 0; l < kernels.length; l++) {
      this.W[l]!.set(kernels[l]!);
      this.b[l]!.set(biases[l]!);
      if (l > 0) {
        const p = this.paramRegions[l]!;
        this.k.transpose(p.W.at, this.sizes[l]!, this.sizes[l + 1]!, p.Wt.at);
      }
    }
  }
}
