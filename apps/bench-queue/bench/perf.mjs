// Measures the queue's overhead: trivial jobs over two worker processes, then the smoke study through
// the queue against the local pool. Starts its own redis-server on a unix socket. Run after the build.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadStudy } from '@fb/bench';
import { Queue, QueueEvents } from 'bullmq';
import { Redis } from 'ioredis';
import { connectRedis, queueExecutor } from '../dist/index.js';
import { said, startNode, startRedisOrSkip, stop, timedStudy } from './processes.mjs';

const here = fileURLToPath(new URL('..', import.meta.url));
const cli = join(here, 'dist/cli.js');
const dir = mkdtempSync(join(tmpdir(), 'fb-queue-bench-'));
const socket = join(dir, 'redis.sock');
const url = `unix://${socket}`;
const secret = randomBytes(32).toString('hex');

const children = [];
const start = (args) => startNode(children, here, args, { FAIRBENCH_QUEUE_SECRET: secret });
const { server: redis } = await startRedisOrSkip(dir);
try {
  const connection = await connectRedis(url);

  // 1. Ten trivial jobs over two worker processes, from the first add to the last completion.
  const trivial = `import { Worker } from 'bullmq';
    const w = new Worker('trivial', async (job) => job.data.n * 2, { connection: { path: ${JSON.stringify(socket)} } });
    await w.waitUntilReady(); process.stderr.write('ready\\n');
    process.on('SIGTERM', () => w.close().then(() => process.exit(0)));`;
  const spawned = performance.now();
  const trivialWorkers = [1, 2].map(() => start(['--input-type=module', '-e', trivial]));
  await Promise.all(trivialWorkers.map((w) => said(w, 'ready')));
  const startSeconds = (performance.now() - spawned) / 1000;
  const queue = new Queue('trivial', { connection });
  // Listen from the stream's current end: a QueueEvents that is merely connected may not read yet.
  const client = new Redis(connection);
  const [last] = await client.xrevrange(queue.keys.events, '+', '-', 'COUNT', 1);
  client.disconnect();
  const events = new QueueEvents('trivial', { connection, lastEventId: last?.[0] ?? '0' });
  let completed = 0;
  const allDone = new Promise((resolve) => events.on('completed', () => ++completed === 10 && resolve()));
  const t0 = performance.now();
  await queue.addBulk(Array.from({ length: 10 }, (_, n) => ({ name: 'trivial', data: { n } })));
  await allDone;
  const trivialSeconds = (performance.now() - t0) / 1000;
  await Promise.all(trivialWorkers.map(stop));
  await events.close();
  await queue.close();
  console.log(`2 BullMQ worker processes started and connected: ${startSeconds.toFixed(2)} s`);
  console.log(`10 trivial jobs over 2 worker processes: ${trivialSeconds.toFixed(3)} s`);

  // 2. The smoke study: the local pool (2 threads) against the queue (2 worker processes, 1 cell each).
  const study = loadStudy('smoke');
  const { seconds: localSeconds } = await timedStudy(study, join(dir, 'local'), { workers: 2 });
  const workers = [1, 2].map(() =>
    start([cli, 'worker', '--redis', url, '--queue', 'smoke', '--concurrency', '1']),
  );
  await Promise.all(workers.map((w) => said(w, 'worker on queue')));
  const { outcome, seconds: queueSeconds } = await timedStudy(study, join(dir, 'queue'), {
    executor: queueExecutor({ connection, queue: 'smoke', secret }),
  });
  await Promise.all(workers.map(stop));
  console.log(`smoke study (${outcome.cells} cells), local pool of 2 threads: ${localSeconds.toFixed(2)} s`);
  console.log(
    `smoke study (${outcome.cells} cells), queue with 2 worker processes: ${queueSeconds.toFixed(2)} s`,
  );
} finally {
  await Promise.all(children.map(stop));
  await stop(redis);
  rmSync(dir, { recursive: true, force: true });
}
