import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { validateStudy } from '../src/plan/config.js';

/** The built worker (tests run after the build; the pool runs compiled code in its threads). */
export const workerUrl = new URL('../dist/worker.js', import.meta.url);

const dirs: string[] = [];
export function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'fb-bench-'));
  dirs.push(d);
  return d;
}
export function cleanTempDirs(): void {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
}

/** A study of small, fast cells: seeds x one biased scenario x the model question x two AEQUITAS plans. */
export function tinyStudy(overrides: Record<string, unknown> = {}) {
  return validateStudy({
    name: 'tiny',
    seeds: [1, 2, 3],
    synthetic: {
      generator: 'planted-pair',
      base: { rows: 300, otherAttributes: 3, otherValues: 3 },
      factors: { bias: [-3] },
    },
    questions: ['model'],
    models: [{ kind: 'logistic-regression', options: { l2: 1 } }],
    methods: [
      {
        label: 'A random',
        method: 'aequitas',
        options: { strategy: 'random', globalIterations: 50, localIterations: 50 },
      },
      {
        label: 'A directed',
        method: 'aequitas',
        options: { strategy: 'fully-directed', globalIterations: 50, localIterations: 50 },
      },
    ],
    budget: { maxTested: 200 },
    workers: 1,
    ...overrides,
  });
}

/**
 * Planted-pair scenarios crossed over two bias levels and two granularities, with their no-bias twins
 * (one per granularity: the bias does not shape the rows), asked the model and data questions.
 */
export const crossedSynthetic = {
  questions: ['model', 'data'],
  synthetic: {
    generator: 'planted-pair',
    base: { rows: 300 },
    factors: { bias: [-3, -1], granularity: [1, 2] },
    unbiased: { bias: 0 },
  },
};
