import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type CellRecord, ResultStore, validateStudy } from '@fb/bench';
import type { RedisOptions } from 'bullmq';
import { connectRedis } from '../src/redis.js';

/** The built CLI and cell thread (tests run after the build). */
export const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
export const threadUrl = new URL('../dist/cell-thread.js', import.meta.url);
export const quiet = { tty: false, write: () => {} };

export const hasRedis = spawnSync('redis-server', ['--version']).status === 0;

/** The secret the tests' coordinators and workers share. */
export const secret = 'queue-test-secret-0123456789abcdef';

const dirs: string[] = [];
export function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'fb-queue-'));
  dirs.push(d);
  return d;
}
export function cleanTempDirs(): void {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
}

/** Poll until `ready()` holds; throws after `seconds` (a deadline, not a measurement). */
export async function until(ready: () => Promise<boolean> | boolean, seconds = 30): Promise<void> {
  const deadline = performance.now() + seconds * 1000;
  while (!(await ready())) {
    if (performance.now() > deadline) throw new Error(`not ready after ${seconds} s`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export interface TestRedis {
  url: string;
  connection: RedisOptions;
  stop(): Promise<void>;
}

/** A throwaway redis-server on a unix socket, without persistence; with `password`, AUTH is required. */
export async function startRedis(password?: string): Promise<TestRedis> {
  const dir = tempDir();
  const socket = join(dir, 'redis.sock');
  const server = spawn(
    'redis-server',
    [
      '--port',
      '0',
      '--unixsocket',
      socket,
      '--save',
      '',
      '--appendonly',
      'no',
      '--dir',
      dir,
      ...(password ? ['--requirepass', password] : []),
    ],
    { stdio: 'ignore' },
  );
  const url = `unix://${socket}${password ? `?password=${encodeURIComponent(password)}` : ''}`;
  await until(() => existsSync(socket), 10);
  const connection = await connectRedis(url);
  return {
    url,
    connection,
    stop: () => stopChild(server).then(() => {}),
  };
}

function stopChild(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => {
    child.once('exit', (code) => resolve(code));
    child.kill('SIGTERM');
  });
}

const spawned: ChildProcess[] = [];

/** `fairbench-queue worker` processes; `stop()` sends SIGTERM and gives their exit codes. */
export function spawnWorkers(url: string, queue: string, n: number) {
  const workers = Array.from({ length: n }, () =>
    spawn(process.execPath, [cli, 'worker', '--redis', url, '--queue', queue, '--concurrency', '1'], {
      stdio: 'ignore',
      env: { ...process.env, FAIRBENCH_QUEUE_SECRET: secret },
    }),
  );
  spawned.push(...workers);
  return { stop: () => Promise.all(workers.map(stopChild)) };
}

/** Kill the workers a failed test left running. */
export function killWorkers(): void {
  for (const w of spawned.splice(0)) if (w.exitCode === null && w.signalCode === null) w.kill('SIGKILL');
}

/**
 * Eight fast cells: two scenarios x two seeds x an individual and a subgroup method, on the
 * model-output question (which both answer). Granularity 3 exceeds the two non-protected attributes
 * of the second scenario, so its four cells throw.
 */
export function testStudy(overrides: Record<string, unknown> = {}) {
  return validateStudy({
    name: 'queue-test',
    seeds: [1, 2],
    synthetic: {
      generator: 'planted-pair',
      base: { rows: 300, otherValues: 3 },
      factors: { otherAttributes: [3, 2], granularity: [3] },
    },
    questions: ['model-output'],
    models: [{ kind: 'logistic-regression', options: { l2: 1 } }],
    methods: [
      {
        label: 'AEQUITAS',
        method: 'aequitas',
        options: { strategy: 'random', globalIterations: 50, localIterations: 50 },
      },
      { label: 'SliceLine', method: 'sliceline' },
    ],
    budget: { maxTested: 200 },
    cellTimeoutSeconds: 30,
    ...overrides,
  });
}

export async function storedRecords(outDir: string): Promise<CellRecord[]> {
  const store = await ResultStore.open(join(outDir, 'cells.duckdb'));
  try {
    return await store.records();
  } finally {
    store.close();
  }
}

/** What must not depend on where a cell ran (wall times and seconds per finding do). */
export function comparable(r: CellRecord) {
  const { dss: _dss, ...metrics } = r.metrics ?? { dss: null };
  return {
    key: r.key,
    method: r.plan.method,
    label: r.plan.label,
    status: r.status,
    error: r.error,
    modelFingerprint: r.modelFingerprint,
    metrics,
    recall: r.score?.recall ?? null,
    precision: r.score?.precision ?? null,
    implicated: r.implicated,
  };
}
export const byKey = (rs: CellRecord[]) => rs.map(comparable).sort((a, b) => (a.key < b.key ? -1 : 1));
