// A target of the study's time, as a benchmark measured it: printed at once, and kept for the closing
// table of `pnpm bench:perf` (run.mjs sets FB_PERF_TARGETS to the file it collects them in).
import { appendFileSync } from 'node:fs';

/**
 * @param {{ target: string, reference: string, measured: string, holds: boolean | null, command: string }} row
 *   `holds` null: not measured here (the row says why).
 */
export function reportTarget(row) {
  const verdict = row.holds === null ? 'not measured' : row.holds ? 'holds' : 'does not hold';
  console.log(`  target: ${row.target}: ${row.measured} (target: ${row.reference}): ${verdict}`);
  const file = process.env.FB_PERF_TARGETS;
  if (file) appendFileSync(file, `${JSON.stringify(row)}\n`);
}
