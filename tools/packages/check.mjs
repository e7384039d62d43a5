// `pnpm check:packages`: packs every published package as a user receives it and runs
// `publint --strict` and `attw` (arethetypeswrong, all resolution modes: node10, node16 from CJS and
// ESM, bundler) on each tarball. A package whose exports have no `require` condition is ESM only by
// design (the command line); for it, CommonJS resolving to ESM is expected and not reported. Exits
// non-zero when any package has a problem.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { packInto, publishedPackages, root, workspacePackages } from './pack.mjs';

const only = process.argv.slice(2).filter((a) => !a.startsWith('-'));
const names = only.length ? only : publishedPackages();
const work = mkdtempSync(join(tmpdir(), 'fairbench-check-'));
const bin = (name) => join(root, 'node_modules/.bin', name);
const failed = [];
try {
  const tarballs = packInto(work, names);
  const all = workspacePackages();
  const esmOnly = (name) => !JSON.stringify(all.get(name).manifest.exports ?? {}).includes('"require"');
  for (const [name, tarball] of tarballs) {
    for (const [tool, args] of [
      ['publint', ['run', tarball, '--strict']],
      [
        'attw',
        [
          tarball,
          ...['--format', 'ascii', '--no-color', '--no-emoji'],
          ...(esmOnly(name) ? ['--ignore-rules', 'cjs-resolves-to-esm'] : []),
        ],
      ],
    ]) {
      const r = spawnSync(bin(tool), args, { encoding: 'utf8' });
      if (r.status !== 0) {
        failed.push(`${name} (${tool})`);
        console.log(`${name}: ${tool} FAILED\n${r.stdout}${r.stderr}`);
      }
    }
    if (!failed.some((f) => f.startsWith(`${name} `)))
      console.log(`${name}: publint --strict and attw clean${esmOnly(name) ? ' (ESM only)' : ''}`);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
if (failed.length) {
  console.log(`\n${failed.length} problem(s): ${failed.join(', ')}`);
  process.exit(1);
}
console.log(`\n${names.length} packages: publint --strict and attw clean`);
