// Helper thread of `sampleSubgroups`: runs sampling jobs posted by the calling thread.
import { parentPort } from 'node:worker_threads';
import { reportFailure } from '@fb/core/threads';
import { runTasks, type SamplingJob } from './sampling-threads.js';

parentPort?.on('message', (job: SamplingJob) => {
  try {
    runTasks(job);
  } catch (error) {
    reportFailure(job, error);
  }
});
