import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { checkNameFree, checkNameSyntax, namesOf, UsageError } from './names.mjs';
import { renderPackage } from './render.mjs';
import { addBenchDependency, addToRegistry, initialChangeset } from './wire.mjs';

export const REGISTRY = 'apps/bench/src/methods.ts';
export const BENCH_PACKAGE = 'apps/bench/package.json';
/** The check that every published README's examples compile depends on every published package. */
export const SNIPPETS_PACKAGE = 'tools/readme-snippets/package.json';

function readRequired(root, path) {
  const full = join(root, path);
  if (!existsSync(full)) throw new UsageError(`${full} not found: is ${root} the fairbench repository root?`);
  return readFileSync(full, 'utf8');
}

/**
 * Everything `create-method` would do for a new method, computed without writing: the files to
 * create and the files to modify (paths relative to `root`). Throws `UsageError` for a bad or taken
 * name and for a registry it cannot edit.
 */
export function planMethod({ root, kind, name }) {
  checkNameSyntax(kind, name);
  const registry = readRequired(root, REGISTRY);
  const benchPackage = readRequired(root, BENCH_PACKAGE);
  checkNameFree(root, name, registry);
  const names = namesOf(kind, name);
  const create = renderPackage(names).map((f) => ({
    path: `packages/${names.dir}/${f.path}`,
    content: f.content,
  }));
  // Every tarball carries the repository's licence.
  create.push({ path: `packages/${names.dir}/LICENSE`, content: readRequired(root, 'LICENSE') });
  create.push({ path: `.changeset/${names.dir}-initial.md`, content: initialChangeset(names) });
  for (const f of create) {
    if (existsSync(join(root, f.path))) throw new UsageError(`${f.path} already exists`);
  }
  const modify = [
    { path: REGISTRY, before: registry, after: addToRegistry(registry, names, REGISTRY) },
    {
      path: BENCH_PACKAGE,
      before: benchPackage,
      after: addBenchDependency(benchPackage, names, BENCH_PACKAGE),
    },
  ];
  if (existsSync(join(root, SNIPPETS_PACKAGE))) {
    const snippets = readRequired(root, SNIPPETS_PACKAGE);
    modify.push({
      path: SNIPPETS_PACKAGE,
      before: snippets,
      after: addBenchDependency(snippets, names, SNIPPETS_PACKAGE, 'devDependencies'),
    });
  }
  return { names, create, modify };
}

/** Write a plan: new files first (never overwriting), then the edits (only if their file is unchanged). */
export function applyPlan(root, plan) {
  for (const f of plan.modify) {
    if (readFileSync(join(root, f.path), 'utf8') !== f.before) {
      throw new UsageError(`${f.path} changed while the method was being planned; run the command again`);
    }
  }
  for (const f of plan.create) {
    const full = join(root, f.path);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, f.content, { flag: 'wx' });
  }
  for (const f of plan.modify) writeFileSync(join(root, f.path), f.after);
}

/** What to do after scaffolding, one line per step. */
export function nextSteps(names) {
  const main = names.kind === 'individual' ? 'search' : 'scan';
  return [
    'Next steps:',
    '  pnpm install',
    `  pnpm --filter ${names.packageName} test`,
    `Then replace the placeholder in packages/${names.dir}/src/${main}.ts with the paper's algorithm, fill in`,
    `the README placeholders and the changeset line (.changeset/${names.dir}-initial.md): see docs/contributing.md.`,
  ];
}
