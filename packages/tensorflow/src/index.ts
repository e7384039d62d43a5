import { ModelError } from '@fb/core';
import type * as TfCore from '@tensorflow/tfjs-core';
import type * as TfLayers from '@tensorflow/tfjs-layers';

/** The TensorFlow.js core and layers API, as one namespace. */
export type TensorflowApi = typeof TfCore & typeof TfLayers;
export type TensorflowBackend = 'tensorflow' | 'wasm' | 'cpu';

export interface Tensorflow {
  readonly tf: TensorflowApi;
  /** The backend every model of this process runs on. */
  readonly backend: TensorflowBackend;
}

let loading: Promise<Tensorflow> | null = null;

/**
 * Load TensorFlow.js once per process and pick its backend: `@tensorflow/tfjs-node` when the user has
 * installed it (native, fastest; not a dependency of this package because its install downloads
 * libtensorflow), else the WebAssembly backend, else the pure-JavaScript CPU backend. Every later call
 * returns the same instance, so models fitted by different packages share one backend.
 */
export function loadTensorflow(): Promise<Tensorflow> {
  loading ??= initialise();
  return loading;
}

async function initialise(): Promise<Tensorflow> {
  const core = await import('@tensorflow/tfjs-core');
  const layers = await import('@tensorflow/tfjs-layers');
  const tf = { ...core, ...layers } as TensorflowApi;
  // The module name is a variable so that bundlers and type checking leave the optional import alone.
  const nativeModule = '@tensorflow/tfjs-node';
  try {
    await import(nativeModule);
    if (core.findBackendFactory('tensorflow') && (await core.setBackend('tensorflow'))) {
      return { tf, backend: 'tensorflow' };
    }
  } catch {
    // Not installed (or its native library is missing): fall through.
  }
  try {
    await import('@tensorflow/tfjs-backend-wasm');
    if (await core.setBackend('wasm')) return { tf, backend: 'wasm' };
  } catch {
    // The WebAssembly module could not be loaded: fall through.
  }
  await import('@tensorflow/tfjs-backend-cpu');
  if (await core.setBackend('cpu')) return { tf, backend: 'cpu' };
  throw new ModelError(
    'MODEL_MISSING',
    'no TensorFlow.js backend could be initialised (tensorflow, wasm, cpu)',
  );
}
