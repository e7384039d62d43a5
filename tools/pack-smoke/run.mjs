// Packs @fb/core and a detector with `pnpm pack`, installs the tarballs into a fresh project
// outside the workspace with npm, and runs a ten-line example through ESM and through CommonJS.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { installFresh, packInto, run } from '../packages/pack.mjs';

const packages = ['@fb/core', '@fb/individual-aequitas'];
const work = mkdtempSync(join(tmpdir(), 'fairbench-pack-'));

try {
  const tarballs = packInto(work, packages);
  const project = join(work, 'project');
  installFresh(project, tarballs, packages, { type: 'module' });

  const body = `
const schema = defineSchema({ attributes: [
  { name: 'sex', kind: 'categorical', protected: true, categories: ['m', 'f'] },
  { name: 'score', kind: 'ordinal', protected: false, min: 0, max: 9, step: 1 } ],
  outcome: { name: 'ok', labels: ['no', 'yes'], favorable: 1 } });
const dataset = createDataset({ schema, x: [0, 3, 1, 7, 0, 9, 1, 2], y: [0, 1, 1, 0] });
const model = { nFeatures: 2, nClasses: 2, predict: (x) => Int32Array.from({ length: x.length / 2 }, (_, i) => (x[2 * i + 1] - 3 * x[2 * i] > 4 ? 1 : 0)) };
const result = await aequitas.run({ dataset, model }, { globalIterations: 200, localIterations: 50 }, { seed: 1 });
console.log(JSON.stringify({ tsn: result.metrics.tsn, dsn: result.metrics.dsn, pairs: result.findings.pairs.length }));`;
  writeFileSync(
    join(project, 'example.mjs'),
    `import { createDataset, defineSchema } from '@fb/core';\nimport { aequitas } from '@fb/individual-aequitas';\n${body}\n`,
  );
  writeFileSync(
    join(project, 'example.cjs'),
    `const { createDataset, defineSchema } = require('@fb/core');\nconst { aequitas } = require('@fb/individual-aequitas');\n(async () => {${body}\n})();\n`,
  );
  for (const file of ['example.mjs', 'example.cjs']) {
    const out = JSON.parse(run('node', [file], project).trim());
    // score - 3*sex > 4 flips with sex exactly for score in 5..7: the search must find those.
    if (!(out.dsn > 0 && out.pairs >= out.dsn && out.tsn >= out.dsn))
      throw new Error(`${file}: unexpected output ${JSON.stringify(out)}`);
    console.log(`${file}: ok ${JSON.stringify(out)}`);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
