import type { Cell } from '../plan/cells.js';
import type { CellRecord } from './record.js';

const clock = (seconds: number): string => {
  if (!Number.isFinite(seconds)) return '?';
  const s = Math.round(seconds);
  return s >= 3600
    ? `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`
    : s >= 60
      ? `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`
      : `${s}s`;
};

interface Running {
  cell: Cell;
  status: string;
}

/**
 * The study's progress on stderr: cells done, running and failed, and the ETA (mean seconds per
 * finished cell so far x cells left / workers). On a terminal the block of running cells is
 * redrawn in place; in a log (CI) a summary line is printed every few seconds and one line per cell.
 */
export class StudyProgress {
  private readonly tty: boolean;
  private readonly write: (text: string) => void;
  private readonly running = new Map<string, Running>();
  private done = 0;
  private failed = 0;
  private busySeconds = 0;
  private drawn = 0;
  private lastLog = 0;
  private readonly started = performance.now();

  constructor(
    private readonly total: number,
    private readonly workers: number,
    opts: { tty?: boolean; write?: (text: string) => void } = {},
  ) {
    this.tty = opts.tty ?? Boolean(process.stderr.isTTY);
    this.write = opts.write ?? ((t) => process.stderr.write(t));
  }

  /** Seconds left, estimated from the cells finished in this run; Infinity before the first. */
  eta(): number {
    const finished = this.done + this.failed;
    if (finished === 0) return Number.POSITIVE_INFINITY;
    const left = this.total - finished;
    return ((this.busySeconds / finished) * left) / Math.max(1, Math.min(this.workers, left || 1));
  }

  summary(): string {
    const elapsed = (performance.now() - this.started) / 1000;
    return `cells ${this.done + this.failed}/${this.total} (done ${this.done}, failed ${this.failed}, running ${this.running.size}) elapsed ${clock(elapsed)} ETA ${clock(this.eta())}`;
  }

  start(cell: Cell): void {
    this.running.set(cell.key, { cell, status: 'starting' });
    this.redraw();
  }

  progress(cell: Cell, status: string): void {
    const r = this.running.get(cell.key);
    if (r) r.status = status;
    this.redraw();
  }

  /** The cell stopped running; it counts as finished once stored. */
  end(cell: Cell): void {
    this.running.delete(cell.key);
  }

  finish(record: CellRecord): void {
    this.running.delete(record.key);
    if (record.status === 'done') this.done++;
    else this.failed++;
    this.busySeconds += record.wallSeconds;
    const what = `${record.plan.label} | ${record.blockLabel}`;
    const outcome =
      record.status === 'failed'
        ? `FAILED ${record.error}`
        : record.score
          ? `recall=${record.score.recall?.toFixed(2) ?? '–'} precision=${record.score.precision?.toFixed(2) ?? '–'} DSN=${record.metrics!.dsn}`
          : `DSN=${record.metrics!.dsn} TSN=${record.metrics!.tsn}`;
    this.clear();
    this.write(
      `[${this.done + this.failed}/${this.total}] ${what}: ${outcome} (${record.wallSeconds.toFixed(1)} s)\n`,
    );
    this.redraw(true);
  }

  close(): void {
    this.clear();
    this.write(`${this.summary()}\n`);
  }

  private clear(): void {
    if (!this.tty || this.drawn === 0) return;
    this.write(`\x1b[${this.drawn}A\x1b[0J`);
    this.drawn = 0;
  }

  private redraw(force = false): void {
    const now = performance.now();
    if (!this.tty) {
      if (now - this.lastLog > 5000) {
        this.lastLog = now;
        this.write(`${this.summary()}\n`);
      }
      return;
    }
    if (!force && now - this.lastLog < 200) return;
    this.lastLog = now;
    this.clear();
    const lines = [
      this.summary(),
      ...[...this.running.values()].map((r) => `  ${r.cell.plan.label} | ${r.cell.blockLabel}: ${r.status}`),
    ];
    this.write(`${lines.join('\n')}\n`);
    this.drawn = lines.length;
  }
}
