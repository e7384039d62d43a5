import { Worker } from 'node:worker_threads';
import type { Cell } from './cells.js';
import { type CellRecord, failedRecord } from './record.js';
import type { CellProgress } from './run-cell.js';
import type { FromWorker, ToWorker } from './worker.js';

export interface PoolEvents {
  onStart?(cell: Cell): void;
  onProgress?(cell: Cell, p: CellProgress): void;
  /** The cell's worker is done with it (its record is queued for writing). */
  onEnd?(cell: Cell): void;
  /** Called for every finished or failed cell, one at a time: the pool waits for it before going on. */
  onFinish(record: CellRecord, cell: Cell): Promise<void> | void;
}

export interface PoolOptions {
  workers: number;
  /** A cell running longer is stopped (its worker terminated and replaced) and recorded as failed. */
  cellTimeoutSeconds: number;
  workerUrl: URL;
  signal?: AbortSignal;
}

interface Slot {
  worker: Worker | null;
  cell: Cell | null;
  started: number;
  timer: NodeJS.Timeout | null;
}

/**
 * Runs cells in a pool of worker threads. Workers only compute; every result comes back to the
 * calling thread, which alone writes the store (`onFinish` calls are serialised). A cell that throws,
 * crashes its worker or overruns is recorded as failed and the pool goes on. Aborting terminates the
 * workers at once, like a kill: cells in flight are lost and rerun next time.
 */
export function runPool(cells: readonly Cell[], opts: PoolOptions, events: PoolEvents): Promise<void> {
  return new Promise((resolvePool, rejectPool) => {
    let next = 0;
    let running = 0;
    let writes = Promise.resolve();
    let stopped = false;
    const slots: Slot[] = [];

    const finish = (slot: Slot, record: CellRecord) => {
      const cell = slot.cell!;
      if (slot.timer) clearTimeout(slot.timer);
      slot.cell = null;
      slot.timer = null;
      running--;
      events.onEnd?.(cell);
      writes = writes.then(() => events.onFinish(record, cell));
      writes.catch((e: unknown) => stop(e));
      dispatch(slot);
    };

    const stop = (error?: unknown) => {
      if (stopped) return;
      stopped = true;
      for (const s of slots) {
        if (s.timer) clearTimeout(s.timer);
        void s.worker?.terminate();
      }
      opts.signal?.removeEventListener('abort', onAbort);
      writes.then(() => (error ? rejectPool(error) : resolvePool()), rejectPool);
    };
    const onAbort = () => stop();

    /** Give the slot a new worker; messages and exits of a replaced worker are ignored. */
    const attach = (slot: Slot) => {
      const worker = new Worker(opts.workerUrl);
      slot.worker = worker;
      worker.on('message', (msg: FromWorker) => {
        if (stopped || slot.worker !== worker || !slot.cell || msg.key !== slot.cell.key) return;
        if (msg.type === 'progress') events.onProgress?.(slot.cell, msg);
        else if (msg.type === 'done') finish(slot, msg.record);
        else finish(slot, failedRecord(slot.cell, msg.error, msg.wallSeconds));
      });
      worker.on('error', (e) => {
        if (slot.worker === worker) replace(slot, `worker crashed: ${e.message}`);
      });
      worker.on('exit', (code) => {
        if (slot.worker === worker) replace(slot, `worker exited with code ${code}`);
      });
    };

    const replace = (slot: Slot, error: string) => {
      if (stopped) return;
      const dead = slot.worker;
      attach(slot);
      void dead?.terminate();
      if (slot.cell) finish(slot, failedRecord(slot.cell, error, (performance.now() - slot.started) / 1000));
    };

    const dispatch = (slot: Slot) => {
      if (stopped) return;
      if (next >= cells.length) {
        if (running === 0) stop();
        return;
      }
      const cell = cells[next++]!;
      slot.cell = cell;
      slot.started = performance.now();
      running++;
      slot.timer = setTimeout(
        () => replace(slot, `overrun: still running after ${opts.cellTimeoutSeconds} s`),
        opts.cellTimeoutSeconds * 1000,
      );
      events.onStart?.(cell);
      slot.worker!.postMessage({ type: 'run', cell } satisfies ToWorker);
    };

    if (opts.signal?.aborted) return resolvePool();
    opts.signal?.addEventListener('abort', onAbort);
    if (cells.length === 0) return resolvePool();
    const n = Math.max(1, Math.min(opts.workers, cells.length));
    for (let i = 0; i < n; i++) {
      const slot: Slot = { worker: null, cell: null, started: 0, timer: null };
      attach(slot);
      slots.push(slot);
    }
    for (const s of slots) dispatch(s);
  });
}
