// Compiles each src/wasm/<name>.wat into src/wasm/<name>-wasm.ts (the module's bytes, base64, as
// <NAME>_WASM). Run after changing a .wat: node scripts/build-wasm.mjs. The test suite checks they agree.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { compileWat } from './wat.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
for (const name of ['binning', 'cells', 'dense', 'tree']) {
  const wat = path.join(here, `../src/wasm/${name}.wat`);
  const bytes = await compileWat(readFileSync(wat, 'utf8'), `${name}.wat`);
  writeFileSync(
    path.join(here, `../src/wasm/${name}-wasm.ts`),
    `// Generated from ${name}.wat by scripts/build-wasm.mjs; do not edit.\nexport const ${name.toUpperCase()}_WASM = '${Buffer.from(bytes).toString('base64')}';\n`,
  );
  console.log(`${name}.wat: ${bytes.length} bytes`);
}
