import { attributeIndex, DataError, ModelError, type Schema } from '@fb/core';
import type { OnnxClassifierOptions } from './options.js';
import type { ClassLabels } from './zipmap.js';

/** What ONNX Runtime reports about one input or output. */
export interface ValueInfo {
  readonly name: string;
  readonly isTensor: boolean;
  readonly type?: string;
  readonly shape?: ReadonlyArray<number | string>;
}

/** One model input fed from one attribute column (a pipeline's named input). */
export interface ColumnInput {
  readonly name: string;
  readonly type: 'string' | 'float32' | 'float64' | 'int64';
  /** Attribute position in the row. */
  readonly column: number;
  /** The attribute's category labels (string inputs get the label of each code). */
  readonly categories: readonly string[] | null;
  /** Dims after the batch size (`[1]` for [batch, 1], `[]` for [batch]). */
  readonly tail: readonly number[];
}

/** The input and output the classifier uses, with the checked widths. */
export interface ModelIO {
  readonly inputName: string;
  readonly inputType: 'float32' | 'float64';
  /** Per-attribute inputs, in place of the single row matrix; null for a [batch, d] model. */
  readonly columns: readonly ColumnInput[] | null;
  readonly outputName: string;
  readonly nFeatures: number;
  readonly nClasses: number;
  /** The output holds one value per row (P(class 1) or its logit). */
  readonly singleColumn: boolean;
  /** Outcome code of each output column, when the model's class labels were matched to the schema's. */
  readonly classOrder: readonly number[] | null;
  /** The class labels the model declares (from its ZipMap), if any. */
  readonly classLabels: readonly (string | number)[] | null;
}

/** One tensor to feed: its input name, element type, values and dims. */
export interface Feed {
  readonly name: string;
  readonly type: string;
  readonly data: Float32Array | Float64Array | BigInt64Array | string[];
  readonly dims: readonly number[];
}

/** The tensors of rows lo..hi-1. */
export function buildFeeds(x: Float64Array, d: number, lo: number, hi: number, io: ModelIO): Feed[] {
  const m = hi - lo;
  if (!io.columns) {
    return [
      { name: io.inputName, type: io.inputType, data: inputSlice(x, d, lo, hi, io.inputType), dims: [m, d] },
    ];
  }
  return io.columns.map((c) => {
    const dims = [m, ...c.tail];
    const at = (i: number) => x[(lo + i) * d + c.column]!;
    if (c.type === 'string') {
      const cats = c.categories;
      const data = Array.from({ length: m }, (_, i) => {
        const v = at(i);
        return cats ? (cats[v] ?? String(v)) : String(v);
      });
      return { name: c.name, type: c.type, data, dims };
    }
    // A numeric input of a categorical attribute takes the label's number (e.g. labels "0", "1").
    const value = (i: number) => (c.categories ? Number(c.categories[at(i)]) : at(i));
    if (c.type === 'int64') {
      const data = new BigInt64Array(m);
      for (let i = 0; i < m; i++) data[i] = BigInt(Math.round(value(i)));
      return { name: c.name, type: c.type, data, dims };
    }
    const data = c.type === 'float32' ? new Float32Array(m) : new Float64Array(m);
    for (let i = 0; i < m; i++) data[i] = value(i);
    return { name: c.name, type: c.type, data, dims };
  });
}

/**
 * Inputs named after the schema's attributes (a scikit-learn pipeline export): one [batch, 1] or [batch]
 * tensor each, string or numeric. Null when some input is not an attribute name.
 */
export function columnInputs(inputs: readonly ValueInfo[], schema: Schema): ColumnInput[] | null {
  const names = new Set(schema.attributes.map((a) => a.name));
  if (inputs.length === 0 || !inputs.every((v) => names.has(v.name))) return null;
  return inputs.map((v) => {
    const a = schema.attributes[attributeIndex(schema, v.name)]!;
    const type = v.type;
    if (!v.isTensor || (type !== 'string' && type !== 'float32' && type !== 'float64' && type !== 'int64')) {
      throw new ModelError(
        'MODEL_MISMATCH',
        `input "${v.name}" must be a string, float or int64 tensor, not ${type ?? 'a non-tensor'}`,
      );
    }
    const shape = v.shape ?? [];
    if (shape.length > 2 || (shape.length === 2 && shape[1] !== 1 && typeof shape[1] === 'number')) {
      throw new ModelError(
        'MODEL_MISMATCH',
        `input "${v.name}" must have shape [batch, 1] or [batch], has [${shape.join(', ')}]`,
      );
    }
    if (a.categories && type !== 'string' && a.categories.some((c) => !Number.isFinite(Number(c)))) {
      throw new ModelError(
        'MODEL_MISMATCH',
        `input "${v.name}" is numeric but attribute "${a.name}" has text categories`,
      );
    }
    return {
      name: v.name,
      type,
      column: schema.attributes.indexOf(a),
      categories: a.categories ?? null,
      tail: shape.length === 2 ? [1] : [],
    };
  });
}

/** Outcome code of each class label (matched by text, else an in-range integer label is the code). */
export function matchClassLabels(labels: ClassLabels, schema: Schema | null): number[] | null {
  if (!schema) return null;
  const outcome = schema.outcome.labels;
  return (labels.labels as (string | number)[]).map((l) => {
    const k = outcome.indexOf(String(l));
    if (k >= 0) return k;
    if (typeof l === 'number' && Number.isInteger(l) && l >= 0 && l < outcome.length) return l;
    throw new ModelError(
      'MODEL_MISMATCH',
      `the model's class "${l}" is not a label of outcome "${schema.outcome.name}" (${outcome.join(', ')})`,
    );
  });
}

/** A raw output tensor: values as numbers, and its dims. */
export interface RawOutput {
  readonly data: ArrayLike<number>;
  readonly dims: readonly number[];
}

const names = (values: readonly ValueInfo[]) => values.map((v) => `"${v.name}"`).join(', ');

/** A ZipMap taken off the model: the tensor output that replaces it and the class labels it named. */
export interface UnzippedOutput {
  readonly outputName: string;
  readonly classLabels: ClassLabels;
}

/** Pick and check the single [batch, d] input. */
function matrixInput(
  inputs: readonly ValueInfo[],
  options: OnnxClassifierOptions,
): { input: ValueInfo; nFeatures: number } {
  let input: ValueInfo | undefined;
  if (options.inputName !== null) {
    input = inputs.find((v) => v.name === options.inputName);
    if (!input) {
      throw new ModelError(
        'MODEL_MISMATCH',
        `the model has no input "${options.inputName}" (inputs: ${names(inputs)})`,
      );
    }
  } else if (inputs.length === 1) input = inputs[0];
  else {
    throw new ModelError(
      'MODEL_MISMATCH',
      `the model has ${inputs.length} inputs (${names(inputs)}): set inputName, or pass the schema when they are named after its attributes`,
    );
  }
  if (!input!.isTensor || (input!.type !== 'float32' && input!.type !== 'float64')) {
    throw new ModelError(
      'MODEL_MISMATCH',
      `input "${input!.name}" must be a float32 or float64 tensor, not ${input!.type ?? 'a non-tensor'}`,
    );
  }
  const inShape = input!.shape ?? [];
  if (inShape.length !== 2) {
    throw new ModelError(
      'MODEL_MISMATCH',
      `input "${input!.name}" must have shape [batch, features], has [${inShape.join(', ')}]`,
    );
  }
  const width = typeof inShape[1] === 'number' && inShape[1] > 0 ? inShape[1] : null;
  if (width !== null && options.nFeatures !== null && width !== options.nFeatures) {
    throw new ModelError(
      'MODEL_MISMATCH',
      `input "${input!.name}" takes ${width} features, nFeatures is ${options.nFeatures}`,
    );
  }
  const nFeatures = options.nFeatures ?? width;
  if (nFeatures === null) {
    throw new ModelError('MODEL_MISMATCH', `input "${input!.name}" has a symbolic width: set nFeatures`);
  }
  return { input: input!, nFeatures };
}

/** Pick and check the input and output against the options. Throws ModelError (MODEL_MISMATCH). */
export function resolveIO(
  inputs: readonly ValueInfo[],
  outputs: readonly ValueInfo[],
  options: OnnxClassifierOptions,
  unzipped: UnzippedOutput | null = null,
): ModelIO {
  const columns = options.schema && options.inputName === null ? columnInputs(inputs, options.schema) : null;
  let inputName = '';
  let inputType: ModelIO['inputType'] = 'float64';
  let nFeatures: number;
  if (columns) {
    nFeatures = options.schema!.attributes.length;
    if (options.nFeatures !== null && options.nFeatures !== nFeatures) {
      throw new ModelError(
        'MODEL_MISMATCH',
        `the schema has ${nFeatures} attributes, nFeatures is ${options.nFeatures}`,
      );
    }
  } else {
    const m = matrixInput(inputs, options);
    inputName = m.input.name;
    inputType = m.input.type as ModelIO['inputType'];
    nFeatures = m.nFeatures;
  }
  if (unzipped) {
    const nClasses = unzipped.classLabels.labels.length;
    if (nClasses < 2 || (options.nClasses !== null && options.nClasses !== nClasses)) {
      throw new ModelError(
        'MODEL_MISMATCH',
        `the model's ZipMap names ${nClasses} classes${options.nClasses !== null ? `, nClasses is ${options.nClasses}` : ''}`,
      );
    }
    return {
      inputName,
      inputType,
      columns,
      outputName: unzipped.outputName,
      nFeatures,
      nClasses,
      singleColumn: false,
      classOrder: matchClassLabels(unzipped.classLabels, options.schema),
      classLabels: [...unzipped.classLabels.labels],
    };
  }
  let output: ValueInfo | undefined;
  if (options.outputName !== null) {
    output = outputs.find((v) => v.name === options.outputName);
    if (!output) {
      throw new ModelError(
        'MODEL_MISMATCH',
        `the model has no output "${options.outputName}" (outputs: ${names(outputs)})`,
      );
    }
  } else {
    const tensors = outputs.filter((v) => v.isTensor);
    output =
      outputs.find((v) => v.name === 'probabilities') ??
      outputs.find((v) => v.name === 'output_probability') ??
      (tensors.length === 1 ? tensors[0] : undefined);
    if (!output) {
      throw new ModelError(
        'MODEL_MISMATCH',
        `cannot tell which output holds the class scores (outputs: ${names(outputs)}): set outputName`,
      );
    }
  }
  if (!output.isTensor) {
    throw new ModelError(
      'MODEL_MISMATCH',
      `output "${output.name}" is not a tensor, nor the output of a ZipMap that could be taken off`,
    );
  }
  const outShape = output.shape ?? [];
  if (outShape.length < 1 || outShape.length > 2) {
    throw new ModelError(
      'MODEL_MISMATCH',
      `output "${output.name}" must have shape [batch, classes] or [batch], has [${outShape.join(', ')}]`,
    );
  }
  const outWidth = outShape.length === 1 ? 1 : typeof outShape[1] === 'number' ? outShape[1] : null;
  const singleColumn = outWidth === 1;
  if (singleColumn && options.nClasses !== null && options.nClasses !== 2) {
    throw new ModelError(
      'MODEL_MISMATCH',
      `output "${output.name}" has one column, which fits two classes, not ${options.nClasses}`,
    );
  }
  if (outWidth !== null && !singleColumn && options.nClasses !== null && outWidth !== options.nClasses) {
    throw new ModelError(
      'MODEL_MISMATCH',
      `output "${output.name}" has ${outWidth} columns, nClasses is ${options.nClasses}`,
    );
  }
  const nClasses = singleColumn ? 2 : (options.nClasses ?? outWidth);
  if (nClasses === null || nClasses < 2) {
    throw new ModelError(
      'MODEL_MISMATCH',
      `output "${output.name}" has a symbolic or single class count: set nClasses`,
    );
  }
  return {
    inputName,
    inputType,
    columns,
    outputName: output.name,
    nFeatures,
    nClasses,
    singleColumn,
    classOrder: null,
    classLabels: null,
  };
}

/** Check a batch's width and finiteness; returns the row count. */
export function batchRows(x: Float64Array, d: number): number {
  if (!(x instanceof Float64Array) || x.length % d !== 0) {
    throw new DataError('DATA_SHAPE', `a batch must be a Float64Array of whole rows of width ${d}`);
  }
  for (let k = 0; k < x.length; k++) {
    if (!Number.isFinite(x[k]!)) {
      throw new DataError(
        'DATA_NOT_FINITE',
        `row ${Math.floor(k / d)}: value ${x[k]} is not a finite number`,
        {
          row: Math.floor(k / d),
        },
      );
    }
  }
  return x.length / d;
}

// Float32 models round their probabilities.
const SLACK = 1e-5;

/** Turn one run's output for rows lo..lo+m-1 into probabilities in `out` (n x K). Throws MODEL_OUTPUT. */
export function writeProbabilities(
  raw: RawOutput,
  m: number,
  io: ModelIO,
  transform: OnnxClassifierOptions['output'],
  out: Float64Array,
  lo: number,
): void {
  const K = io.nClasses;
  const cols = io.singleColumn ? 1 : K;
  if (raw.data.length !== m * cols || raw.dims[0] !== m) {
    throw new ModelError(
      'MODEL_OUTPUT',
      `output "${io.outputName}" has shape [${raw.dims.join(', ')}] for ${m} rows, expected [${m}${io.singleColumn ? '' : `, ${K}`}]`,
    );
  }
  if (io.classOrder) {
    // Read in the model's class order, then place each column at its outcome code.
    const own = new Float64Array(m * K);
    writeProbabilities(raw, m, { ...io, classOrder: null }, transform, own, 0);
    const order = io.classOrder;
    for (let i = 0; i < m; i++) {
      for (let k = 0; k < K; k++) out[(lo + i) * K + order[k]!] = own[i * K + k]!;
    }
    return;
  }
  for (let i = 0; i < m; i++) {
    const o = (lo + i) * K;
    if (io.singleColumn) {
      const v = raw.data[i]!;
      const p = transform === 'logits' ? 1 / (1 + Math.exp(-v)) : v;
      checkProbability(p, lo + i);
      out[o + 1] = Math.min(1, Math.max(0, p));
      out[o] = 1 - out[o + 1]!;
      continue;
    }
    if (transform === 'logits') {
      let top = Number.NEGATIVE_INFINITY;
      for (let k = 0; k < K; k++) top = Math.max(top, raw.data[i * K + k]!);
      if (!Number.isFinite(top)) checkProbability(top, lo + i);
      let sum = 0;
      for (let k = 0; k < K; k++) sum += out[o + k] = Math.exp(raw.data[i * K + k]! - top);
      for (let k = 0; k < K; k++) out[o + k] = out[o + k]! / sum;
      continue;
    }
    let sum = 0;
    for (let k = 0; k < K; k++) {
      const p = raw.data[i * K + k]!;
      checkProbability(p, lo + i);
      out[o + k] = Math.min(1, Math.max(0, p));
      sum += p;
    }
    if (Math.abs(sum - 1) > SLACK * K) {
      throw new ModelError(
        'MODEL_OUTPUT',
        `row ${lo + i}: the probabilities sum to ${sum}; set output: "logits" if the model returns scores`,
        { row: lo + i },
      );
    }
  }
}

function checkProbability(p: number, row: number): void {
  if (!(p >= -SLACK && p <= 1 + SLACK)) {
    throw new ModelError(
      'MODEL_OUTPUT',
      `row ${row}: ${p} is not a probability; set output: "logits" if the model returns scores`,
      {
        row,
      },
    );
  }
}

/** Rows lo..hi-1 in the model's input precision. */
export function inputSlice(
  x: Float64Array,
  d: number,
  lo: number,
  hi: number,
  type: ModelIO['inputType'],
): Float32Array | Float64Array {
  const part = x.subarray(lo * d, hi * d);
  return type === 'float32' ? Float32Array.from(part) : part.slice();
}
