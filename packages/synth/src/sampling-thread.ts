// Helper thread of `populateSubgroups`: runs population jobs posted by the calling thread.
import { parentPort } from 'node:worker_threads';
import { reportFailure } from '@fb/core/threads';
import { type Placement, type PopulationJob, runHelperJob } from './sampling-threads.js';

parentPort?.on('message', ({ job, to }: { job: PopulationJob; to: Placement }) => {
  try {
    runHelperJob(job, to);
  } catch (error) {
    reportFailure(job, error);
  }
});
