// Helper thread of `growForest`: grows trees of the jobs posted by the calling thread and posts each back.
import { type MessagePort, parentPort } from 'node:worker_threads';
import { reportFailure } from '@fb/core/threads';
import { type GrowthJob, growClaimed } from './forest-growth.js';

parentPort?.on('message', ({ job, port }: { job: GrowthJob; port: MessagePort }) => {
  try {
    // Posted as copies, not transferred: detaching a buffer invalidates V8's ArrayBufferDetaching
    // protector in this thread, which throws away all of its optimised tree-building code (in the
    // process's first fit) and adds a detach check to every typed-array access compiled after.
    growClaimed(job, (t, tree) => port.postMessage({ t, tree }));
  } catch (error) {
    reportFailure(job, error);
  }
});
