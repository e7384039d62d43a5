// `pnpm check:packages`: packs every published package as a user receives it and runs
// `publint --strict` and `attw` (arethetypeswrong, all resolution modes: node10, node16 from CJS and
// ESM, bundler) on each tarball, with no rule ignored: every package serves both ESM and CommonJS. It also
// fails a package still carrying the text `pnpm new:method` scaffolds for its author to replace (the
// description in package.json, the Scaffold and Placeholder notes of the README), and a package whose
// src/version.ts differs from its package.json (versions.mjs). Exits non-zero when any package has a problem.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { packInto, publishedPackages, root, workspacePackages } from './pack.mjs';
import { checkVersions } from './versions.mjs';

const only = process.argv.slice(2).filter((a) => !a.startsWith('-'));
const names = only.length ? only : publishedPackages();
const work = mkdtempSync(join(tmpdir(), 'fairbench-check-'));
const bin = (name) => join(root, 'node_modules/.bin', name);
const failed = [];
// The scaffold's own markers (tools/create-method/templates): none may reach a published package.
const SCAFFOLD_TEXT = [/^Placeholder description/, /^> \*\*(Scaffold\.|Placeholder:)\*\*/m];
// Every src/version.ts equal to its package.json's version, and no source bundling its manifest.
for (const problem of checkVersions()) {
  failed.push(problem);
  console.log(problem);
}
const all = workspacePackages();
for (const name of names) {
  const { dir, manifest } = all.get(name);
  const readme = join(dir, 'README.md');
  const texts = [
    ['package.json description', manifest.description ?? ''],
    ['README.md', existsSync(readme) ? readFileSync(readme, 'utf8') : ''],
  ];
  for (const [where, text] of texts) {
    if (!SCAFFOLD_TEXT.some((re) => re.test(text))) continue;
    failed.push(`${name} (scaffold text)`);
    console.log(`${name}: the ${where} still holds the scaffold's placeholder text`);
  }
}
try {
  const tarballs = packInto(work, names);
  for (const [name, tarball] of tarballs) {
    for (const [tool, args] of [
      ['publint', ['run', tarball, '--strict']],
      ['attw', [tarball, ...['--format', 'ascii', '--no-color', '--no-emoji']]],
    ]) {
      const r = spawnSync(bin(tool), args, { encoding: 'utf8' });
      if (r.status !== 0) {
        failed.push(`${name} (${tool})`);
        console.log(`${name}: ${tool} FAILED\n${r.stdout}${r.stderr}`);
      }
    }
    if (!failed.some((f) => f.startsWith(`${name} `)))
      console.log(`${name}: publint --strict and attw clean`);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
if (failed.length) {
  console.log(`\n${failed.length} problem(s): ${failed.join(', ')}`);
  process.exit(1);
}
console.log(`\n${names.length} packages: publint --strict and attw clean`);
