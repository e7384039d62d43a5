import { CELLS_WASM } from './wasm/cells-wasm.js';
import { layout, lazyModule, ownMemory, type Region, type WasmMemory, wasmApi } from './wasm-api.js';

interface CellsExports {
  addRows(bases: number, weights: number, rows: number, T: number, index: number, sums: number): void;
  addScaledRows(
    bases: number,
    weights: number,
    rows: number,
    T: number,
    index: number,
    value: number,
    sums: number,
  ): void;
  addPairRows(
    bases: number,
    weights: number,
    rows: number,
    T: number,
    index: number,
    value: number,
    other: number,
    sums: number,
  ): void;
  dots(count: number, T: number, index: number, value: number, x: number, start: number, out: number): void;
}

/**
 * What an entry adds of its row's weight w: `unit` w, `scaled` w·value, `pairs` (w·value)·other (a
 * Hessian cell of two encoded columns, multiplied in the order of the plain loop).
 */
export type CellListKind = 'unit' | 'scaled' | 'pairs';

const cellsModule = lazyModule(CELLS_WASM);

export interface CellListsShape {
  /** How many lists, and entries per list. */
  lists: number;
  T: number;
  /** How many sums (cells): every index is below it. */
  size: number;
  /** What each entry adds (see `CellListKind`); `dots` needs values (`scaled` or `pairs`). */
  kind: CellListKind;
  /** 'js' runs the JavaScript loops even where WebAssembly is available. */
  kernels?: 'auto' | 'js';
}

/**
 * Rows whose entries are lists of cells, for the scattered sums of a sparse design: each row names one
 * list of T cells, and a row's weight is added to its cells in row order. Scaled by one value per entry
 * this is Σᵣ wᵣ·zᵣ (a gradient: the lists are the rows' encoded columns and values); unscaled, the
 * one-hot part of a Hessian Σᵣ hᵣ·zᵣₐ·zᵣ꜀, one cell per pair of one-hot attributes; scaled by two values,
 * its other cells. `dots` gives each list's linear score. These loops are most of a logistic fit's time
 * on categorical data.
 *
 * The loops run on WebAssembly (src/wasm/cells.wat) where the runtime has it, else in JavaScript: both
 * add each sum's terms in row order and each dot product's in list order, so the results are the same
 * to the bit (tested).
 *
 * The arrays are views of the module's memory: fill `index` (and `value`, `other`) with the lists, `bases` and
 * `weights` with each row's list offset (its list's number times T) and weight. `reserve` makes room
 * for more rows; when it grows, `bases` and `weights` are new views without their contents (the old
 * ones are detached) and `index`, `value` and `other` are new views with theirs.
 */
export class CellLists {
  readonly T: number;
  readonly size: number;
  readonly kind: CellListKind;
  index: Int32Array;
  value: Float64Array;
  other: Float64Array;
  bases: Int32Array = new Int32Array(0);
  weights: Float64Array = new Float64Array(0);
  private readonly exports: CellsExports | null;
  private readonly memory: WasmMemory | null;
  private readonly indexRegion: Region;
  private readonly valueRegion: Region;
  private readonly otherRegion: Region;
  private readonly sumsRegion: Region;
  /** `dots`' x (up to `size` values) and its out (one per list). */
  private readonly xRegion: Region;
  private readonly outRegion: Region;
  private readonly rowsStart: number;
  private basesRegion: Region = { at: 0, length: 0 };
  private weightsRegion: Region = { at: 0, length: 0 };
  private capacity = 0;
  private sums: Float64Array;
  private x: Float64Array;
  private out: Float64Array;

  constructor(shape: CellListsShape) {
    const { lists, T, size, kind } = shape;
    const values = kind !== 'unit';
    this.T = T;
    this.size = size;
    this.kind = kind;
    const module = shape.kernels === 'js' ? null : cellsModule();
    const entries = lists * T;
    const regions = layout(0);
    this.indexRegion = regions.take(entries, 4);
    this.valueRegion = regions.take(values ? entries : 0);
    this.otherRegion = regions.take(kind === 'pairs' ? entries : 0);
    this.sumsRegion = regions.take(size);
    this.xRegion = regions.take(values ? size : 0);
    this.outRegion = regions.take(values ? lists : 0);
    this.rowsStart = regions.end;
    if (module === null) {
      this.exports = null;
      this.memory = null;
      this.index = new Int32Array(entries);
      this.value = new Float64Array(this.valueRegion.length);
      this.other = new Float64Array(this.otherRegion.length);
      this.sums = new Float64Array(size);
      this.x = new Float64Array(this.xRegion.length);
      this.out = new Float64Array(this.outRegion.length);
      return;
    }
    const memory = ownMemory(regions.end);
    this.memory = memory;
    this.exports = new wasmApi!.Instance(module, { env: { memory } }).exports as CellsExports;
    this.index = new Int32Array(0);
    this.value = this.other = new Float64Array(0);
    this.sums = this.x = this.out = new Float64Array(0);
    this.views();
  }

  /** Whether the loops run on WebAssembly. */
  get wasm(): boolean {
    return this.exports !== null;
  }

  /** Room for `rows` rows' list offsets and weights. */
  reserve(rows: number): void {
    if (rows <= this.capacity) return;
    this.capacity = rows;
    if (this.memory === null) {
      this.bases = new Int32Array(rows);
      this.weights = new Float64Array(rows);
      return;
    }
    const regions = layout(this.rowsStart);
    this.basesRegion = regions.take(rows, 4);
    this.weightsRegion = regions.take(rows);
    const have = this.memory.buffer.byteLength;
    if (regions.end > have) this.memory.grow(Math.ceil((regions.end - have) / 65536));
    this.views();
  }

  private views(): void {
    const buffer = this.memory!.buffer;
    const i32 = (r: Region) => new Int32Array(buffer, r.at, r.length);
    const f64 = (r: Region) => new Float64Array(buffer, r.at, r.length);
    this.index = i32(this.indexRegion);
    this.value = f64(this.valueRegion);
    this.other = f64(this.otherRegion);
    this.sums = f64(this.sumsRegion);
    this.x = f64(this.xRegion);
    this.out = f64(this.outRegion);
    this.bases = i32(this.basesRegion);
    this.weights = f64(this.weightsRegion);
  }

  /**
   * `out[c]` = the sum over rows 0..rows−1, in order, of what each entry of a row's list with index c
   * adds (see `CellListKind`); 0 for a cell no row names. With `add`, `out[c]` += that sum instead: a
   * cell that another set of lists fills, and these leave at 0, keeps its value exactly.
   */
  sum(rows: number, out: Float64Array, add = false): void {
    if (rows > this.capacity)
      throw new RangeError(`sum of ${rows} rows: room was reserved for ${this.capacity}`);
    const { sums, T, index, value, other, bases, weights, kind } = this;
    sums.fill(0);
    if (this.exports !== null) {
      const at = [this.basesRegion.at, this.weightsRegion.at, rows, T, this.indexRegion.at] as const;
      if (kind === 'unit') this.exports.addRows(...at, this.sumsRegion.at);
      else if (kind === 'scaled') this.exports.addScaledRows(...at, this.valueRegion.at, this.sumsRegion.at);
      else this.exports.addPairRows(...at, this.valueRegion.at, this.otherRegion.at, this.sumsRegion.at);
    } else {
      for (let r = 0; r < rows; r++) {
        const w = weights[r]!;
        const end = bases[r]! + T;
        if (kind === 'unit') for (let t = bases[r]!; t < end; t++) sums[index[t]!]! += w;
        else if (kind === 'scaled') for (let t = bases[r]!; t < end; t++) sums[index[t]!]! += w * value[t]!;
        else for (let t = bases[r]!; t < end; t++) sums[index[t]!]! += w * value[t]! * other[t]!;
      }
    }
    if (!add) out.set(sums);
    else for (let c = 0; c < sums.length; c++) out[c] = out[c]! + sums[c]!;
  }

  /**
   * `out[q]` = start + Σₜ x[index[qT + t]]·value[qT + t] for the first `count` lists, added left to
   * right from `start`. `x` has at most `size` values.
   */
  dots(count: number, x: Float64Array, start: number, out: Float64Array): void {
    if (this.kind === 'unit') throw new TypeError("dots needs lists with values ('scaled' or 'pairs')");
    const { T, index, value } = this;
    if (this.exports !== null) {
      this.x.set(x);
      this.exports.dots(
        count,
        T,
        this.indexRegion.at,
        this.valueRegion.at,
        this.xRegion.at,
        start,
        this.outRegion.at,
      );
      out.set(this.out.subarray(0, count));
      return;
    }
    for (let q = 0, t = 0; q < count; q++) {
      let s = start;
      for (const end = t + T; t < end; t++) s += x[index[t]!]! * value[t]!;
      out[q] = s;
    }
  }
}
