import { Worker } from 'node:worker_threads';
import { argmaxRows, type Classifier, labelRow, ModelError, type Schema } from '@fb/core';

/**
 * Any model behind an asynchronous call, as a synchronous `Classifier`: the call runs in a worker
 * thread, and `predictProba` blocks on `Atomics.wait` until the worker has written the answer into
 * shared memory. The worker source is CommonJS evaluated with `eval`; it receives
 * `{ request, control, result, errorText }`, writes n x K probabilities into `result`, sets
 * `control[0]` to 1 (done) or 2 (failed, message in `errorText`, length in `control[1]`) and notifies.
 */
export class BlockingClassifier implements Classifier {
  readonly nFeatures: number;
  readonly nClasses: number;
  readonly description: string;
  private readonly control = new Int32Array(new SharedArrayBuffer(8));
  private readonly errorText = new Uint8Array(new SharedArrayBuffer(4096));
  private closed = false;

  constructor(
    private readonly worker: Worker,
    private readonly encode: (x: Float64Array, lo: number, hi: number) => unknown,
    init: { nFeatures: number; nClasses: number; description: string; batchSize: number; timeoutMs: number },
  ) {
    this.nFeatures = init.nFeatures;
    this.nClasses = init.nClasses;
    this.description = init.description;
    this.batchSize = init.batchSize;
    this.timeoutMs = init.timeoutMs;
    worker.unref();
  }

  private readonly batchSize: number;
  private readonly timeoutMs: number;

  predictProba(x: Float64Array): Float64Array {
    if (this.closed) throw new ModelError('MODEL_MISSING', 'this classifier was closed');
    const d = this.nFeatures;
    const K = this.nClasses;
    const n = x.length / d;
    const out = new Float64Array(n * K);
    for (let lo = 0; lo < n; lo += this.batchSize) {
      const hi = Math.min(n, lo + this.batchSize);
      const result = new Float64Array(new SharedArrayBuffer(Math.max(1, (hi - lo) * K) * 8));
      Atomics.store(this.control, 0, 0);
      this.worker.postMessage({
        request: this.encode(x, lo, hi),
        control: this.control,
        result,
        errorText: this.errorText,
      });
      if (Atomics.wait(this.control, 0, 0, this.timeoutMs) === 'timed-out') {
        throw new ModelError('MODEL_OUTPUT', `the model gave no answer within ${this.timeoutMs} ms`);
      }
      if (Atomics.load(this.control, 0) === 2) {
        const text = new TextDecoder().decode(this.errorText.slice(0, Atomics.load(this.control, 1)));
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
const { url, labels } = workerData;
parentPort.on('message', async (job) => {
  const { request, control, result, errorText } = job;
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(request),
    });
    if (!response.ok) throw new Error(url + ' answered HTTP ' + response.status);
    const body = await response.json();
    const n = request.rows.length;
    const K = labels.length;
    if (Array.isArray(body.probabilities)) {
      if (body.probabilities.length !== n) throw new Error('the endpoint sent ' + body.probabilities.length + ' rows of probabilities for ' + n + ' rows');
      body.probabilities.forEach((p, i) => {
        if (!Array.isArray(p) || p.length !== K) throw new Error('row ' + i + ': expected ' + K + ' probabilities');
        for (let k = 0; k < K; k++) {
          const v = Number(p[k]);
          if (!(v >= 0 && v <= 1)) throw new Error('row ' + i + ': ' + p[k] + ' is not a probability');
          result[i * K + k] = v;
        }
      });
    } else if (Array.isArray(body.labels)) {
      if (body.labels.length !== n) throw new Error('the endpoint sent ' + body.labels.length + ' labels for ' + n + ' rows');
      body.labels.forEach((l, i) => {
        const k = labels.indexOf(String(l));
        if (k < 0) throw new Error('row ' + i + ': "' + l + '" is not an outcome label (' + labels.join(', ') + ')');
        for (let c = 0; c < K; c++) result[i * K + c] = c === k ? 1 : 0;
      });
    } else throw new Error('the endpoint answer holds neither "probabilities" nor "labels"');
    Atomics.store(control, 0, 1);
  } catch (e) {
    const bytes = new TextEncoder().encode(String((e && e.message) || e)).slice(0, errorText.length);
    errorText.set(bytes);
    control[1] = bytes.length;
    Atomics.store(control, 0, 2);
  }
  Atomics.notify(control, 0);
});
`;

/**
 * A model served over HTTP: each batch is one POST of `{ "columns": [...], "rows": [[...], ...] }`
 * (category labels for categorical attributes, numbers otherwise), answered by
 * `{ "probabilities": [[...], ...] }` in the outcome's label order or `{ "labels": [...] }`.
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
  const worker = new Worker(ENDPOINT_WORKER, {
    eval: true,
    workerData: { url, labels: [...schema.outcome.labels] },
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
    timeoutMs: options.timeoutMs ?? 120_000,
  });
}
