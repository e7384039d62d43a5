import { Queue, type RedisOptions } from 'bullmq';

/** Delete every job of the queue, finished or not (a fresh run must not take results of an earlier one). */
export async function clearQueue(connection: RedisOptions, name: string): Promise<void> {
  const queue = new Queue(name, { connection });
  queue.on('error', () => {});
  try {
    await queue.obliterate({ force: true });
  } finally {
    await queue.close();
  }
}
