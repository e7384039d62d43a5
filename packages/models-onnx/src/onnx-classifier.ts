import { readFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { argmaxRows, type Classifier, InteropError, ModelError, resolveOptions } from '@fb/core';
import type * as Ort from 'onnxruntime-node';
import {
  batchRows,
  buildFeeds,
  type ModelIO,
  type RawOutput,
  resolveIO,
  type UnzippedOutput,
  writeProbabilities,
} from './io.js';
import { type OnnxClassifierOptions, onnxClassifierOptionsSchema } from './options.js';
import {
  checkSource,
  createSession,
  describeSource,
  loadRuntime,
  type OnnxSource,
  runtimePath,
  valueInfos,
} from './runtime.js';
import { WORKER_SOURCE } from './worker-source.js';
import { unzipOutput } from './zipmap.js';

/** A classifier whose queries are asynchronous, as ONNX Runtime's `session.run` is. */
export interface AsyncClassifier {
  readonly nFeatures: number;
  readonly nClasses: number;
  readonly description: string;
  predictAsync(x: Float64Array): Promise<Int32Array>;
  predictProbaAsync(x: Float64Array): Promise<Float64Array>;
}

interface Shared {
  readonly io: ModelIO;
  readonly options: OnnxClassifierOptions;
  readonly description: string;
}

/**
 * An ONNX model run on the calling thread with ONNX Runtime's asynchronous API: each batch of up to
 * `batchSize` rows is one `session.run`.
 */
export class OnnxAsyncClassifier implements AsyncClassifier {
  readonly nFeatures: number;
  readonly nClasses: number;
  readonly description: string;
  readonly inputName: string;
  readonly outputName: string;
  /** Class labels the model declares (its ZipMap's), or null. */
  readonly classLabels: readonly (string | number)[] | null;
  private readonly shared: Shared;
  private readonly ort: typeof Ort;
  private readonly session: Ort.InferenceSession;

  /** @internal Use `loadOnnxAsyncClassifier`. */
  constructor(ort: typeof Ort, session: Ort.InferenceSession, shared: Shared) {
    this.ort = ort;
    this.session = session;
    this.shared = shared;
    this.nFeatures = shared.io.nFeatures;
    this.nClasses = shared.io.nClasses;
    this.description = shared.description;
    this.inputName = shared.io.inputName;
    this.outputName = shared.io.outputName;
    this.classLabels = shared.io.classLabels;
  }

  async predictProbaAsync(x: Float64Array): Promise<Float64Array> {
    const { io, options } = this.shared;
    const d = io.nFeatures;
    const n = batchRows(x, d);
    const out = new Float64Array(n * io.nClasses);
    for (let lo = 0; lo < n; lo += options.batchSize) {
      const hi = Math.min(n, lo + options.batchSize);
      const feeds: Record<string, Ort.Tensor> = {};
      for (const f of buildFeeds(x, d, lo, hi, io)) {
        feeds[f.name] = new this.ort.Tensor(f.type as 'string', f.data as string[], [...f.dims]);
      }
      let result: Ort.InferenceSession.OnnxValueMapType;
      try {
        result = await this.session.run(feeds, [io.outputName]);
      } catch (e) {
        throw new ModelError('MODEL_OUTPUT', `the ONNX session failed: ${(e as Error).message}`);
      }
      const t = result[io.outputName] as Ort.Tensor;
      writeProbabilities(toRaw(t.data, t.dims), hi - lo, io, options.output, out, lo);
    }
    return out;
  }

  async predictAsync(x: Float64Array): Promise<Int32Array> {
    return argmaxRows(await this.predictProbaAsync(x), this.nClasses);
  }

  async release(): Promise<void> {
    await this.session.release();
  }
}

function toRaw(data: unknown, dims: readonly number[]): RawOutput {
  const values = data as ArrayLike<number | bigint>;
  if (typeof values[0] === 'bigint') return { data: Array.from(values, Number), dims };
  return { data: values as ArrayLike<number>, dims };
}

// Control words shared with the worker: state (0 waiting, 1 done, 2 failed), output length, rank, dims.
const STATE = 0;
const LENGTH = 1;
const RANK = 2;
const DIMS = 3;
const ERROR_BYTES = 4096;

/**
 * An ONNX model behind the synchronous `Classifier` contract. ONNX Runtime for Node only runs sessions
 * asynchronously, and a promise cannot be awaited inside a synchronous call on the same thread; so the
 * session lives in a worker thread and `predict` posts the batch to it, then blocks on `Atomics.wait`
 * until the worker has written the output into shared memory. Call `close()` to end the worker.
 */
export class OnnxClassifier implements Classifier {
  readonly nFeatures: number;
  readonly nClasses: number;
  readonly description: string;
  readonly inputName: string;
  readonly outputName: string;
  /** Class labels the model declares (its ZipMap's), or null. */
  readonly classLabels: readonly (string | number)[] | null;
  private readonly shared: Shared;
  private readonly worker: Worker;
  private readonly control = new Int32Array(new SharedArrayBuffer(32));
  private readonly errorText = new Uint8Array(new SharedArrayBuffer(ERROR_BYTES));
  private closed = false;

  /** @internal Use `loadOnnxClassifier`. */
  constructor(worker: Worker, shared: Shared) {
    this.worker = worker;
    this.shared = shared;
    this.nFeatures = shared.io.nFeatures;
    this.nClasses = shared.io.nClasses;
    this.description = shared.description;
    this.inputName = shared.io.inputName;
    this.outputName = shared.io.outputName;
    this.classLabels = shared.io.classLabels;
  }

  predictProba(x: Float64Array): Float64Array {
    if (this.closed) throw new ModelError('MODEL_MISSING', 'this ONNX classifier was closed');
    const { io, options } = this.shared;
    const d = io.nFeatures;
    const n = batchRows(x, d);
    const out = new Float64Array(n * io.nClasses);
    const cols = io.singleColumn ? 1 : io.nClasses;
    for (let lo = 0; lo < n; lo += options.batchSize) {
      const hi = Math.min(n, lo + options.batchSize);
      const m = hi - lo;
      const result = new Float64Array(new SharedArrayBuffer(Math.max(1, m * cols) * 8));
      Atomics.store(this.control, STATE, 0);
      this.worker.postMessage({
        feeds: buildFeeds(x, d, lo, hi, io),
        outputName: io.outputName,
        control: this.control,
        result,
        errorText: this.errorText,
      });
      if (Atomics.wait(this.control, STATE, 0, options.timeoutMs) === 'timed-out') {
        throw new ModelError(
          'MODEL_OUTPUT',
          `the ONNX session gave no answer within ${options.timeoutMs} ms`,
        );
      }
      if (Atomics.load(this.control, STATE) === 2) {
        const len = Atomics.load(this.control, LENGTH);
        const text = new TextDecoder().decode(this.errorText.slice(0, len));
        throw new ModelError('MODEL_OUTPUT', `the ONNX session failed: ${text}`);
      }
      const rank = this.control[RANK]!;
      const dims = Array.from(this.control.subarray(DIMS, DIMS + rank));
      writeProbabilities(
        { data: result.subarray(0, this.control[LENGTH]!), dims },
        m,
        io,
        options.output,
        out,
        lo,
      );
    }
    return out;
  }

  predict(x: Float64Array): Int32Array {
    return argmaxRows(this.predictProba(x), this.nClasses);
  }

  /** End the worker thread (and its session). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.worker.terminate();
  }
}

function prepare(source: OnnxSource, options: Partial<OnnxClassifierOptions>): OnnxClassifierOptions {
  checkSource(source);
  // The schema is an object of its own kind: validated by defineSchema, not by the options schema.
  const { schema = null, ...rest } = options;
  return {
    ...resolveOptions<OnnxClassifierOptions>(onnxClassifierOptionsSchema, rest),
    schema,
  };
}

/**
 * The model's bytes, with the ZipMap that a scikit-learn export puts on its probabilities taken off
 * (ONNX Runtime for Node returns tensors only).
 */
function unzipped(
  source: OnnxSource,
  options: OnnxClassifierOptions,
): {
  source: OnnxSource;
  unzipped: UnzippedOutput | null;
} {
  let bytes: Uint8Array;
  try {
    bytes = typeof source === 'string' ? readFileSync(source) : source;
  } catch (e) {
    throw new InteropError('INTEROP_PARSE', `cannot load the ONNX model: ${(e as Error).message}`);
  }
  const wanted = options.outputName ?? 'output_probability';
  let result: ReturnType<typeof unzipOutput> = null;
  try {
    result = unzipOutput(bytes, wanted);
  } catch {
    // Not readable here: the runtime reports what is wrong with the file.
    return { source, unzipped: null };
  }
  if (!result) return { source, unzipped: null };
  return {
    source: result.bytes,
    unzipped: { outputName: result.outputName, classLabels: result.classLabels },
  };
}

/**
 * Load an ONNX classifier to query asynchronously on the calling thread (no worker). Input and output are
 * chosen and checked as in `loadOnnxClassifier`.
 */
export async function loadOnnxAsyncClassifier(
  source: OnnxSource,
  options: Partial<OnnxClassifierOptions> = {},
): Promise<OnnxAsyncClassifier> {
  const opts = prepare(source, options);
  const ort = await loadRuntime();
  const model = unzipped(source, opts);
  const session = await createSession(ort, model.source);
  const io = resolveIO(
    valueInfos(session.inputMetadata),
    valueInfos(session.outputMetadata),
    opts,
    model.unzipped,
  );
  return new OnnxAsyncClassifier(ort, session, {
    io,
    options: opts,
    description: opts.description ?? describeSource(source),
  });
}

/**
 * Load an ONNX classifier (a file path or the model's bytes) as a synchronous `Classifier` for the
 * detectors. The input must be a float32/float64 tensor [batch, d] and the output a tensor [batch, K] of
 * probabilities (or logits with `output: 'logits'`; one column = P(class 1)). Wrong names or shapes throw
 * ModelError (MODEL_MISMATCH), an unreadable model InteropError, a bad output at query time ModelError
 * (MODEL_OUTPUT).
 */
export async function loadOnnxClassifier(
  source: OnnxSource,
  options: Partial<OnnxClassifierOptions> = {},
): Promise<OnnxClassifier> {
  const opts = prepare(source, options);
  const model = unzipped(source, opts);
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: {
      runtime: runtimePath(),
      source: typeof model.source === 'string' ? model.source : model.source.slice(),
    },
  });
  const ready = await new Promise<{ inputs?: unknown; outputs?: unknown; error?: string }>(
    (resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    },
  ).catch(async (e: Error) => {
    await worker.terminate();
    throw new ModelError('MODEL_MISSING', `the ONNX worker failed to start: ${e.message}`);
  });
  try {
    if (ready.error !== undefined)
      throw new InteropError('INTEROP_PARSE', `cannot load the ONNX model: ${ready.error}`);
    const io = resolveIO(
      valueInfos(ready.inputs as never),
      valueInfos(ready.outputs as never),
      opts,
      model.unzipped,
    );
    worker.unref();
    return new OnnxClassifier(worker, {
      io,
      options: opts,
      description: opts.description ?? describeSource(source),
    });
  } catch (e) {
    await worker.terminate();
    throw e;
  }
}
