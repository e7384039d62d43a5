// `pnpm size:packages [names...] [--max-mb N]`: installs each named published package (default: all)
// alone into a fresh npm project from its packed tarball (workspace dependencies from theirs, the rest
// from the registry) and prints what the install puts on disk: node_modules in MB (file bytes, 1 MB =
// 10^6 B) and the number of packages. With --max-mb, fails when an install is larger.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  bytesUnder,
  installFresh,
  megabytes,
  packInto,
  publishedPackages,
  workspaceClosure,
} from './pack.mjs';

const args = process.argv.slice(2);
const maxAt = args.indexOf('--max-mb');
const maxMb = maxAt >= 0 ? Number(args[maxAt + 1]) : Number.POSITIVE_INFINITY;
const names = args.filter((a, i) => !a.startsWith('-') && i !== maxAt + 1);
const targets = names.length ? names : publishedPackages();

// Packages in node_modules, scoped ones counted one by one.
const countPackages = (dir) =>
  readdirSync(dir)
    .filter((d) => !d.startsWith('.'))
    .reduce((n, d) => n + (d.startsWith('@') ? readdirSync(join(dir, d)).length : 1), 0);

const work = mkdtempSync(join(tmpdir(), 'fairbench-size-'));
const over = [];
try {
  const tarballs = packInto(work, workspaceClosure(targets));
  console.log('| package | install size (MB) | packages installed |\n|---|---:|---:|');
  for (const name of targets) {
    const project = join(work, name.replace('/', '+'));
    installFresh(project, tarballs, [name]);
    const modules = join(project, 'node_modules');
    const bytes = bytesUnder(modules);
    console.log(`| \`${name}\` | ${megabytes(bytes)} | ${countPackages(modules)} |`);
    if (bytes > maxMb * 1e6) over.push(`${name} ${megabytes(bytes)} MB`);
    rmSync(project, { recursive: true, force: true });
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
if (over.length) {
  console.log(`\nlarger than ${maxMb} MB: ${over.join(', ')}`);
  process.exit(1);
}
