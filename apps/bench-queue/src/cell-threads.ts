import { Worker } from 'node:worker_threads';
import type { Cell, CellRecord } from '@fb/bench';
import type { CellProgress } from './jobs.js';

/** Messages from a cell thread. */
export type FromThread =
  | CellProgress
  | { type: 'done'; record: CellRecord }
  | { type: 'failed'; error: string };

/** The cell was stopped by `release()`: its job goes back to the queue, it did not fail. */
export class CellReleasedError extends Error {
  override name = 'CellReleasedError';
}

/**
 * Worker threads that run one cell each. An idle thread is reused, so a block's data and model stay
 * cached for its next cells; a thread whose cell overruns is terminated, and one that crashes is
 * dropped, and either way the cell fails while this process carries on.
 */
export class CellThreads {
  private readonly idle = new Set<Worker>();
  private readonly stops = new Set<() => void>();
  private released = false;

  constructor(private readonly url: URL) {}

  run(cell: Cell, timeoutSeconds: number, onProgress: (p: CellProgress) => void): Promise<CellRecord> {
    if (this.released) return Promise.reject(new CellReleasedError());
    const reused = this.idle.values().next().value;
    const thread = reused ?? this.spawn();
    this.idle.delete(thread);
    return new Promise((resolve, reject) => {
      const end = (outcome: 'idle' | 'dead', settle: () => void) => {
        clearTimeout(timer);
        thread.off('message', onMessage);
        thread.off('error', onError);
        thread.off('exit', onExit);
        this.stops.delete(stop);
        if (outcome === 'idle') this.idle.add(thread);
        else void thread.terminate();
        settle();
      };
      const onMessage = (msg: FromThread) => {
        if (msg.type === 'progress') onProgress(msg);
        else if (msg.type === 'done') end('idle', () => resolve(msg.record));
        else end('idle', () => reject(new Error(msg.error)));
      };
      const onError = (e: Error) =>
        end('dead', () => reject(new Error(`worker thread crashed: ${e.message}`)));
      const onExit = (code: number) =>
        end('dead', () => reject(new Error(`worker thread exited with code ${code}`)));
      const timer = setTimeout(
        () => end('dead', () => reject(new Error(`overrun: still running after ${timeoutSeconds} s`))),
        timeoutSeconds * 1000,
      );
      const stop = () => end('dead', () => reject(new CellReleasedError()));
      this.stops.add(stop);
      thread.on('message', onMessage);
      thread.once('error', onError);
      thread.once('exit', onExit);
      thread.postMessage(cell);
    });
  }

  /** Stop the running cells at once (they reject with `CellReleasedError`) and take no new ones. */
  release(): void {
    this.released = true;
    for (const stop of [...this.stops]) stop();
  }

  async close(): Promise<void> {
    const idle = [...this.idle];
    this.idle.clear();
    await Promise.all(idle.map((t) => t.terminate()));
  }

  private spawn(): Worker {
    const thread = new Worker(this.url);
    // A thread that dies while idle is dropped (its 'error' is followed by 'exit').
    thread.on('error', () => {});
    thread.once('exit', () => this.idle.delete(thread));
    return thread;
  }
}
