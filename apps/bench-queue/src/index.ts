export { type QueueExecutorOptions, queueExecutor } from './executor.js';
export { type CellJob, codeFingerprint, jobIdOf, queueNameOf } from './jobs.js';
export { clearQueue } from './queue.js';
export { connectRedis, RedisUnreachableError, RedisUrlError, redisOptions, shownUrl } from './redis.js';
export {
  type JobPayload,
  MIN_SECRET_LENGTH,
  openJob,
  openResult,
  QueueSecretError,
  queueSecret,
  RejectedError,
  type SignedResult,
  signJob,
  signResult,
} from './signed.js';
export { type QueueWorker, type QueueWorkerOptions, startQueueWorker } from './worker.js';
