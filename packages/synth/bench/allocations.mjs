// Heap allocations of `generate` at 10,119 rows (the bench's small data set, ensembleSize 0), by the
// functions that made them: V8's sampling heap profiler over 50 calls after 20 unmeasured ones, objects
// collected since included. Prints megabytes per call and the largest sources. Not a test.
// Run after `pnpm build`: node bench/allocations.mjs [other build's dist/index.js]
import { Session } from 'node:inspector/promises';
import path from 'node:path';
import { smallOptions } from './options.mjs';

const file = process.argv[2]
  ? path.resolve(process.argv[2])
  : path.join(import.meta.dirname, '../dist/index.js');
const { generate } = await import(file);
const options = { ...smallOptions, ensembleSize: 0 };
const calls = 50;
for (let i = 0; i < 20; i++) generate(options);
const session = new Session();
session.connect();
await session.post('HeapProfiler.enable');
await session.post('HeapProfiler.startSampling', {
  samplingInterval: 4096,
  includeObjectsCollectedByMinorGC: true,
  includeObjectsCollectedByMajorGC: true,
});
for (let i = 0; i < calls; i++) generate(options);
const { profile } = await session.post('HeapProfiler.stopSampling');
const bytes = new Map();
const visit = (node) => {
  const { functionName, url, lineNumber } = node.callFrame;
  const name = `${functionName || '(anonymous)'} (${path.basename(url) || 'native'}:${lineNumber + 1})`;
  if (node.selfSize) bytes.set(name, (bytes.get(name) ?? 0) + node.selfSize);
  for (const child of node.children) visit(child);
};
visit(profile.head);
const total = [...bytes.values()].reduce((a, b) => a + b, 0);
console.log(
  `${file}: ${(total / calls / 1e6).toFixed(2)} MB allocated per call at 10,119 rows; largest sources:`,
);
for (const [name, b] of [...bytes].sort((a, c) => c[1] - a[1]).slice(0, 6))
  console.log(`  ${(b / calls / 1e3).toFixed(0).padStart(6)} KB  ${name}`);
