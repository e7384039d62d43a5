import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { fitMlp } from '../src/mlp.js';
import { mixedData } from './fixtures.js';

const dist = path.resolve(import.meta.dirname, '../dist/index.js');
const options = { layers: [16, 8], epochs: 4, learningRate: 0.01, seed: 11 };

// A fresh Node process fits the same data with the same seed and prints the model as JSON.
const script = `
import { readFileSync } from 'node:fs';
import { createDataset } from '@fb/core';
import { fitMlp } from ${JSON.stringify(dist)};
const { schema, x, y, options } = JSON.parse(readFileSync(process.argv[1], 'utf8'));
const model = await fitMlp(createDataset({ schema, x: Float64Array.from(x), y: Int32Array.from(y) }), options);
process.stdout.write(JSON.stringify({ model: model.toJSON() }));
`;

describe('fitMlp across processes', () => {
  it('one seed gives one model in separate processes and in this one', async () => {
    // The package is built before its tests run (turbo's test task depends on build).
    expect(existsSync(dist), `${dist} is missing: run pnpm build first`).toBe(true);
    const data = mixedData(600, 'mlp-processes');
    const dir = mkdtempSync(path.join(tmpdir(), 'fb-mlp-'));
    try {
      const input = path.join(dir, 'input.json');
      const { schema } = data;
      writeFileSync(input, JSON.stringify({ schema, x: [...data.x], y: [...data.y], options }));
      const run = () =>
        promisify(execFile)(process.execPath, ['--input-type=module', '-e', script, input], {
          cwd: path.dirname(dist),
          maxBuffer: 1 << 26,
        });
      const [a, b] = await Promise.all([run(), run()]);
      const here = await fitMlp(data, options);
      const first = JSON.parse(a.stdout);
      expect(JSON.parse(b.stdout)).toEqual(first);
      expect(first.model).toEqual(JSON.parse(JSON.stringify(here.toJSON())));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
