// The published declaration files checked as a user's compiler sees them with `skipLibCheck: false`:
// one file imports every entry of every published package (ESM), another requires them (CommonJS),
// and every declaration file they reach, ours and our dependencies', is typechecked.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { repoRoot, toolDir } from './snippets.mjs';

/** Every entry (`@fb/core`, `@fb/core/threads`, ...) of the published packages, JSON entries aside. */
export function publishedEntries(root = repoRoot) {
  const entries = [];
  const packages = path.join(root, 'packages');
  for (const dir of readdirSync(packages).sort()) {
    const manifest = JSON.parse(readFileSync(path.join(packages, dir, 'package.json'), 'utf8'));
    if (manifest.private) continue;
    for (const key of Object.keys(manifest.exports ?? { '.': null })) {
      if (key.endsWith('.json')) continue;
      entries.push(key === '.' ? manifest.name : `${manifest.name}/${key.slice(2)}`);
    }
  }
  return entries;
}

/**
 * Typecheck `entries` with `skipLibCheck: false` under NodeNext resolution, imported from an ES module
 * and required from a CommonJS one. Returns the compiler's problems as text lines.
 * @param {string[]} entries
 */
export function checkDeclarations(entries, { workDir = path.join(toolDir, '.lib-check') } = {}) {
  rmSync(workDir, { recursive: true, force: true });
  mkdirSync(workDir, { recursive: true });
  const esm = path.join(workDir, 'imports.mts');
  const cjs = path.join(workDir, 'requires.cts');
  writeFileSync(
    esm,
    `${entries.map((e, i) => `import * as m${i} from '${e}';`).join('\n')}\nexport const all = [${entries.map((_, i) => `m${i}`).join(', ')}];\n`,
  );
  writeFileSync(
    cjs,
    `${entries.map((e, i) => `import m${i} = require('${e}');`).join('\n')}\nexport const all = [${entries.map((_, i) => `m${i}`).join(', ')}];\n`,
  );
  const options = {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    strict: true,
    skipLibCheck: false,
    noEmit: true,
    types: ['node'],
  };
  const program = ts.createProgram({ rootNames: [esm, cjs], options });
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const where = d.file
      ? `${path.relative(repoRoot, d.file.fileName)}:${d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1}`
      : '(compiler)';
    return `${where} TS${d.code} ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
  });
}
