import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fitRandomForest } from '../src/random-forest.js';
import { mixedData } from './fixtures.js';

// Helper threads run the built script, so this fits with the built package.
const dist = path.resolve(import.meta.dirname, '../dist/index.js');

describe('forest fit in threads', () => {
  it('grows the same forest, bit for bit, on 1 and 3 threads as from the sources', async () => {
    // The package is built before its tests run (turbo's test task depends on build).
    expect(existsSync(dist), `${dist} is missing: run pnpm build first`).toBe(true);
    const built = (await import(dist)) as typeof import('../src/index.js');
    // 11,000 rows x 100 trees: above the size from which helper threads take part.
    const data = mixedData(11_000, 'forest-threads');
    const options = { nEstimators: 100, maxDepth: 8, seed: 'threads' };
    const json = (threads: number) => {
      built.setPredictionThreads(threads);
      try {
        return JSON.stringify(built.fitRandomForest(data, options));
      } finally {
        built.setPredictionThreads('auto');
      }
    };
    const one = json(1);
    expect(json(3)).toBe(one);
    expect(JSON.stringify(fitRandomForest(data, options))).toBe(one);
  });
});
