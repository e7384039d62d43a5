// CBS's time target: at least 3x less CPU than CBS as it was when the study's time targets were set
// (commit a32abb7: before the data-only fits were shared), with the same decisions, on the article
// study's base-scenario cells (bench/cells.mjs: seed 1, the data question's scan type and the
// model-output question's, the three trained models). Builds that version into bench/baseline/ when it
// is not there (bench/make-baseline.sh), runs both side by side, prints the figures and reports the
// target to `pnpm bench:perf`'s closing table. Not a test. Run after `pnpm build`: node bench/target.mjs
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { reportTarget } from '../../../tools/perf-targets/report.mjs';
import { benchCells } from './cells.mjs';

const BASELINE = 'a32abb7';
const here = import.meta.dirname;
const baseline = path.join(here, 'baseline');
const built = path.join(baseline, 'COMMIT');
const full = execFileSync('git', ['rev-parse', BASELINE], { cwd: here, encoding: 'utf8' }).trim();
if (!existsSync(built) || readFileSync(built, 'utf8').trim() !== full) {
  execFileSync(path.join(here, 'make-baseline.sh'), [BASELINE], { stdio: 'inherit' });
}
const reference = await import(path.join(baseline, 'index.js'));
const scanTypes = ['sufficiency-predictions', 'separation-predictions'];
const { totals, same, cells } = await benchCells([1], scanTypes, reference);
for (const scanType of scanTypes) {
  const before = totals.get(`${scanType} reference`);
  const now = totals.get(`${scanType} cached`);
  reportTarget({
    target: `CBS, ${scanType}: CPU of ${BASELINE} / now on the article's base cells, same decisions`,
    reference: 'at least 3x',
    measured: `${(before / now).toFixed(2)}x (${before.toFixed(1)} s / ${now.toFixed(1)} s); ${same} of ${cells} cells with the same decisions`,
    holds: before / now >= 3 && same === cells,
    command: 'node packages/subgroup-cbs/bench/target.mjs',
  });
}
