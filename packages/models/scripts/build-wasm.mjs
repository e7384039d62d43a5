// Compiles src/wasm/dense.wat into src/wasm/dense-wasm.ts (the module's bytes, base64). Run after
// changing the .wat: node scripts/build-wasm.mjs. The test suite checks the two agree.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { compileWat } from './wat.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const wat = path.join(here, '../src/wasm/dense.wat');
const bytes = await compileWat(readFileSync(wat, 'utf8'));
writeFileSync(
  path.join(here, '../src/wasm/dense-wasm.ts'),
  `// Generated from dense.wat by scripts/build-wasm.mjs; do not edit.\nexport const DENSE_WASM = '${Buffer.from(bytes).toString('base64')}';\n`,
);
console.log(`dense.wat: ${bytes.length} bytes`);
