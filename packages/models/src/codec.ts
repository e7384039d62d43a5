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

/** `values` unchanged when every entry is finite, else an INTEROP_PARSE error naming `what` and the position. */
export function assertFinite<A extends Float64Array | Float32Array>(values: A, what: string): A {
  for (let i = 0; i < values.length; i++) {
    if (!Number.isFinite(values[i]!)) {
      throw new InteropError('INTEROP_PARSE', `${what}[${i}] is ${values[i]}, not a finite number`);
    }
  }
  return values;
}

/** Throws INTEROP_PARSE for a stored `what` (e.g. "stored MLP: ..."). */
export function storedError(what: string): (msg: string) => never {
  return (msg) => {
    throw new InteropError('INTEROP_PARSE', `stored ${what}: ${msg}`);
  };
}

/** `json` as a stored model of the given format and version, else an INTEROP_PARSE error naming `what`. */
export function readStored<T>(json: unknown, format: string, version: number, what: string): Partial<T> {
  const j = json as (Partial<T> & { format?: unknown; version?: unknown }) | null;
  if (j === null || typeof j !== 'object' || j.format !== format || j.version !== version) {
    storedError(what)(`expected format "${format}" version ${version}`);
  }
  return j as Partial<T>;
}
