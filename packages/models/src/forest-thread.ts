// Helper thread of `growForest`: grows trees of the jobs posted by the calling thread and posts each back.
import { type MessagePort, parentPort } from 'node:worker_threads';
import { reportFailure } from '@fb/core/threads';
import { type GrowthJob, growClaimed } from './forest-growth.js';

parentPort?.on('message', ({ job, port }: { job: GrowthJob; port: MessagePort }) => {
  try {
    growClaimed(job, (t, tree) => {
      const buffers = [
        tree.feature,
        tree.threshold,
        tree.left,
        tree.right,
        tree.value,
        tree.nodeSamples,
        tree.nodeWeight,
        tree.impurity,
        tree.featureImportances,
      ].map((a) => a.buffer as ArrayBuffer);
      port.postMessage({ t, tree }, buffers);
    });
  } catch (error) {
    reportFailure(job, error);
  }
});
