export { type QueueExecutorOptions, queueExecutor } from './executor.js';
export { type CellJob, codeFingerprint, jobIdOf, queueNameOf } from './jobs.js';
export { clearQueue } from './queue.js';
export { connectRedis, RedisUnreachableError, RedisUrlError, redisOptions, shownUrl } from './redis.js';
export { claimRun, currentRun, runRecordKey } from './run.js';
export {
  ExpiredJobError,
  ForeignJobError,
  type JobExpectation,
  type JobPayload,
  MIN_SECRET_LENGTH,
  openJob,
  openResult,
  openRun,
  QueueSecretError,
  queueSecret,
  RejectedError,
  ReplayedJobError,
  type RunRecord,
  runKey,
  type SignedResult,
  signJob,
  signResult,
  signRun,
} from './signed.js';
export { type QueueWorker, type QueueWorkerOptions, startQueueWorker } from './worker.js';
