import { DataError, ModelError } from '@fb/core';
import type { OnnxClassifierOptions } from './options.js';

/** What ONNX Runtime reports about one input or output. */
export interface ValueInfo {
  readonly name: string;
  readonly isTensor: boolean;
  readonly type?: string;
  readonly shape?: ReadonlyArray<number | string>;
}

/** The input and output the classifier uses, with the checked widths. */
export interface ModelIO {
  readonly inputName: string;
  readonly inputType: 'float32' | 'float64';
  readonly outputName: string;
  readonly nFeatures: number;
  readonly nClasses: number;
  /** The output holds one value per row (P(class 1) or its logit). */
  readonly singleColumn: boolean;
}

/** A raw output tensor: values as numbers, and its dims. */
export interface RawOutput {
  readonly data: ArrayLike<number>;
  readonly dims: readonly number[];
}

const names = (values: readonly ValueInfo[]) => values.map((v) => `"${v.name}"`).join(', ');

/** Pick and check the input and output against the options. Throws ModelError (MODEL_MISMATCH). */
export function resolveIO(
  inputs: readonly ValueInfo[],
  outputs: readonly ValueInfo[],
  options: OnnxClassifierOptions,
): ModelIO {
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
      `the model has ${inputs.length} inputs (${names(inputs)}): set inputName`,
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
      outputs.find((v) => v.name === 'probabilities') ?? (tensors.length === 1 ? tensors[0] : undefined);
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
      `output "${output.name}" is not a tensor (a ZipMap of probabilities?): export the model with zipmap disabled`,
    );
  }
  const outShape = output.shape ?? [];
  if (outShape.length < 1 || outShape.length > 2) {
    throw new ModelError(
      'MODEL_MISMATCH',
      `output "${output.name}" must have shape [batch, classes] or [batch], has [${outShape.join(', ')}]`,
    );
  }
  const columns = outShape.length === 1 ? 1 : typeof outShape[1] === 'number' ? outShape[1] : null;
  const singleColumn = columns === 1;
  if (singleColumn && options.nClasses !== null && options.nClasses !== 2) {
    throw new ModelError(
      'MODEL_MISMATCH',
      `output "${output.name}" has one column, which fits two classes, not ${options.nClasses}`,
    );
  }
  if (columns !== null && !singleColumn && options.nClasses !== null && columns !== options.nClasses) {
    throw new ModelError(
      'MODEL_MISMATCH',
      `output "${output.name}" has ${columns} columns, nClasses is ${options.nClasses}`,
    );
  }
  const nClasses = singleColumn ? 2 : (options.nClasses ?? columns);
  if (nClasses === null || nClasses < 2) {
    throw new ModelError(
      'MODEL_MISMATCH',
      `output "${output.name}" has a symbolic or single class count: set nClasses`,
    );
  }
  return {
    inputName: input!.name,
    inputType: input!.type,
    outputName: output.name,
    nFeatures,
    nClasses,
    singleColumn,
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
