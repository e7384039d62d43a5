import { Worker } from 'node:worker_threads';

/**
 * The process's interrupt, in shared memory. A thread blocked on `Atomics.wait` (a detector waiting for
 * a model) cannot run signal handlers, so Ctrl-C is observed elsewhere (by the `fairbench` process that
 * started this one, see bin.ts) and raised here through a pipe read by a worker thread; waits look at
 * this cell between short slices. Cell 0 counts the interrupts.
 */
const cell = new Int32Array(new SharedArrayBuffer(4));
let hook: (() => void) | null = null;

/** The shared cell a watcher raises (exported for the waits of `BlockingClassifier`). */
export function interruptCell(): Int32Array {
  return cell;
}

/** Raise the interrupt (as Ctrl-C does through the pipe), and run the hook once. */
export function raiseInterrupt(): void {
  Atomics.add(cell, 0, 1);
  Atomics.notify(cell, 0);
  runHook();
}

function runHook(): void {
  const h = hook;
  hook = null;
  h?.();
}

/** Whether an interrupt was raised; runs the hook (which aborts the audit) the first time it is seen. */
export function interrupted(): boolean {
  if (Atomics.load(cell, 0) === 0) return false;
  runHook();
  return true;
}

/** What to do on the first interrupt (abort the running audit); runs at once if one was raised already. */
export function onInterrupt(f: () => void): void {
  hook = f;
  if (Atomics.load(cell, 0) !== 0) runHook();
}

// Reads the pipe on its own thread: each byte is an interrupt; the pipe closing (the parent is gone) too.
const WATCHER = `
const { parentPort, workerData } = require('node:worker_threads');
const net = require('node:net');
const { cell, fd } = workerData;
const raise = () => {
  Atomics.add(cell, 0, 1);
  Atomics.notify(cell, 0);
  parentPort.postMessage('interrupt');
};
const pipe = new net.Socket({ fd, readable: true, writable: false });
pipe.on('data', (bytes) => { for (let i = 0; i < bytes.length; i++) raise(); });
pipe.on('end', raise);
pipe.on('error', raise);
`;

/**
 * Watch the pipe `fd` for interrupts on a worker thread: each one raises the shared cell (which ends a
 * blocked wait within a slice) and, when this thread is free, runs the hook.
 */
export function watchInterruptPipe(fd: number): void {
  const worker = new Worker(WATCHER, { eval: true, workerData: { cell, fd } });
  worker.on('message', () => runHook());
  worker.unref();
}
