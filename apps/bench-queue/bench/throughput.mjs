// Throughput of a study through the queue: a stratified sample of its cells (k per method plan, the
// same sample every time) run by 1 and then 2 local worker processes (one cell at a time each), and
// by the local pool of 2 threads for comparison. Checks that every sampled cell is stored exactly
// once, prints cells/hour and what the whole study would take on N machines of 2 cores.
// Usage (after pnpm build): node bench/throughput.mjs [--study full] [--per-plan 2]
// Starts its own redis-server on a unix socket.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { expandCells, loadStudy, ResultStore, sampleCells } from '@fb/bench';
import { connectRedis, queueExecutor } from '../dist/index.js';
import { said, startNode, startRedis, stop, timedStudy } from './processes.mjs';

const { values } = parseArgs({
  options: { study: { type: 'string', default: 'full' }, 'per-plan': { type: 'string', default: '2' } },
});
const here = fileURLToPath(new URL('..', import.meta.url));
const cli = join(here, 'dist/cli.js');
const dir = mkdtempSync(join(tmpdir(), 'fb-queue-throughput-'));
const secret = randomBytes(32).toString('hex');
const children = [];
const start = (args) => startNode(children, here, args, { FAIRBENCH_QUEUE_SECRET: secret });

const study = loadStudy(values.study);
const cells = await expandCells(study);
const sample = sampleCells(cells, Number(values['per-plan']));
const keys = new Set(sample.map((c) => c.key));
const select = (matching) => matching.filter((c) => keys.has(c.key));
console.log(
  `study "${study.name}": ${cells.length} cells; sample of ${sample.length} (${values['per-plan']} per method plan and kind of data). Load before: ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);

/** Every sampled cell stored, each once. */
async function storedOnce(outDir) {
  const store = await ResultStore.open(join(outDir, 'cells.duckdb'));
  try {
    const records = await store.records();
    const seen = new Set(records.map((r) => r.key));
    const missing = [...keys].filter((k) => !seen.has(k)).length;
    return { stored: records.length, distinct: seen.size, missing };
  } finally {
    store.close();
  }
}

const { server: redis, url } = await startRedis(dir);
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
    `${r.how.padEnd(26)} ${r.seconds.toFixed(1).padStart(7)} s  ${perHour.toFixed(0).padStart(7)} cells/h  stored ${r.stored}, distinct ${r.distinct}, missing ${r.missing}`,
  );
}
const two = rows.find((r) => r.how.startsWith('queue, 2'));
const rate = (sample.length / two.seconds) * 3600;
const hours = cells.length / rate;
console.log(
  `the whole study (${cells.length} cells) at the 2-worker rate: ${hours.toFixed(1)} h on one 2-core machine; N machines of 2 cores: about ${hours.toFixed(1)} / N h (the queue's own cost per cell is milliseconds). Load after: ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);
if (rows.some((r) => r.stored !== sample.length || r.distinct !== sample.length || r.missing > 0)) {
  console.error('a sampled cell was not stored exactly once');
  process.exitCode = 1;
}
