import { Worker } from 'node:worker_threads';
import { type Cell, contentHash, rowsKey } from '../plan/cells.js';
import type { FromWorker, ToWorker } from '../worker.js';
import { type CellRecord, failedRecord } from './record.js';
import type { CellProgress } from './run-cell.js';

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
  /** The queue this slot takes its cells from (its worker has built their rows and models). */
  queue: string | null;
  started: number;
  timer: NodeJS.Timeout | null;
}

/**
 * Hands out cells so that each worker keeps to one queue of cells until it is done. A queue is the
 * cells of one audited data set (data set and seed, every question: its blocks' rows, models and LIMI's
 * generator are built by the worker that runs them and reused), so a data set split between two
 * workers is built twice. A free worker takes the next cell of its own queue, else the first queue
 * nobody has started; at the end, rather than idle, it splits off the back half of the longest queue
 * left (its later blocks, which the owner has not started). The order within a queue is kept.
 */
export class AffinityQueue<C> {
  private readonly queues = new Map<string, C[]>();
  private readonly unstarted: string[] = [];
  private left: number;
  private splits = 0;

  constructor(cells: readonly C[], affinity: (cell: C) => string) {
    for (const c of cells) {
      const key = affinity(c);
      const q = this.queues.get(key);
      if (q) q.push(c);
      else {
        this.queues.set(key, [c]);
        this.unstarted.push(key);
      }
    }
    this.left = cells.length;
    this.unstarted.reverse();
  }

  get size(): number {
    return this.left;
  }

  /** The next cell for a worker on queue `current` (null: none yet) and the queue it now works on. */
  take(current: string | null): { cell: C; queue: string } | null {
    if (this.left === 0) return null;
    let queue = current !== null && this.queues.get(current)?.length ? current : this.unstarted.pop();
    while (queue !== undefined && !this.queues.has(queue)) queue = this.unstarted.pop();
    queue ??= this.splitLongest();
    const q = this.queues.get(queue)!;
    const cell = q.shift()!;
    if (q.length === 0) this.queues.delete(queue);
    this.left--;
    return { cell, queue };
  }

  private splitLongest(): string {
    let longest = '';
    let best: C[] = [];
    for (const [key, q] of this.queues) {
      if (q.length > best.length) [longest, best] = [key, q];
    }
    if (best.length === 1) return longest;
    const key = `${longest}#${++this.splits}`;
    this.queues.set(key, best.splice(Math.ceil(best.length / 2)));
    return key;
  }
}

/**
 * The audited rows of a cell: the cells that share them (and every fit made on them). Every question
 * of a data set and seed audits the same rows (the split depends on the seed and share only), and so
 * do the scenario's other bias levels and its no-bias twin (the bias sets labels only), so LIMI's
 * generator, fitted on the rows alone, serves all of them from one worker.
 */
export function dataAffinity(cell: Cell): string {
  return contentHash([rowsKey(cell.dataset, cell.seed), cell.auditShare]);
}

/**
 * Runs cells in a pool of worker threads. Workers only compute; every result comes back to the
 * calling thread, which alone writes the store (`onFinish` calls are serialised). A cell that throws,
 * crashes its worker or overruns is recorded as failed and the pool goes on. Aborting terminates the
 * workers at once, like a kill: cells in flight are lost and rerun next time.
 */
export function runPool(cells: readonly Cell[], opts: PoolOptions, events: PoolEvents): Promise<void> {
  return new Promise((resolvePool, rejectPool) => {
    const queue = new AffinityQueue(cells, dataAffinity);
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
      const next = queue.take(slot.queue);
      if (!next) {
        if (running === 0) stop();
        return;
      }
      const { cell } = next;
      slot.cell = cell;
      slot.queue = next.queue;
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
      const slot: Slot = { worker: null, cell: null, queue: null, started: 0, timer: null };
      attach(slot);
      slots.push(slot);
    }
    for (const s of slots) dispatch(s);
  });
}
