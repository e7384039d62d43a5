import { parentPort, workerData } from 'node:worker_threads';
import { runCase } from './outcome.mjs';

// Runs the cases of one file from `start` on, reporting each before and after it runs, so that the
// parent can name a case that hangs, end this thread and go on in a new one.
const { file, start } = workerData;
const { cases } = await import(file);
for (let i = start; i < cases.length; i++) {
  parentPort.postMessage({ type: 'start', index: i });
  const result = await runCase(cases[i]);
  parentPort.postMessage({ type: 'result', index: i, ...result });
}
parentPort.postMessage({ type: 'end' });
