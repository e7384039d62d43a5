// A minimal protobuf writer for ONNX ModelProto (field numbers from onnx/onnx.proto), enough to build
// small test models by hand: MatMul + Add (+ Softmax), float or double input.

type Field = Uint8Array;

function varint(value: number | bigint): number[] {
  let v = BigInt(value);
  const out: number[] = [];
  do {
    let byte = Number(v & 0x7fn);
    v >>= 7n;
    if (v > 0n) byte |= 0x80;
    out.push(byte);
  } while (v > 0n);
  return out;
}

const concat = (parts: ArrayLike<number>[]): Uint8Array => {
  const out = new Uint8Array(parts.reduce((s, p) => s + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p as Uint8Array, at);
    at += p.length;
  }
  return out;
};
const int = (field: number, value: number): Field =>
  Uint8Array.from([...varint(field << 3), ...varint(value)]);
const bytes = (field: number, value: Uint8Array): Field =>
  concat([varint((field << 3) | 2), varint(value.length), value]);
const str = (field: number, value: string): Field => bytes(field, new TextEncoder().encode(value));
const msg = (field: number, ...parts: Field[]): Field => bytes(field, concat(parts));

export const FLOAT = 1;
export const DOUBLE = 11;

function tensor(name: string, dims: number[], values: number[], type: number): Field {
  const data = type === FLOAT ? new Float32Array(values) : new Float64Array(values);
  return msg(
    5,
    ...dims.map((d) => int(1, d)),
    int(2, type),
    str(8, name),
    bytes(9, new Uint8Array(data.buffer)),
  );
}

function valueInfo(field: number, name: string, type: number, dims: (number | string)[]): Field {
  const dimFields = dims.map((d) => msg(1, typeof d === 'number' ? int(1, d) : str(2, d)));
  return msg(field, str(1, name), msg(2, msg(1, int(1, type), msg(2, ...dimFields))));
}

function node(op: string, inputs: string[], outputs: string[], attrs: Field[] = []): Field {
  return msg(1, ...inputs.map((i) => str(1, i)), ...outputs.map((o) => str(2, o)), str(4, op), ...attrs);
}

export interface LinearModelSpec {
  /** d x K weights, row-major, and K biases. */
  weights: number[];
  bias: number[];
  d: number;
  /** Append Softmax (probabilities) or leave logits. */
  softmax: boolean;
  type?: number;
  inputName?: string;
  outputName?: string;
  /** Also output the argmax as "label" (int64). */
  withLabel?: boolean;
  /** Declare the input width as a symbolic dimension. */
  symbolicWidth?: boolean;
}

/** ONNX bytes of x ↦ [softmax](x·W + b). */
export function linearModel(spec: LinearModelSpec): Uint8Array {
  const type = spec.type ?? FLOAT;
  const K = spec.bias.length;
  const input = spec.inputName ?? 'x';
  const output = spec.outputName ?? 'probabilities';
  const nodes = [
    node('MatMul', [input, 'W'], ['xw']),
    node('Add', ['xw', 'B'], [spec.softmax ? 'logits' : output]),
  ];
  if (spec.softmax)
    nodes.push(node('Softmax', ['logits'], [output], [msg(5, str(1, 'axis'), int(3, 1), int(20, 2))]));
  const outputs = [valueInfo(12, output, type, ['N', K])];
  if (spec.withLabel) {
    nodes.push(
      node(
        'ArgMax',
        [output],
        ['label'],
        [msg(5, str(1, 'axis'), int(3, 1), int(20, 2)), msg(5, str(1, 'keepdims'), int(3, 0), int(20, 2))],
      ),
    );
    outputs.unshift(valueInfo(12, 'label', 7, ['N']));
  }
  const graph = msg(
    7,
    ...nodes,
    str(2, 'linear'),
    tensor('W', [spec.d, K], spec.weights, type),
    tensor('B', [K], spec.bias, type),
    valueInfo(11, input, type, ['N', spec.symbolicWidth ? 'D' : spec.d]),
    ...outputs,
  );
  return concat([int(1, 8), str(2, 'fairbench-test'), graph, msg(8, str(1, ''), int(2, 13))]);
}
