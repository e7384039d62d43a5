// `pnpm bench:perf`: every package's benchmark (`pnpm -r run bench`, one at a time), then one table of
// the study's time targets, each beside its reference and what was measured, with the command that
// measures it alone. Benchmarks report their targets through report.mjs; the study's own targets are
// read here from the last runs kept under apps/bench/results/ (`pnpm bench --study <name>` and
// `--estimate <k>`), with their dates. Not a test: figures depend on the machine and its load.
// `node tools/perf-targets/run.mjs --studies` prints the study's targets alone (no benchmark run).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { reportTarget } from './report.mjs';

const root = resolve(import.meta.dirname, '../..');
const results = join(root, 'apps/bench/results');
const dir = mkdtempSync(join(tmpdir(), 'fb-perf-targets-'));
const file = join(dir, 'targets.jsonl');
process.env.FB_PERF_TARGETS = file;
const loadOnEntry = loadavg()[0];

if (!process.argv.includes('--studies')) {
  execFileSync('pnpm', ['-r', '--workspace-concurrency=1', '--if-present', 'run', 'bench'], {
    cwd: root,
    stdio: 'inherit',
    env: process.env,
  });
}

const day = (path) => statSync(path).mtime.toISOString().slice(0, 16).replace('T', ' ');
const hours = (s) => `${(s / 3600).toFixed(2)} h`;

/** The records of a study's last run: its results' cells file (the article's also in docs/article). */
function lastRun(study) {
  const candidates = [join(results, study, 'cells.jsonl.gz')];
  if (study === 'article') candidates.push(join(root, 'docs/article/cells.jsonl.gz'));
  const path = candidates.find((p) => existsSync(p));
  if (!path) return null;
  const records = gunzipSync(readFileSync(path))
    .toString('utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
  const coreSeconds = records.reduce(
    (a, r) => a + r.wallSeconds + (r.costs?.prepareSeconds ?? 0) + (r.costs?.scoreSeconds ?? 0),
    0,
  );
  return { path, records, coreSeconds, when: day(path) };
}

for (const study of ['default', 'article']) {
  const command = `pnpm bench --study ${study}`;
  const run = lastRun(study);
  if (!run) {
    reportTarget({
      target: `${study} study: cells that end on the time cap`,
      reference: '0',
      measured: 'no run kept',
      holds: null,
      command,
    });
    continue;
  }
  const capped = run.records.filter((r) => r.stopReason === 'time-budget').length;
  reportTarget({
    target: `${study} study: cells that end on the time cap`,
    reference: '0',
    measured: `${capped} of ${run.records.length} cells (run of ${run.when})`,
    holds: capped === 0,
    command,
  });
  const estimatePath = join(results, study, 'estimate.json');
  if (!existsSync(estimatePath)) {
    reportTarget({
      target: `${study} study: --estimate against the run`,
      reference: 'within 25%',
      measured: 'no estimate kept',
      holds: null,
      command: `${command} --estimate 3 --fresh`,
    });
    continue;
  }
  const e = JSON.parse(readFileSync(estimatePath, 'utf8'));
  if (e.ranByEstimate !== e.sampled) {
    reportTarget({
      target: `${study} study: --estimate against the run`,
      reference: 'within 25%',
      measured: `the estimate of ${e.at.slice(0, 16)} read ${e.sampled - e.ranByEstimate} of its ${e.sampled} cells from an earlier run`,
      holds: null,
      command: `${command} --estimate 3 --fresh`,
    });
    continue;
  }
  const ratio = e.totalSeconds / run.coreSeconds;
  reportTarget({
    target: `${study} study: --estimate against the run`,
    reference: 'within 25%',
    measured: `estimated ${hours(e.totalSeconds)} of core time (k = ${e.perStratum}, ${e.at.slice(0, 16)}) against ${hours(run.coreSeconds)} run: ${ratio >= 1 ? '+' : ''}${((ratio - 1) * 100).toFixed(0)}%`,
    holds: Math.abs(ratio - 1) <= 0.25,
    command: `${command} --estimate 3 --fresh`,
  });
}

const fullEstimate = join(results, 'full', 'estimate.json');
if (existsSync(fullEstimate)) {
  const e = JSON.parse(readFileSync(fullEstimate, 'utf8'));
  // The target holds only if the estimate's 95% margin (of the sampled cells' method time) stays under it.
  const upper = (e.totalSeconds + e.marginSeconds) / 3600;
  reportTarget({
    target: 'full study: core time',
    reference: 'at most 200 core-hours',
    measured: `estimated ${(e.totalSeconds / 3600).toFixed(0)} ± ${(e.marginSeconds / 3600).toFixed(0)} core-hours (95%: at most ${upper.toFixed(0)}; k = ${e.perStratum}, ${e.sampled} cells timed, ${e.at.slice(0, 16)}; ${e.cells} cells)`,
    holds: upper <= 200,
    command: `pnpm bench --study full --estimate ${e.perStratum} --fresh`,
  });
  // The full study is not run on one machine: its estimate's sampled cells stand for it.
  reportTarget({
    target: "full study: cells that end on the time cap (the estimate's sampled cells)",
    reference: '0',
    measured:
      e.cappedSampled === undefined
        ? `not recorded by the estimate of ${e.at.slice(0, 16)}`
        : `${e.cappedSampled} of ${e.sampled} sampled cells (${e.at.slice(0, 16)})`,
    holds: e.cappedSampled === undefined ? null : e.cappedSampled === 0,
    command: `pnpm bench --study full --estimate ${e.perStratum} --fresh`,
  });
} else {
  reportTarget({
    target: 'full study: core time',
    reference: 'at most 200 core-hours',
    measured: 'no estimate kept',
    holds: null,
    command: 'pnpm bench --study full --estimate 1',
  });
}

const rows = existsSync(file)
  ? readFileSync(file, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l))
  : [];
rmSync(dir, { recursive: true, force: true });
const cell = (s) => String(s).replaceAll('|', '\\|');
console.log(
  `\nTime targets (load average ${loadOnEntry.toFixed(1)} on entry, ${loadavg()[0].toFixed(1)} at the end)\n`,
);
console.log('| target | reference | measured | holds | command |\n| --- | --- | --- | --- | --- |');
for (const r of rows) {
  const verdict = r.holds === null ? 'not measured' : r.holds ? 'yes' : 'no';
  console.log(
    `| ${cell(r.target)} | ${cell(r.reference)} | ${cell(r.measured)} | ${verdict} | \`${cell(r.command)}\` |`,
  );
}
