import { InteropError } from '@fb/core';

// Just enough protobuf to take a ZipMap off an ONNX ModelProto (field numbers from onnx/onnx.proto):
// ModelProto.graph = 7; GraphProto.node = 1, .output = 12; NodeProto.input = 1, .output = 2,
// .op_type = 4, .attribute = 5; AttributeProto.name = 1, .ints = 8, .strings = 9;
// ValueInfoProto.name = 1, .type = 2; TypeProto.tensor_type = 1; TypeProto.Tensor.elem_type = 1.

interface Field {
  readonly field: number;
  readonly wire: number;
  /** Varint value (wire 0) or the payload (wire 2); fixed-width payloads for wires 1 and 5. */
  readonly value: bigint | Uint8Array;
  /** The field's bytes as written, tag included. */
  readonly raw: Uint8Array;
}

function bad(what: string): never {
  throw new InteropError('INTEROP_PARSE', `cannot read the ONNX model: ${what}`);
}

function readVarint(buf: Uint8Array, at: number): [bigint, number] {
  let v = 0n;
  let shift = 0n;
  for (let i = at; i < buf.length; i++) {
    const b = buf[i]!;
    v |= BigInt(b & 0x7f) << shift;
    if ((b & 0x80) === 0) return [v, i + 1];
    shift += 7n;
  }
  return bad('a varint runs past the end');
}

function fields(buf: Uint8Array): Field[] {
  const out: Field[] = [];
  let at = 0;
  while (at < buf.length) {
    const start = at;
    const [tag, next] = readVarint(buf, at);
    at = next;
    const field = Number(tag >> 3n);
    const wire = Number(tag & 7n);
    let value: bigint | Uint8Array;
    if (wire === 0) [value, at] = readVarint(buf, at);
    else if (wire === 2) {
      const [len, body] = readVarint(buf, at);
      value = buf.subarray(body, body + Number(len));
      at = body + Number(len);
    } else if (wire === 1 || wire === 5) {
      const size = wire === 1 ? 8 : 4;
      value = buf.subarray(at, at + size);
      at += size;
    } else return bad(`unsupported wire type ${wire}`);
    if (at > buf.length) bad('a field runs past the end');
    out.push({ field, wire, value, raw: buf.subarray(start, at) });
  }
  return out;
}

const text = (v: bigint | Uint8Array): string => new TextDecoder().decode(v as Uint8Array);

function varint(value: number): number[] {
  const out: number[] = [];
  let v = value;
  do {
    let byte = v & 0x7f;
    v = Math.floor(v / 128);
    if (v > 0) byte |= 0x80;
    out.push(byte);
  } while (v > 0);
  return out;
}

function concat(parts: readonly ArrayLike<number>[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((s, p) => s + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

const lengthDelimited = (field: number, body: Uint8Array): Uint8Array =>
  concat([varint((field << 3) | 2), varint(body.length), body]);

/** The class labels a ZipMap names, as ONNX stores them (int64 or string). */
export type ClassLabels = { kind: 'int64'; labels: number[] } | { kind: 'string'; labels: string[] };

function zipmapLabels(node: Field[]): ClassLabels {
  for (const f of node) {
    if (f.field !== 5) continue;
    const attr = fields(f.value as Uint8Array);
    const name = text(attr.find((a) => a.field === 1)?.value ?? new Uint8Array());
    if (name === 'classlabels_strings') {
      return { kind: 'string', labels: attr.filter((a) => a.field === 9).map((a) => text(a.value)) };
    }
    if (name === 'classlabels_int64s') {
      const labels: number[] = [];
      for (const a of attr.filter((x) => x.field === 8)) {
        if (a.wire === 0) labels.push(Number(BigInt.asIntN(64, a.value as bigint)));
        else {
          // Packed repeated int64.
          const body = a.value as Uint8Array;
          for (let at = 0; at < body.length; ) {
            const [v, next] = readVarint(body, at);
            labels.push(Number(BigInt.asIntN(64, v)));
            at = next;
          }
        }
      }
      return { kind: 'int64', labels };
    }
  }
  return bad('the ZipMap node names no class labels');
}

export interface Unzipped {
  /** The model with the ZipMap removed and its input tensor exposed as a graph output. */
  readonly bytes: Uint8Array;
  /** Name of that output: the [batch, K] float probabilities the ZipMap read. */
  readonly outputName: string;
  readonly classLabels: ClassLabels;
}

/**
 * Take the ZipMap that produces `output` off the graph: scikit-learn exports (skl2onnx) turn the
 * classifier's [batch, K] probability tensor into a sequence of maps, which ONNX Runtime for Node cannot
 * return; the tensor itself is what a classifier needs. Returns null when `output` is not a ZipMap's.
 */
export function unzipOutput(model: Uint8Array, output: string): Unzipped | null {
  const top = fields(model);
  const graphField = top.find((f) => f.field === 7 && f.wire === 2);
  if (!graphField) return bad('no graph');
  const graph = fields(graphField.value as Uint8Array);
  let zipmap: { field: Field; input: string; node: Field[] } | null = null;
  for (const f of graph) {
    if (f.field !== 1) continue;
    const node = fields(f.value as Uint8Array);
    const op = text(node.find((n) => n.field === 4)?.value ?? new Uint8Array());
    const outputs = node.filter((n) => n.field === 2).map((n) => text(n.value));
    if (op === 'ZipMap' && outputs.includes(output)) {
      const input = node.find((n) => n.field === 1);
      if (!input) bad('the ZipMap node has no input');
      zipmap = { field: f, input: text(input!.value), node };
    }
  }
  if (!zipmap) return null;
  const classLabels = zipmapLabels(zipmap.node);
  // ValueInfoProto { name, type: TypeProto { tensor_type { elem_type: FLOAT } } }; the shape is left
  // to the runtime's inference.
  const tensorType = lengthDelimited(1, Uint8Array.from([0x08, 0x01]));
  const valueInfo = concat([
    lengthDelimited(1, new TextEncoder().encode(zipmap.input)),
    lengthDelimited(2, tensorType),
  ]);
  const graphParts: Uint8Array[] = [];
  for (const f of graph) {
    if (f === zipmap.field) continue;
    if (f.field === 12) {
      const name = text(fields(f.value as Uint8Array).find((v) => v.field === 1)?.value ?? new Uint8Array());
      if (name === output) {
        graphParts.push(lengthDelimited(12, valueInfo));
        continue;
      }
    }
    graphParts.push(f.raw);
  }
  const newGraph = concat(graphParts);
  const bytes = concat(top.map((f) => (f === graphField ? lengthDelimited(7, newGraph) : f.raw)));
  return { bytes, outputName: zipmap.input, classLabels };
}
