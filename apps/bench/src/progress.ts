import type { Progress } from '@fb/core';

/**
 * One status line per cell on stderr: rewritten in place on a terminal, printed at most every few
 * seconds otherwise (CI logs), so long cells always show they are alive.
 */
export class ProgressLine {
  private readonly tty = Boolean(process.stderr.isTTY);
  private lastPrint = 0;

  update(prefix: string, p: Progress): void {
    const now = performance.now();
    if (!this.tty && now - this.lastPrint < 5000) return;
    this.lastPrint = now;
    const share = p.total ? ` ${Math.round((100 * (p.done ?? 0)) / p.total)}%` : '';
    const line = `${prefix} ${p.phase}${share} tested=${p.tested} disc=${p.discriminatory} ${p.elapsedSeconds.toFixed(1)}s`;
    if (this.tty) process.stderr.write(`\r\x1b[2K${line}`);
    else process.stderr.write(`${line}\n`);
  }

  done(line: string): void {
    if (this.tty) process.stderr.write('\r\x1b[2K');
    process.stderr.write(`${line}\n`);
    this.lastPrint = 0;
  }
}
