import { Worker } from 'node:worker_threads';
import { argmaxRows, type Classifier, labelRow, ModelError, type Schema } from '@fb/core';
import { interruptCell, interrupted } from './interrupt.js';

/** How long a blocked wait sleeps before it looks at the interrupt again, in ms. */
const SLICE_MS = 50;

/**
 * Any model behind an asynchronous call, as a synchronous `Classifier`: the call runs in a worker
 * thread, and `predictProba` blocks on `Atomics.wait` until the worker has written the answer into
 * shared memory. The worker source is CommonJS evaluated with `eval`; it receives
 * `{ id, request, control, result, errorText }` (or `{ cancel: id }` when the caller gave up), writes
 * n x K probabilities into `result`, sets `control[2]` to the request's `id`, `control[0]` to 1 (done)
 * or 2 (failed, message in `errorText`, length in `control[1]`) and notifies.
 *
 * Every request has its own id and its own shared buffers, so an answer that comes after its request
 * timed out lands where nobody reads it, never in a later request's place. The wait sleeps in slices of
 * 50 ms and between them looks at the process's interrupt (`interrupt.ts`): a Ctrl-C relayed while the
 * thread is blocked ends the wait with a ModelError within a slice.
 */
export class BlockingClassifier implements Classifier {
  readonly nFeatures: number;
  readonly nClasses: number;
  readonly description: string;
  private closed = false;
  private nextId = 0;
  private readonly batchSize: number;
  private readonly timeoutMs: number;
  private readonly interrupt: Int32Array;

  constructor(
    private readonly worker: Worker,
    private readonly encode: (x: Float64Array, lo: number, hi: number) => unknown,
    init: {
      nFeatures: number;
      nClasses: number;
      description: string;
      batchSize: number;
      timeoutMs: number;
      /** A shared cell that ends a wait when non-zero (default: the process's interrupt). */
      interrupt?: Int32Array;
    },
  ) {
    this.nFeatures = init.nFeatures;
    this.nClasses = init.nClasses;
    this.description = init.description;
    this.batchSize = init.batchSize;
    this.timeoutMs = init.timeoutMs;
    this.interrupt = init.interrupt ?? interruptCell();
    worker.unref();
  }

  private isInterrupted(): boolean {
    return this.interrupt === interruptCell() ? interrupted() : Atomics.load(this.interrupt, 0) !== 0;
  }

  predictProba(x: Float64Array): Float64Array {
    if (this.closed) throw new ModelError('MODEL_MISSING', 'this classifier was closed');
    const d = this.nFeatures;
    const K = this.nClasses;
    const n = x.length / d;
    const out = new Float64Array(n * K);
    for (let lo = 0; lo < n; lo += this.batchSize) {
      const hi = Math.min(n, lo + this.batchSize);
      const id = ++this.nextId;
      const control = new Int32Array(new SharedArrayBuffer(12));
      const errorText = new Uint8Array(new SharedArrayBuffer(4096));
      const result = new Float64Array(new SharedArrayBuffer(Math.max(1, (hi - lo) * K) * 8));
      if (this.isInterrupted()) {
        throw new ModelError('MODEL_OUTPUT', 'interrupted: the model was not asked', { interrupted: true });
      }
      this.worker.postMessage({ id, request: this.encode(x, lo, hi), control, result, errorText });
      const deadline = performance.now() + this.timeoutMs;
      while (Atomics.load(control, 0) === 0) {
        if (this.isInterrupted()) {
          this.worker.postMessage({ cancel: id });
          throw new ModelError('MODEL_OUTPUT', 'interrupted while waiting for the model', {
            interrupted: true,
          });
        }
        const left = deadline - performance.now();
        if (left <= 0) {
          this.worker.postMessage({ cancel: id });
          throw new ModelError(
            'MODEL_OUTPUT',
            `the model gave no answer within ${this.timeoutMs} ms (request ${id}, rows ${lo}..${hi - 1})`,
          );
        }
        Atomics.wait(control, 0, 0, Math.min(SLICE_MS, left));
      }
      if (Atomics.load(control, 2) !== id) {
        throw new ModelError(
          'MODEL_OUTPUT',
          `the answer to request ${Atomics.load(control, 2)} came back for request ${id}`,
        );
      }
      if (Atomics.load(control, 0) === 2) {
        const text = new TextDecoder().decode(errorText.slice(0, Atomics.load(control, 1)));
        throw new ModelError('MODEL_OUTPUT', text);
      }
      out.set(result.subarray(0, (hi - lo) * K), lo * K);
    }
    return out;
  }

  predict(x: Float64Array): Int32Array {
    return argmaxRows(this.predictProba(x), this.nClasses);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.worker.terminate();
  }
}

// POSTs { columns, rows } and reads { probabilities: [[...]] } (outcome label order) or { labels: [...] }.
const ENDPOINT_WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const { url, labels, timeoutMs } = workerData;
const pending = new Map();
parentPort.on('message', async (job) => {
  if (job.cancel !== undefined) {
    pending.get(job.cancel)?.abort();
    pending.delete(job.cancel);
    return;
  }
  const { id, request, control, result, errorText } = job;
  const controller = new AbortController();
  pending.set(id, controller);
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(request),
      signal: controller.signal,
    });
    if (!response.ok) throw new Error(url + ' answered HTTP ' + response.status);
    const body = await response.json();
    const n = request.rows.length;
    const K = labels.length;
    if (body === null || typeof body !== 'object') throw new Error('the endpoint answered ' + JSON.stringify(body) + ', not an object');
    if (Array.isArray(body.probabilities)) {
      if (body.probabilities.length !== n) throw new Error('the endpoint sent ' + body.probabilities.length + ' rows of probabilities for ' + n + ' rows');
      body.probabilities.forEach((p, i) => {
        if (!Array.isArray(p) || p.length !== K) throw new Error('row ' + i + ': expected ' + K + ' probabilities, one per outcome label (' + labels.join(', ') + ')');
        let sum = 0;
        for (let k = 0; k < K; k++) {
          const v = typeof p[k] === 'number' ? p[k] : Number.NaN;
          if (!(v >= 0 && v <= 1)) throw new Error('row ' + i + ': ' + JSON.stringify(p[k]) + ' is not a probability');
          result[i * K + k] = v;
          sum += v;
        }
        if (!(Math.abs(sum - 1) <= 1e-3)) throw new Error('row ' + i + ': the probabilities [' + p.join(', ') + '] sum to ' + sum + ', not 1: send one probability per outcome label (' + labels.join(', ') + ')');
      });
    } else if (Array.isArray(body.labels)) {
      if (body.labels.length !== n) throw new Error('the endpoint sent ' + body.labels.length + ' labels for ' + n + ' rows');
      body.labels.forEach((l, i) => {
        const k = labels.indexOf(String(l));
        if (k < 0) throw new Error('row ' + i + ': "' + l + '" is not an outcome label (' + labels.join(', ') + ')');
        for (let c = 0; c < K; c++) result[i * K + c] = c === k ? 1 : 0;
      });
    } else throw new Error('the endpoint answer holds neither "probabilities" nor "labels"');
    Atomics.store(control, 2, id);
    Atomics.store(control, 0, 1);
  } catch (e) {
    const text = controller.signal.aborted ? 'request ' + id + ' was abandoned (timed out or interrupted)' : String((e && e.message) || e);
    const bytes = new TextEncoder().encode(text).slice(0, errorText.length);
    errorText.set(bytes);
    control[1] = bytes.length;
    Atomics.store(control, 2, id);
    Atomics.store(control, 0, 2);
  } finally {
    clearTimeout(timer);
    pending.delete(id);
  }
  Atomics.notify(control, 0);
});
`;

/**
 * A model served over HTTP: each batch is one POST of `{ "columns": [...], "rows": [[...], ...] }`
 * (category labels for categorical attributes, numbers otherwise), answered by
 * `{ "probabilities": [[...], ...] }` in the outcome's label order (each row summing to 1 within 0.001)
 * or `{ "labels": [...] }`. A batch with no answer within `timeoutMs` (default 120 s) is a ModelError.
 */
export async function loadEndpointClassifier(
  url: string,
  schema: Schema,
  options: { batchSize: number; timeoutMs?: number },
): Promise<BlockingClassifier> {
  try {
    new URL(url);
  } catch {
    throw new ModelError('MODEL_MISSING', `--endpoint: "${url}" is not a URL`);
  }
  const timeoutMs = options.timeoutMs ?? 120_000;
  if (!(Number.isFinite(timeoutMs) && timeoutMs > 0)) {
    throw new ModelError(
      'MODEL_MISSING',
      `the endpoint timeout must be a positive number of ms, not ${timeoutMs}`,
    );
  }
  const worker = new Worker(ENDPOINT_WORKER, {
    eval: true,
    workerData: { url, labels: [...schema.outcome.labels], timeoutMs },
  });
  const names = schema.attributes.map((a) => a.name);
  const numeric = schema.attributes.map((a) => !a.categories);
  const d = names.length;
  const encode = (x: Float64Array, lo: number, hi: number) => {
    const rows: (string | number)[][] = [];
    for (let i = lo; i < hi; i++) {
      const row = x.subarray(i * d, i * d + d);
      const labelled = labelRow(schema, row);
      rows.push(names.map((n, j) => (numeric[j] ? row[j]! : labelled[n]!)));
    }
    return { columns: names, rows };
  };
  return new BlockingClassifier(worker, encode, {
    nFeatures: d,
    nClasses: schema.outcome.labels.length,
    description: `endpoint(${url})`,
    batchSize: options.batchSize,
    timeoutMs,
  });
}
