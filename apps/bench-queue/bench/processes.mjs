// Child processes for the queue's benchmarks: a redis-server of their own on a unix socket, and
// worker processes whose stderr can be awaited; and the timed study run they compare.
import { spawn } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { runStudy } from '@fb/bench';

/** Start `node <args>` in `cwd` with `env` added, stderr piped. */
export function startNode(children, cwd, args, env = {}) {
  const child = spawn(process.execPath, args, {
    cwd,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, ...env },
  });
  children.push(child);
  return child;
}

/** Resolves once the process has written `text` on stderr. */
export const said = (child, text) =>
  new Promise((resolve) => {
    let out = '';
    child.stderr.on('data', (d) => {
      out += d;
      if (out.includes(text)) resolve();
    });
  });

export const stop = (child) =>
  child.exitCode !== null ? Promise.resolve() : new Promise((r) => child.once('exit', r).kill('SIGTERM'));

/**
 * A redis-server on a unix socket in `dir`, without persistence; resolves once the socket exists, or
 * returns null (and says why) when no redis-server can be started here: the benchmarks then skip the
 * queue, as `pnpm bench:perf` goes on to the next package.
 */
export async function startRedis(dir) {
  const socket = join(dir, 'redis.sock');
  const server = spawn(
    'redis-server',
    ['--port', '0', '--unixsocket', socket, '--save', '', '--appendonly', 'no'],
    {
      stdio: 'ignore',
    },
  );
  let failed = null;
  server.once('error', (error) => {
    failed =
      error.code === 'ENOENT'
        ? 'redis-server is not installed (apt-get install redis-server)'
        : error.message;
  });
  server.once('exit', (code) => {
    failed ??= `redis-server exited with code ${code} before its socket appeared`;
  });
  while (!existsSync(socket) && failed === null) await new Promise((r) => setTimeout(r, 20));
  if (failed !== null) {
    console.log(`queue benchmark skipped: ${failed}`);
    return null;
  }
  return { server, socket, url: `unix://${socket}` };
}

/** `startRedis`, or, when no redis-server starts, remove `dir` and end the benchmark here (exit 0). */
export async function startRedisOrSkip(dir) {
  const started = await startRedis(dir);
  if (started !== null) return started;
  rmSync(dir, { recursive: true, force: true });
  process.exit(0);
}

const quiet = { tty: false, write: () => {} };

/**
 * Run a study afresh into `outDir`, without report or progress output; `options` as `runStudy`'s
 * (`workers`, `executor`, `select`). Returns its outcome and its wall seconds.
 */
export async function timedStudy(study, outDir, options) {
  const t = performance.now();
  const outcome = await runStudy(study, { outDir, fresh: true, report: false, progress: quiet, ...options });
  return { outcome, seconds: (performance.now() - t) / 1000 };
}
