import { parentPort } from 'node:worker_threads';
import { type Cell, cellProgress, runCell } from '@fb/bench';
import type { FromThread } from './cell-threads.js';

const port = parentPort;
if (!port) throw new Error('cell-thread.js runs inside a worker thread of a queue worker');

port.on('message', async (cell: Cell) => {
  const post = (msg: FromThread) => port.postMessage(msg);
  try {
    const record = await runCell(cell, (p) => post(cellProgress(cell, p)));
    post({ type: 'done', record });
  } catch (e) {
    post({ type: 'failed', error: e instanceof Error ? `${e.name}: ${e.message}` : String(e) });
  }
});
