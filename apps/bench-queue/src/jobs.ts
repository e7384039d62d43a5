import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { builtCodeHash } from '@fb/bench';

/** The progress a worker reports for a running cell (the local pool's progress message). */
export type { CellProgress } from '@fb/bench';
export { type CellJob, type JobPayload, jobIdOf, type SignedResult } from './signed.js';

/** The default queue of a study: one per study, so two studies never share jobs. */
export const queueNameOf = (studyName: string): string => `fairbench-${studyName}`;

let fingerprint: string | null = null;

/**
 * A hash of the built code of @fb/bench and of every workspace package it runs cells with. Cell keys
 * include the code versions of the machine that expanded them, so a worker whose code differs would
 * store results under keys that do not describe them; it refuses such jobs instead.
 */
export function codeFingerprint(): string {
  if (fingerprint) return fingerprint;
  const fromHere = createRequire(import.meta.url);
  const benchManifest = fromHere.resolve('@fb/bench/package.json');
  const fromBench = createRequire(benchManifest);
  const { dependencies } = JSON.parse(readFileSync(benchManifest, 'utf8')) as {
    dependencies: Record<string, string>;
  };
  // Every built .js file of each package: entries, shared chunks and thread entries.
  const hash = createHash('sha256').update(builtCodeHash(dirname(fromHere.resolve('@fb/bench'))));
  for (const pkg of Object.keys(dependencies)
    .filter((d) => d.startsWith('@fb/'))
    .sort()) {
    hash.update(pkg).update(builtCodeHash(dirname(fromBench.resolve(pkg))));
  }
  fingerprint = hash.digest('hex').slice(0, 16);
  return fingerprint;
}
