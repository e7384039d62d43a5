import { createRequire } from 'node:module';
import { InteropError, ModelError } from '@fb/core';
import type * as Ort from 'onnxruntime-node';
import type { ValueInfo } from './io.js';

/** A model file path or its bytes. */
export type OnnxSource = string | Uint8Array;

/** Where `onnxruntime-node` resolves from this package (it is a peer dependency). */
export function runtimePath(): string {
  try {
    return createRequire(import.meta.url).resolve('onnxruntime-node');
  } catch {
    throw new ModelError(
      'MODEL_MISSING',
      'ONNX models need onnxruntime-node, which is not installed (it is an optional peer of @fb/models-onnx and @fb/cli): ' +
        'run `npm install onnxruntime-node` where @fb/cli or @fb/models-onnx is installed ' +
        '(add --ignore-scripts offline or behind a registry mirror: the CPU runtime is in the package, its install script only fetches GPU libraries), ' +
        'or `npx -p @fb/cli -p onnxruntime-node fairbench ...`',
    );
  }
}

export async function loadRuntime(): Promise<typeof Ort> {
  const path = runtimePath();
  const mod = (await import(path)) as typeof Ort & { default?: typeof Ort };
  return mod.InferenceSession ? mod : mod.default!;
}

export function checkSource(source: OnnxSource): void {
  if (typeof source !== 'string' && !(source instanceof Uint8Array)) {
    throw new ModelError('MODEL_MISSING', 'an ONNX model needs a file path or its bytes (Uint8Array)');
  }
}

/** Create a session; a file that is missing or not an ONNX model throws InteropError. */
export async function createSession(ort: typeof Ort, source: OnnxSource): Promise<Ort.InferenceSession> {
  try {
    // Two calls because the path and bytes overloads differ.
    return typeof source === 'string'
      ? await ort.InferenceSession.create(source)
      : await ort.InferenceSession.create(source);
  } catch (e) {
    throw new InteropError('INTEROP_PARSE', `cannot load the ONNX model: ${(e as Error).message}`);
  }
}

export function valueInfos(values: readonly Ort.InferenceSession.ValueMetadata[]): ValueInfo[] {
  return values.map((v) =>
    v.isTensor
      ? { name: v.name, isTensor: true, type: v.type, shape: [...v.shape] }
      : { name: v.name, isTensor: false },
  );
}

/** Default description: the file name, or the byte count. */
export function describeSource(source: OnnxSource): string {
  return typeof source === 'string' ? `onnx(${source.split(/[\\/]/).pop()})` : `onnx(${source.length} bytes)`;
}
