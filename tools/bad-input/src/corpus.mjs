import { readdirSync } from 'node:fs';
import { Worker } from 'node:worker_threads';

export const casesDir = new URL('../cases/', import.meta.url);

/** The case files, in name order. */
export function caseFiles() {
  return readdirSync(casesDir)
    .filter((f) => f.endsWith('.mjs'))
    .sort()
    .map((f) => new URL(f, casesDir).href);
}

/**
 * Run every case of `file` in worker threads, each case under a watchdog of `hangSeconds`: a case
 * still running then is a hang; its thread is ended and the next case starts in a new one.
 * Resolves with one `{ id, outcome, detail, seconds }` per case.
 */
export async function runFile(file, hangSeconds = 60) {
  const { cases } = await import(file);
  const results = new Array(cases.length);
  let start = 0;
  while (start < cases.length) {
    start = await new Promise((resolve, reject) => {
      const thread = new Worker(new URL('./thread.mjs', import.meta.url), { workerData: { file, start } });
      let current = start;
      let began = performance.now();
      let timer = null;
      const arm = () => {
        clearTimeout(timer);
        timer = setTimeout(() => {
          results[current] = {
            id: cases[current].id,
            outcome: 'hang',
            detail: `still running after ${hangSeconds} s`,
            seconds: hangSeconds,
          };
          void thread.terminate();
          resolve(current + 1);
        }, hangSeconds * 1000);
      };
      thread.on('message', (m) => {
        if (m.type === 'start') {
          current = m.index;
          began = performance.now();
          arm();
        } else if (m.type === 'result') {
          results[m.index] = {
            id: cases[m.index].id,
            outcome: m.outcome,
            detail: m.detail,
            seconds: (performance.now() - began) / 1000,
          };
        } else {
          clearTimeout(timer);
          void thread.terminate();
          resolve(cases.length);
        }
      });
      // An error escaping a case (an unhandled rejection in a timer, say) ends the thread: a crash.
      thread.on('error', (e) => {
        clearTimeout(timer);
        results[current] = {
          id: cases[current].id,
          outcome: 'crash',
          detail: `thread: ${e.message}`,
          seconds: 0,
        };
        resolve(current + 1);
      });
      thread.on('exit', (code) => {
        if (code !== 0 && results[current] === undefined) {
          clearTimeout(timer);
          results[current] = {
            id: cases[current].id,
            outcome: 'crash',
            detail: `thread exited ${code}`,
            seconds: 0,
          };
          resolve(current + 1);
        }
      });
      void reject;
    });
  }
  return results;
}

export const GOOD = new Set(['typed-error', 'correct']);

/** One line per outcome kind, e.g. `core: 80 cases, 70 typed errors, 10 correct, 0 crashes, ...`. */
export function summary(name, results) {
  const count = (o) => results.filter((r) => r.outcome === o).length;
  return `${name}: ${results.length} cases: ${count('typed-error')} typed errors, ${count('correct')} correct results, ${count('crash')} crashes, ${count('hang')} hangs, ${count('silent-wrong')} silent wrong results, ${count('wrong-error')} wrong errors, ${count('overrun')} budget overruns`;
}
