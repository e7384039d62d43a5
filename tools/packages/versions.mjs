// A package that reports its own version (a detector's `version`) reads it from `src/version.ts`, never
// by importing its package.json: a bundler would copy the whole manifest into the build, so editing a
// script or a dev dependency would change the built code, and with it the code version that keys the
// study's stored cells. This keeps every `src/version.ts` equal to its package.json's version:
//   node tools/packages/versions.mjs          fails (exit 1) on a difference, or on a source that
//                                             imports its package.json
//   node tools/packages/versions.mjs --write  writes the manifests' versions into src/version.ts
// `pnpm version-packages` runs it with --write after `changeset version`; `pnpm check:packages` runs the check.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { workspacePackages } from './pack.mjs';

const DECLARATION = /^export const VERSION = '([^']*)';$/m;

/** The problems found (none: []), after writing the manifests' versions when `write`. */
export function checkVersions(write = false) {
  const problems = [];
  for (const [name, { dir, manifest }] of workspacePackages()) {
    const src = join(dir, 'src');
    if (!existsSync(src)) continue;
    for (const file of readdirSync(src, { recursive: true })) {
      if (!/\.(ts|tsx|mts|cts)$/.test(file)) continue;
      const text = readFileSync(join(src, file), 'utf8');
      if (/from '(\.\.\/)+package\.json'/.test(text))
        problems.push(`${name}: src/${file} imports package.json (use src/version.ts)`);
    }
    const file = join(src, 'version.ts');
    if (!existsSync(file)) continue;
    const text = readFileSync(file, 'utf8');
    const declared = DECLARATION.exec(text)?.[1];
    if (declared === undefined) {
      problems.push(`${name}: src/version.ts does not declare export const VERSION = '<version>';`);
    } else if (declared !== manifest.version) {
      if (write)
        writeFileSync(file, text.replace(DECLARATION, `export const VERSION = '${manifest.version}';`));
      else problems.push(`${name}: src/version.ts says ${declared}, package.json ${manifest.version}`);
    }
  }
  return problems;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const problems = checkVersions(process.argv.includes('--write'));
  for (const p of problems) console.log(p);
  if (problems.length > 0) process.exit(1);
  console.log('every src/version.ts matches its package.json');
}
