import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { connectRedis, RedisUnreachableError, RedisUrlError, redisOptions, shownUrl } from '../src/redis.js';
import { cleanTempDirs, cli, tempDir } from './helpers.js';

describe('redis URLs', () => {
  it('reads host, port, database, credentials, TLS and unix sockets', () => {
    expect(redisOptions('redis://queue.lab:6380/2')).toEqual({ host: 'queue.lab', port: 6380, db: 2 });
    expect(redisOptions('redis://localhost')).toEqual({ host: 'localhost', port: 6379, db: 0 });
    expect(redisOptions('rediss://bench:p%40ss@10.0.0.5')).toEqual({
      host: '10.0.0.5',
      port: 6379,
      db: 0,
      username: 'bench',
      password: 'p@ss',
      tls: {},
    });
    expect(redisOptions('unix:///run/redis/redis.sock?db=3')).toEqual({
      path: '/run/redis/redis.sock',
      db: 3,
    });
    expect(redisOptions('unix:///run/redis.sock?username=bench&password=p%40ss%20x')).toEqual({
      path: '/run/redis.sock',
      db: 0,
      username: 'bench',
      password: 'p@ss x',
    });
  });

  it('rejects what is not a Redis URL', () => {
    for (const url of ['localhost:6379', 'http://queue.lab', 'redis://queue.lab/x', 'unix://', 'queue.lab']) {
      expect(() => redisOptions(url), url).toThrow(RedisUrlError);
    }
  });

  it('masks the password when showing a URL', () => {
    expect(shownUrl('redis://bench:secret@queue.lab:6379/1')).toBe('redis://bench:***@queue.lab:6379/1');
    expect(shownUrl('redis://queue.lab')).toBe('redis://queue.lab');
    expect(shownUrl('unix:///run/redis.sock?db=1&password=secret')).toBe(
      'unix:///run/redis.sock?db=1&password=***',
    );
  });

  it('fails at once, naming the URL, when nothing listens there', async () => {
    const url = `unix://${join(tempDir(), 'none.sock')}`;
    const error = await connectRedis(url).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RedisUnreachableError);
    expect((error as Error).message).toBe(`cannot reach Redis at ${url}: connect ENOENT ${url.slice(7)}`);
    cleanTempDirs();
  });
});

describe('command line', () => {
  const run = (...args: string[]) =>
    new Promise<{ status: number | null; stderr: string }>((resolve) => {
      const child = execFile(process.execPath, [cli, ...args], (_error, _stdout, stderr) =>
        resolve({ status: child.exitCode, stderr }),
      );
    });

  it('reports a bad or unreachable Redis URL and exits 1', async () => {
    const [bad, down] = await Promise.all([
      run('worker', '--redis', 'http://queue.lab', '--queue', 'q'),
      run('worker', '--redis', 'redis://:secret@127.0.0.1:1', '--queue', 'q'),
    ]);
    expect(bad.status).toBe(1);
    expect(bad.stderr).toMatch(/^http:\/\/queue\.lab: unsupported scheme "http:" \(expected redis:\/\//);
    expect(down.status).toBe(1);
    expect(down.stderr).toBe(
      'cannot reach Redis at redis://:***@127.0.0.1:1: connect ECONNREFUSED 127.0.0.1:1\n',
    );
  });

  it('rejects bad arguments with exit code 2', async () => {
    const cases: [string[], RegExp][] = [
      [[], /missing command: run or worker/],
      [['serve', '--redis', 'redis://h'], /unknown command "serve"/],
      [['run'], /run: --redis <url> is required/],
      [['run', '--redis', 'redis://h', '--fresh', '--resume'], /--fresh and --resume exclude each other/],
      [['run', '--redis', 'redis://h', '--only', 'seed=1'], /--only seed=1: expected method=/],
      [['run', '--redis', 'redis://h', '--concurrency', '2'], /--concurrency does not apply to "run"/],
      [['worker', '--redis', 'redis://h'], /name the queue with --queue, or the study with --study/],
      [['worker', '--redis', 'redis://h', '--queue', 'q', '--concurrency', '0'], /--concurrency must be/],
      [['worker', '--redis', 'redis://h', '--queue', 'q', '--fresh'], /--fresh does not apply to "worker"/],
      [['run', '--redis', 'redis://h', '--workers', '2'], /Unknown option '--workers'/],
    ];
    const results = await Promise.all(cases.map(([args]) => run(...args)));
    for (const [i, [args, message]] of cases.entries()) {
      const r = results[i]!;
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr, args.join(' ')).toMatch(message);
    }
  });
});
