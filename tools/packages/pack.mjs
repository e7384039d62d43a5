// Packing the workspace's published packages the way a user receives them: `pnpm pack` (which rewrites
// `workspace:` ranges to versions), then an npm install of the tarballs into a fresh project outside the
// workspace, with npm `overrides` pointing every workspace package at its tarball.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

export const root = resolve(import.meta.dirname, '../..');

export const run = (cmd, args, cwd) =>
  execFileSync(cmd, args, { cwd, stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' });

/** Every package under packages/ by name: { dir, manifest }. */
export function workspacePackages() {
  const out = new Map();
  for (const d of readdirSync(join(root, 'packages'))) {
    const file = join(root, 'packages', d, 'package.json');
    if (!existsSync(file)) continue;
    const manifest = JSON.parse(readFileSync(file, 'utf8'));
    out.set(manifest.name, { dir: join(root, 'packages', d), manifest });
  }
  return out;
}

/** The published (non-private) workspace packages, by name. */
export const publishedPackages = () =>
  [...workspacePackages()].filter(([, p]) => !p.manifest.private).map(([name]) => name);

/** `names` and every workspace package they depend on (dependencies and peers), transitively. */
export function workspaceClosure(names) {
  const all = workspacePackages();
  const needed = new Set();
  const visit = (name) => {
    if (needed.has(name)) return;
    needed.add(name);
    const { manifest } = all.get(name);
    for (const dep of Object.keys({ ...manifest.dependencies, ...manifest.peerDependencies }))
      if (all.has(dep)) visit(dep);
  };
  for (const n of names) visit(n);
  return needed;
}

const tarballPrefix = (name) => `${name.replace('@', '').replace('/', '-')}-`;

/** Packs each named package into `dir`; returns name -> absolute tarball path. */
export function packInto(dir, names) {
  const all = workspacePackages();
  const out = new Map();
  for (const name of names) {
    const before = new Set(readdirSync(dir));
    run('pnpm', ['pack', '--pack-destination', dir], all.get(name).dir);
    const made = readdirSync(dir).filter(
      (f) => !before.has(f) && f.endsWith('.tgz') && f.startsWith(tarballPrefix(name)),
    );
    if (made.length !== 1) throw new Error(`pack ${name}: expected one tarball, found ${made}`);
    out.set(name, join(dir, made[0]));
  }
  return out;
}

/**
 * A fresh npm project in `project` with `install` installed from the tarballs (and the registry for
 * everything else). Install scripts are skipped: no published package needs one, and onnxruntime-node's
 * would only fetch GPU libraries.
 */
export function installFresh(project, tarballs, install, extra = {}) {
  mkdirSync(project, { recursive: true });
  // Relative specs: npm records the installed tarball as `file:<relative path>`, and an override must
  // match that spelling exactly.
  const spec = (name) => `file:${relative(project, tarballs.get(name))}`;
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify({
      name: 'fresh-project',
      private: true,
      ...extra,
      overrides: Object.fromEntries([...tarballs.keys()].map((n) => [n, spec(n)])),
    }),
  );
  run('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts', ...install.map(spec)], project);
}

/** Bytes on disk under `dir` (file sizes, not blocks). */
export function bytesUnder(dir) {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    if (entry.isDirectory()) total += bytesUnder(p);
    else if (entry.isFile()) total += statSync(p).size;
  }
  return total;
}

export const megabytes = (bytes) => (bytes / 1e6).toFixed(1);
