import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const TOOL_DIR = fileURLToPath(new URL('..', import.meta.url));
export const REPO_ROOT = join(TOOL_DIR, '..', '..');
const SCRATCH = join(TOOL_DIR, '.scratch');

/** Files of the repository a scaffold reads or edits, copied into every scratch root. */
const COPIED = [
  'apps/bench/src/methods.ts',
  'apps/bench/package.json',
  'tools/readme-snippets/package.json',
  'tsconfig.base.json',
  'LICENSE',
];

/**
 * A throwaway repository root inside the tool's folder (so that the rendered packages resolve
 * @fb/core and @fb/testkit through its node_modules), holding copies of the files the tool edits.
 */
export function makeScratchRoot(label) {
  mkdirSync(SCRATCH, { recursive: true });
  const root = mkdtempSync(join(SCRATCH, `${label}-`));
  for (const path of COPIED) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    copyFileSync(join(REPO_ROOT, path), join(root, path));
  }
  mkdirSync(join(root, 'packages'));
  // Stops a Vitest started inside the root from finding the tool's own config further up.
  writeFileSync(join(root, 'vitest.config.mjs'), 'export default {};\n');
  mkdirSync(join(root, '.changeset'));
  return root;
}

export function removeScratchRoot(root) {
  rmSync(root, { recursive: true, force: true });
  try {
    rmdirSync(SCRATCH);
  } catch {
    // Another test file still has its scratch root there.
  }
}

/** Run a workspace binary (resolved under the repository's node_modules) with node. */
export function runNode(script, args, cwd) {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('VITEST')));
  return spawnSync(process.execPath, [script, ...args], { cwd, env, encoding: 'utf8', timeout: 120_000 });
}

export const BIN = {
  createMethod: join(TOOL_DIR, 'bin.mjs'),
  vitest: join(REPO_ROOT, 'node_modules', 'vitest', 'vitest.mjs'),
  tsc: join(REPO_ROOT, 'node_modules', 'typescript', 'bin', 'tsc'),
  biome: join(REPO_ROOT, 'node_modules', '@biomejs', 'biome', 'bin', 'biome'),
};
