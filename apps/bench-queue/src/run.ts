import { randomUUID } from 'node:crypto';
import type { RedisOptions } from 'bullmq';
import { Redis } from 'ioredis';
import { openRun, RejectedError, type RunRecord, signRun } from './signed.js';

/** Where a queue's current run is published: one signed record per queue. */
export const runRecordKey = (queue: string): string => `fairbench-run:${queue}`;

/**
 * The run this coordinator signs its jobs for: the queue's current run when its record is signed with
 * the secret and names this code (a resumed run keeps its jobs), else a new one, published for the
 * workers. A record that is not signed with the secret is replaced, reported through `onRejected`.
 */
export async function claimRun(
  connection: RedisOptions,
  queue: string,
  secret: string,
  code: string,
  onRejected: (reason: string) => void,
): Promise<string> {
  const client = new Redis(connection);
  try {
    const held = await client.get(runRecordKey(queue));
    if (held !== null) {
      try {
        const record = openRun(secret, queue, JSON.parse(held));
        if (record.code === code) return record.run;
      } catch (e) {
        if (!(e instanceof RejectedError || e instanceof SyntaxError)) throw e;
        onRejected(`the run record of queue ${queue}: ${e.message}`);
      }
    }
    const run = randomUUID();
    await client.set(runRecordKey(queue), JSON.stringify(signRun(secret, queue, { run, code })));
    return run;
  } finally {
    client.disconnect();
  }
}

/** The queue's current run as published and signed with `secret`, or null when there is none. */
export async function currentRun(client: Redis, queue: string, secret: string): Promise<RunRecord | null> {
  const held = await client.get(runRecordKey(queue));
  if (held === null) return null;
  let value: unknown;
  try {
    value = JSON.parse(held);
  } catch {
    throw new RejectedError(`the run record of queue ${queue} is not JSON`);
  }
  return openRun(secret, queue, value);
}
