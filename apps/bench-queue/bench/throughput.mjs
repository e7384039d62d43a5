// Throughput of a study through the queue: the sample of whole blocks that `--estimate k` times (k blocks
// per kind and size of data, question and model, the same sample every time) run by the local pool of 2
// threads, then by 1 and 2 local worker processes (one cell at a time each). Checks that every sampled
// cell is stored exactly once, prints cells/hour and what the whole study would take on N machines of 2
// cores. The full study's sample with k = 1 is 575 cells (about 20 minutes a run on 2 cores).
// Usage (after pnpm build): node bench/throughput.mjs [--study full] [--per-stratum 1]
// Starts its own redis-server on a unix socket.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { estimateStudy, expandCells, formatEstimate, loadStudy, ResultStore, sampleBlocks } from '@fb/bench';
import { connectRedis, queueExecutor } from '../dist/index.js';
import { said, startNode, startRedisOrSkip, stop, timedStudy } from './processes.mjs';

const { values } = parseArgs({
  options: { study: { type: 'string', default: 'full' }, 'per-stratum': { type: 'string', default: '1' } },
});
const here = fileURLToPath(new URL('..', import.meta.url));
const cli = join(here, 'dist/cli.js');
const dir = mkdtempSync(join(tmpdir(), 'fb-queue-throughput-'));
const secret = randomBytes(32).toString('hex');
const children = [];
const start = (args) => startNode(children, here, args, { FAIRBENCH_QUEUE_SECRET: secret });

const study = loadStudy(values.study);
const cells = await expandCells(study);
const perStratum = Number(values['per-stratum']);
if (!(Number.isInteger(perStratum) && perStratum >= 1)) {
  console.error(`--per-stratum must be a whole number of blocks, at least 1; got "${values['per-stratum']}"`);
  process.exit(2);
}
const sample = sampleBlocks(cells, perStratum);
const keys = new Set(sample.map((c) => c.key));
const select = (matching) => matching.filter((c) => keys.has(c.key));
console.log(
  `study "${study.name}": ${cells.length} cells; sample of ${sample.length} (the cells of ${perStratum} block${perStratum > 1 ? 's' : ''} per kind and size of data, question and model). Load before: ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);

/** Every sampled cell stored, each once; and the records, for the whole study's estimate. */
async function storedOnce(outDir) {
  const store = await ResultStore.open(join(outDir, 'cells.duckdb'));
  try {
    const records = await store.records();
    const seen = new Set(records.map((r) => r.key));
    const missing = [...keys].filter((k) => !seen.has(k)).length;
    const failed = records.filter((r) => r.status === 'failed');
    for (const r of failed) console.log(`  failed: ${r.plan.label} | ${r.blockLabel}: ${r.error}`);
    return { stored: records.length, distinct: seen.size, missing, failed: failed.length, records };
  } finally {
    store.close();
  }
}

const { server: redis, url } = await startRedisOrSkip(dir);
const rows = [];
try {
  const connection = await connectRedis(url);
  const local = await timedStudy(study, join(dir, 'local'), { workers: 2, select });
  rows.push({
    how: 'local pool, 2 threads',
    seconds: local.seconds,
    ...(await storedOnce(join(dir, 'local'))),
  });
  for (const n of [1, 2]) {
    const queue = `throughput-${n}`;
    const workers = Array.from({ length: n }, () =>
      start([cli, 'worker', '--redis', url, '--queue', queue, '--concurrency', '1']),
    );
    await Promise.all(workers.map((w) => said(w, 'worker on queue')));
    const outDir = join(dir, `queue-${n}`);
    const { seconds } = await timedStudy(study, outDir, {
      select,
      executor: queueExecutor({ connection, queue, secret }),
    });
    rows.push({
      how: `queue, ${n} worker process${n > 1 ? 'es' : ''}`,
      seconds,
      ...(await storedOnce(outDir)),
    });
    await Promise.all(workers.map(stop));
  }
} finally {
  await Promise.all(children.map(stop));
  await stop(redis);
  rmSync(dir, { recursive: true, force: true });
}
for (const r of rows) {
  const perHour = (sample.length / r.seconds) * 3600;
  console.log(
    `${r.how.padEnd(26)} ${r.seconds.toFixed(1).padStart(7)} s  ${perHour.toFixed(0).padStart(7)} cells/h  stored ${r.stored}, distinct ${r.distinct}, missing ${r.missing}, failed ${r.failed}`,
  );
}
// The sample runs whole blocks, so its cells share their block's build as a study's do. The whole
// study is estimated stratum by stratum from the sample's method and preparation seconds (as
// --estimate does), then scaled by what the queue cost against the local pool on the same sample. The local pool keeps a data set on one worker; the
// queue hands each cell to whichever worker is free, so a block of b cells is built by about
// W (1 - (1 - 1/W)^b) of W workers: preparation grows with the number of machines.
const local = rows.find((r) => r.how.startsWith('local'));
const two = rows.find((r) => r.how.startsWith('queue, 2'));
const estimate = estimateStudy(cells, local.records);
console.log(`where the time goes (from the local pool's records):\n${formatEstimate(estimate, 2)}`);
const queueFactor = two.seconds / local.seconds;
const perBlock = cells.length / estimate.blocks;
const hours = (s) => (s / 3600).toFixed(1);
console.log(
  `the whole study (${cells.length} cells, ${estimate.blocks} blocks of ${perBlock.toFixed(1)} cells), estimated from the sample: method ${hours(estimate.methodSeconds)} core-hours, preparation ${hours(estimate.preparationSeconds)} core-hours once per block; local pool on one 2-core machine ${hours(estimate.totalSeconds / 2)} h. Through the queue (${queueFactor.toFixed(2)}x the local pool's time on the sample), N machines of 2 cores:`,
);
for (const n of [1, 2, 5, 10, 20]) {
  const w = 2 * n;
  const builds = w * (1 - (1 - 1 / w) ** perBlock);
  const core = estimate.methodSeconds + builds * estimate.preparationSeconds;
  console.log(
    `  N = ${String(n).padStart(2)}: each block built ${builds.toFixed(1)} times, ${hours(core)} core-hours, about ${hours((core / w) * queueFactor)} h`,
  );
}
console.log(
  `Load after: ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);
if (rows.some((r) => r.stored !== sample.length || r.distinct !== sample.length || r.missing > 0)) {
  console.error('a sampled cell was not stored exactly once');
  process.exitCode = 1;
}
