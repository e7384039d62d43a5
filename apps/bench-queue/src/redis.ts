import type { RedisOptions } from 'bullmq';
import { Redis } from 'ioredis';

/** The Redis URL cannot be parsed or has an unsupported scheme. */
export class RedisUrlError extends Error {
  override name = 'RedisUrlError';
}

/** Nothing answered at the Redis URL. */
export class RedisUnreachableError extends Error {
  override name = 'RedisUnreachableError';
}

const expected =
  'expected redis://[user:password@]host[:port][/db], rediss://... or unix:///path/to/redis.sock[?db=n&username=u&password=p]';

/** The URL with its password masked, for messages. */
export function shownUrl(url: string): string {
  try {
    const u = new URL(url);
    if (!u.password && !u.searchParams.has('password')) return url;
    if (u.password) u.password = '***';
    if (u.searchParams.has('password')) u.searchParams.set('password', '***');
    return u.toString();
  } catch {
    return url;
  }
}

function dbOf(text: string, url: string): number {
  if (text === '') return 0;
  const db = Number(text);
  if (!Number.isInteger(db) || db < 0) {
    throw new RedisUrlError(`${shownUrl(url)}: database must be a non-negative integer, got "${text}"`);
  }
  return db;
}

/** ioredis options for a `redis://`, `rediss://` (TLS) or `unix://` URL. */
export function redisOptions(url: string): RedisOptions {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new RedisUrlError(`not a Redis URL: "${url}" (${expected})`);
  }
  const auth: RedisOptions = {
    ...(u.username ? { username: decodeURIComponent(u.username) } : {}),
    ...(u.password ? { password: decodeURIComponent(u.password) } : {}),
  };
  if (u.protocol === 'unix:') {
    const path = decodeURIComponent(u.pathname);
    if (path === '' || path === '/')
      throw new RedisUrlError(`${shownUrl(url)}: no socket path (${expected})`);
    // A socket URL has no host part to hold credentials: they come as query parameters.
    const username = u.searchParams.get('username');
    const password = u.searchParams.get('password');
    return {
      path,
      db: dbOf(u.searchParams.get('db') ?? '', url),
      ...(username ? { username } : {}),
      ...(password ? { password } : {}),
    };
  }
  if (u.protocol === 'redis:' || u.protocol === 'rediss:') {
    if (!u.hostname) throw new RedisUrlError(`${shownUrl(url)}: no host (${expected})`);
    return {
      host: u.hostname.replace(/^\[(.*)\]$/, '$1'),
      port: u.port ? Number(u.port) : 6379,
      db: dbOf(u.pathname.replace(/^\//, ''), url),
      ...auth,
      ...(u.protocol === 'rediss:' ? { tls: {} } : {}),
    };
  }
  throw new RedisUrlError(`${shownUrl(url)}: unsupported scheme "${u.protocol}" (${expected})`);
}

/**
 * Parse the URL and check that Redis answers, once, without retrying: a wrong address fails at once
 * with a message naming it, instead of the endless reconnection loop the queue's clients would enter.
 */
export async function connectRedis(url: string, timeoutMs = 5000): Promise<RedisOptions> {
  const options = redisOptions(url);
  const client = new Redis({
    ...options,
    lazyConnect: true,
    connectTimeout: timeoutMs,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    retryStrategy: () => null,
  });
  // The socket's own error (ECONNREFUSED, ENOENT...) says more than the rejection ("Connection is closed").
  let cause: Error | undefined;
  client.on('error', (e: Error) => (cause ??= e));
  try {
    await client.connect();
    await client.ping();
  } catch (e) {
    const reason = (cause ?? (e as Error)).message;
    throw new RedisUnreachableError(`cannot reach Redis at ${shownUrl(url)}: ${reason}`);
  } finally {
    client.disconnect();
  }
  return options;
}
