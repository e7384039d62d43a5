import { InteropError } from '@fb/core';

/** Typed arrays travel in JSON as base64 of their bytes (little-endian): exact and compact. */
export function encodeArray(a: Int32Array | Float64Array | Float32Array): string {
  return Buffer.from(a.buffer, a.byteOffset, a.byteLength).toString('base64');
}

function decodeBytes(text: unknown, bytes: number, what: string): Buffer {
  if (typeof text !== 'string') throw new InteropError('INTEROP_PARSE', `${what} must be a base64 string`);
  const buf = Buffer.from(text, 'base64');
  if (buf.length !== bytes) {
    throw new InteropError('INTEROP_PARSE', `${what} holds ${buf.length} bytes, expected ${bytes}`);
  }
  return buf;
}

export function decodeFloat64(text: unknown, length: number, what: string): Float64Array {
  const buf = decodeBytes(text, length * 8, what);
  const out = new Float64Array(length);
  new Uint8Array(out.buffer).set(buf);
  return out;
}

export function decodeFloat32(text: unknown, length: number, what: string): Float32Array {
  const buf = decodeBytes(text, length * 4, what);
  const out = new Float32Array(length);
  new Uint8Array(out.buffer).set(buf);
  return out;
}

export function decodeInt32(text: unknown, length: number, what: string): Int32Array {
  const buf = decodeBytes(text, length * 4, what);
  const out = new Int32Array(length);
  new Uint8Array(out.buffer).set(buf);
  return out;
}
