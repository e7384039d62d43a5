#!/usr/bin/env node
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { RunStudyOptions } from '@fb/bench';
import { queueNameOf } from './jobs.js';
import { clearQueue } from './queue.js';
import { connectRedis, shownUrl } from './redis.js';
import { queueSecret } from './signed.js';
import { startQueueWorker } from './worker.js';

const usage = `usage: fairbench-queue run --redis <url> [--secret-file <path>] [--study <name|file>] [--queue <name>]
                           [--out <dir>] [--resume | --fresh] [--retry-failed] [--only <field>=<value>[,...]]
       fairbench-queue worker --redis <url> [--secret-file <path>] (--study <name|file> | --queue <name>)
                              [--concurrency <n>]

  run             the coordinator: queues the study's unfinished cells and stores their results
  worker          runs queued cells on this machine (start one per machine, as many as you like)

  --redis         redis://[user:password@]host[:port][/db], rediss://... (TLS) or unix:///path/redis.sock
  --secret-file   file holding the secret shared by the coordinator and its workers (at least 32
                  characters, e.g. \`openssl rand -hex 32\`); default: env FAIRBENCH_QUEUE_SECRET
  --study         a study of apps/bench/studies (default, smoke, full) or a JSON/YAML file (default: default)
  --queue         the queue (default: fairbench-<study name>); coordinator and workers must agree
  --out           result directory (default: results/<study name>)
  --resume        continue a stopped run: stored cells are skipped (the default)
  --fresh         discard the stored cells and the queue's jobs and run everything again
  --retry-failed  run again the cells stored as failed
  --only          run only matching cells: method=, label=, dataset= or model= (repeatable)
  --concurrency   cells run at once by this worker (default: one per core)`;

/** How long a worker stopped twice waits for Redis before leaving anyway. */
const CLOSE_TIMEOUT_MS = 10_000;

/** A command line that cannot be run as given. */
export class UsageError extends Error {
  override name = 'UsageError';
}

function parse(args: string[]) {
  try {
    return parseArgs({
      args,
      allowPositionals: true,
      options: {
        redis: { type: 'string' },
        'secret-file': { type: 'string' },
        study: { type: 'string' },
        queue: { type: 'string' },
        out: { type: 'string' },
        fresh: { type: 'boolean', default: false },
        resume: { type: 'boolean', default: false },
        'retry-failed': { type: 'boolean', default: false },
        only: { type: 'string', multiple: true, default: [] },
        concurrency: { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
}

type Values = ReturnType<typeof parse>['values'];

/** The shared secret: from --secret-file, else env FAIRBENCH_QUEUE_SECRET. */
function secretOf(values: Values): string {
  const file = values['secret-file'];
  if (file === undefined) {
    if (process.env.FAIRBENCH_QUEUE_SECRET === undefined) {
      throw new UsageError(
        'the queue needs a shared secret: --secret-file <path> or env FAIRBENCH_QUEUE_SECRET',
      );
    }
    return queueSecret(process.env.FAIRBENCH_QUEUE_SECRET);
  }
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new UsageError(
      `--secret-file ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`,
    );
  }
  return queueSecret(text);
}

/** Loaded on use: @fb/bench loads every method, which --help and argument errors need not wait for. */
const loadBench = () => import('@fb/bench');

function refuse(values: Values, command: string, options: (keyof Values)[]): void {
  for (const o of options) {
    const v = values[o];
    if (v === true || typeof v === 'string' || (Array.isArray(v) && v.length > 0)) {
      throw new UsageError(`--${o} does not apply to "${command}"`);
    }
  }
}

async function coordinate(values: Values): Promise<void> {
  refuse(values, 'run', ['concurrency']);
  if (values.fresh && values.resume) throw new UsageError('--fresh and --resume exclude each other');
  const { describeOutcome, loadStudy, parseOnly, runStudy } = await loadBench();
  let only: RunStudyOptions['only'];
  try {
    only = parseOnly(values.only);
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  const { queueExecutor } = await import('./executor.js');
  const study = loadStudy(values.study ?? 'default');
  const connection = await connectRedis(values.redis!);
  const secret = secretOf(values);
  const queue = values.queue ?? queueNameOf(study.name);
  if (values.fresh) await clearQueue(connection, queue);
  process.stderr.write(
    `queue "${queue}" at ${shownUrl(values.redis!)}; on each worker machine run:\n  fairbench-queue worker --redis <url> --queue ${queue}\n`,
  );
  const controller = new AbortController();
  process.once('SIGINT', () => {
    process.stderr.write(
      '\ninterrupted: finished cells are stored, queued cells stay queued; rerun to resume\n',
    );
    controller.abort();
  });
  const outcome = await runStudy(study, {
    outDir: resolve(values.out ?? `results/${study.name}`),
    fresh: values.fresh,
    retryFailed: values['retry-failed'],
    only,
    executor: queueExecutor({ connection, queue, secret, retryFailed: values['retry-failed'] }),
    signal: controller.signal,
  });
  if (controller.signal.aborted) process.exitCode = 130;
  console.log(describeOutcome(outcome));
}

async function work(values: Values): Promise<void> {
  refuse(values, 'worker', ['out', 'fresh', 'resume', 'retry-failed', 'only']);
  const concurrency = values.concurrency === undefined ? undefined : Number(values.concurrency);
  if (concurrency !== undefined && !(Number.isInteger(concurrency) && concurrency > 0)) {
    throw new UsageError(`--concurrency must be a positive integer, got ${values.concurrency}`);
  }
  if (values.queue === undefined && values.study === undefined) {
    throw new UsageError('worker: name the queue with --queue, or the study with --study');
  }
  const queue = values.queue ?? queueNameOf((await loadBench()).loadStudy(values.study!).name);
  const connection = await connectRedis(values.redis!);
  const secret = secretOf(values);
  const worker = await startQueueWorker({
    connection,
    queue,
    ...(concurrency !== undefined ? { concurrency } : {}),
    secret,
    onRejected: (job, why) => process.stderr.write(`rejected job ${job.id}: ${why}\n`),
    onCell: (cell, outcome) => {
      const what = `${cell.plan.label} | ${cell.block}`;
      process.stderr.write('record' in outcome ? `done ${what}\n` : `failed ${what}: ${outcome.error}\n`);
    },
  });
  process.stderr.write(
    `worker on queue "${queue}" at ${shownUrl(values.redis!)}, ${concurrency ?? 'one per core'} at once\n`,
  );
  let signals = 0;
  const onSignal = () => {
    if (signals++ === 0) {
      process.stderr.write(
        'stopping: finishing the running cells (signal again to hand them back to the queue)\n',
      );
      void worker.close();
      return;
    }
    process.stderr.write('stopping: handing the running cells back to the queue\n');
    void worker.close({ release: true });
    // Closing talks to Redis; if it is gone, leave anyway: other workers retake jobs whose lock expired.
    setTimeout(() => {
      process.stderr.write('Redis did not answer; exiting without handing the cells back\n');
      process.exit(1);
    }, CLOSE_TIMEOUT_MS).unref();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  const reason = await worker.stopped;
  process.off('SIGINT', onSignal);
  process.off('SIGTERM', onSignal);
  if (reason) throw new Error(`worker stopped: ${reason}`);
}

async function main(): Promise<void> {
  const { values, positionals } = parse(process.argv.slice(2));
  if (values.help) {
    console.log(usage);
    return;
  }
  const [command, ...rest] = positionals;
  if (rest.length > 0) throw new UsageError(`unexpected arguments: ${rest.join(' ')}`);
  if (command !== 'run' && command !== 'worker') {
    throw new UsageError(
      command ? `unknown command "${command}" (run or worker)` : 'missing command: run or worker',
    );
  }
  if (!values.redis) throw new UsageError(`${command}: --redis <url> is required`);
  await (command === 'run' ? coordinate(values) : work(values));
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  if (e instanceof UsageError) console.error('see fairbench-queue --help');
  process.exitCode = e instanceof UsageError ? 2 : 1;
});
