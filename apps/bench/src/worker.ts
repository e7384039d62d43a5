import { parentPort } from 'node:worker_threads';
import { setPredictionThreads } from '@fb/models';
import type { Cell } from './plan/cells.js';
import type { CellRecord } from './run/record.js';
import { type CellProgress, cellProgress, runCell } from './run/run-cell.js';

/** Messages between the pool and a worker. */
export type ToWorker = { type: 'run'; cell: Cell };
export type FromWorker =
  | CellProgress
  | { type: 'done'; key: string; record: CellRecord }
  | { type: 'failed'; key: string; error: string; wallSeconds: number };

const port = parentPort;
if (!port) throw new Error('worker.js runs inside a worker thread of the study pool');
// The pool already runs one cell per core: a model's prediction stays on its cell's thread.
setPredictionThreads(1);

port.on('message', async (msg: ToWorker) => {
  const { cell } = msg;
  const t0 = performance.now();
  try {
    const record = await runCell(cell, (p) => port.postMessage(cellProgress(cell, p) satisfies FromWorker));
    port.postMessage({ type: 'done', key: cell.key, record } satisfies FromWorker);
  } catch (e) {
    const error = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
    port.postMessage({
      type: 'failed',
      key: cell.key,
      error,
      wallSeconds: (performance.now() - t0) / 1000,
    } satisfies FromWorker);
  }
});
