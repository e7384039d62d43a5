import { Queue, type RedisOptions } from 'bullmq';
import { Redis } from 'ioredis';
import { runRecordKey } from './run.js';

/**
 * Delete every job of the queue, finished or not, and its run record (a fresh run must not take
 * results of an earlier one, and its jobs are of a new run).
 */
export async function clearQueue(connection: RedisOptions, name: string): Promise<void> {
  const queue = new Queue(name, { connection });
  queue.on('error', () => {});
  const client = new Redis(connection);
  try {
    await queue.obliterate({ force: true });
    await client.del(runRecordKey(name));
  } finally {
    client.disconnect();
    await queue.close();
  }
}
