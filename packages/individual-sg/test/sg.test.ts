import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { type DiscoveryResult, OptionsError } from '@fb/core';
import { blindModel, expectPairsInRegion, labelledSample, regionModel } from '@fb/testkit';
import { describe, expect, it } from 'vitest';
import { sg } from '../src/index.js';

interface Extras {
  explained: number;
  discriminatoryExplained: number;
  localSets: number;
  globalSets: number;
  solverChecks: number;
  repeatedSolves: number;
  unsatisfiable: number;
  paths: number;
  timings: Record<string, number>;
}
const extrasOf = (r: DiscoveryResult) => r.extras as unknown as Extras;
const small = { sampleLimit: 150, limeSamples: 300 };

describe('sg on a planted discriminating region', () => {
  it('finds the region through solved path constraints and reports only true pairs', async () => {
    const dataset = labelledSample(regionModel);
    const result = await sg.run({ dataset, model: regionModel }, small, { seed: 1 });
    const e = extrasOf(result);
    expect(result.metrics.tsn).toBe(150);
    expect(result.metrics.dsn).toBeGreaterThan(0);
    // Seeds are data rows (5 % in the region); local search around hits and solved paths do better
    // (10 % with this seed).
    expect(result.metrics.sur).toBeGreaterThan(0.075);
    expect(e.localSets).toBeGreaterThan(0);
    // Every set sent is solved once: by a check, or from the answer to the same set before.
    expect(e.solverChecks + e.repeatedSolves).toBe(e.localSets + e.globalSets);
    expect(e.repeatedSolves).toBeGreaterThan(0);
    expectPairsInRegion(result, regionModel);
  });

  it('reports nothing on a model that ignores the protected attribute', async () => {
    const result = await sg.run({ dataset: labelledSample(blindModel), model: blindModel }, small, {
      seed: 1,
    });
    expect(result.metrics.dsn).toBe(0);
    expect(result.metrics.tsn).toBe(150);
    // Without a discriminatory input there is no local search.
    expect(extrasOf(result).localSets).toBe(0);
    expect(extrasOf(result).globalSets).toBeGreaterThan(0);
  });
});

describe('budgets', () => {
  it('starts no explanation that the query budget cannot pay', async () => {
    // Each explanation sends 300 perturbed rows in one query; a check sends 2.
    const dataset = labelledSample(regionModel);
    const result = await sg.run({ dataset, model: regionModel }, small, {
      seed: 1,
      budget: { maxQueries: 1000 },
    });
    expect(result.run.stopReason).toBe('query-budget');
    expect(result.metrics.distinctQueries).toBeLessThanOrEqual(1000);
    expect(extrasOf(result).explained).toBeGreaterThanOrEqual(2);
  });
});

describe('options', () => {
  it('documents the defaults of the paper and rejects unknown options', () => {
    expect(sg.resolveOptions()).toEqual({
      clusters: 4,
      seeds: 1000,
      sampleLimit: 1000,
      limeSamples: 5000,
      confidenceThreshold: 0.3,
      variantMode: 'all-combinations',
    });
    expect(() => sg.resolveOptions({ limit: 5 } as never)).toThrow(OptionsError);
  });
});

const dist = path.resolve(import.meta.dirname, '../dist/index.js');

describe.skipIf(!existsSync(dist))('Z3 threads', () => {
  it('do not keep a process that ran SG alive: it exits by itself', () => {
    const child = spawnSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `import { createDataset, defineSchema } from '@fb/core';
         import { sg } from ${JSON.stringify(dist)};
         const schema = defineSchema({
           attributes: [
             { name: 'sex', kind: 'categorical', protected: true, categories: ['f', 'm'] },
             { name: 'a', kind: 'ordinal', protected: false, min: 0, max: 9 },
           ],
           outcome: { name: 'y', labels: ['no', 'yes'], favorable: 1 },
         });
         const x = []; for (let i = 0; i < 40; i++) x.push(i % 2, i % 10);
         const label = (s, a) => (a >= 5 ? s : 0);
         const y = []; for (let i = 0; i < 40; i++) y.push(label(x[2 * i], x[2 * i + 1]));
         const model = { nFeatures: 2, nClasses: 2, predict: (r) => Int32Array.from({ length: r.length / 2 }, (_, i) => label(r[2 * i], r[2 * i + 1])) };
         const result = await sg.run({ dataset: createDataset({ schema, x, y }), model }, { sampleLimit: 10, limeSamples: 100 });
         console.log(result.metrics.tsn, result.extras.solverChecks);`,
      ],
      { cwd: path.resolve(import.meta.dirname, '..'), encoding: 'utf8', timeout: 30_000 },
    );
    expect(child.error).toBeUndefined();
    expect(child.stderr).toBe('');
    expect(child.status).toBe(0);
    const [tsn, checks] = child.stdout.trim().split(' ').map(Number);
    expect(tsn).toBe(10);
    // Z3 did run, so its threads existed when the run returned.
    expect(checks).toBeGreaterThan(0);
  });
});
