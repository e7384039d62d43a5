import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { conformanceChecks } from '@fb/testkit';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { applyPlan, BENCH_PACKAGE, planMethod, REGISTRY, SNIPPETS_PACKAGE } from '../src/scaffold.mjs';
import { BIN, makeScratchRoot, REPO_ROOT, removeScratchRoot, runNode } from './scratch.mjs';

const read = (...parts) => readFileSync(join(...parts), 'utf8');

/** Every file under `dir` with its content, for before/after comparisons. */
function snapshot(dir) {
  const out = {};
  const walk = (d) => {
    for (const name of readdirSync(d)) {
      const full = join(d, name);
      if (statSync(full).isDirectory()) walk(full);
      else out[relative(dir, full)] = readFileSync(full, 'utf8');
    }
  };
  walk(dir);
  return out;
}

/** The object literal after `key:` in a rendered test file, evaluated. */
function optionLiteral(source, key) {
  const m = new RegExp(`${key}: (\\{[^}]*\\})`).exec(source);
  if (!m) throw new Error(`no ${key} in the rendered conformance test`);
  return new Function(`return (${m[1]});`)();
}

/** The README's TypeScript example, importing the package from its source instead of npm. */
function readmeExample(readme, packageName) {
  const m = /```ts\n([\s\S]*?)```/.exec(readme);
  if (!m) throw new Error('the README has no ts example');
  return m[1].replace(`from '${packageName}'`, "from '../src/index.js'");
}

const reference = JSON.parse(read(REPO_ROOT, 'packages/individual-aequitas/package.json'));
const SHARED_FIELDS = [
  'type',
  'sideEffects',
  'engines',
  'main',
  'module',
  'types',
  'exports',
  'files',
  'scripts',
  'tsup',
];

const cases = [
  { kind: 'individual', name: 'demo-placeholder', main: 'search' },
  // The longest name allowed: the rendered code must still be formatted and lint-clean.
  { kind: 'subgroup', name: 'very-long-method-name-for-test', main: 'scan' },
];

describe.each(cases)('scaffolding a $kind method', ({ kind, name, main }) => {
  const dir = `packages/${kind}-${name}`;
  const packageName = `@fb/${kind}-${name}`;
  let root;
  let before;
  let plan;

  beforeAll(() => {
    root = makeScratchRoot(kind);
    before = snapshot(root);
    plan = planMethod({ root, kind, name });
    applyPlan(root, plan);
    const example = readmeExample(read(root, dir, 'README.md'), packageName);
    writeFileSync(join(root, dir, 'test', 'readme-example.ts'), example);
  });
  afterAll(() => removeScratchRoot(root));

  it('writes the package, its changeset and nothing else new', () => {
    const created = Object.keys(snapshot(root)).filter(
      (p) => !(p in before) && !p.endsWith('readme-example.ts'),
    );
    expect(created.sort()).toEqual(
      [
        `.changeset/${kind}-${name}-initial.md`,
        `${dir}/LICENSE`,
        `${dir}/README.md`,
        `${dir}/package.json`,
        `${dir}/src/index.ts`,
        `${dir}/src/options.ts`,
        `${dir}/src/version.ts`,
        `${dir}/src/${main}.ts`,
        `${dir}/test/conformance.test.ts`,
        `${dir}/test/${name}.test.ts`,
        `${dir}/tsconfig.json`,
      ].sort(),
    );
    for (const f of plan.create) expect(f.content, f.path).not.toMatch(/\{\{|\[name\]/);
    expect(read(root, `.changeset/${kind}-${name}-initial.md`)).toMatch(
      new RegExp(`^---\\n"${packageName}": minor\\n---\\n`),
    );
  });

  it('gives the package the same manifest shape as the existing detector packages', () => {
    const pkg = JSON.parse(read(root, dir, 'package.json'));
    expect(pkg.name).toBe(packageName);
    expect(pkg.version).toBe('0.0.0');
    for (const field of SHARED_FIELDS) expect(pkg[field], field).toEqual(reference[field]);
    expect(pkg.dependencies).toEqual({ '@fb/core': 'workspace:^' });
    expect(pkg.devDependencies).toEqual({ '@fb/testkit': 'workspace:^' });
    expect(JSON.parse(read(root, dir, 'tsconfig.json')).extends).toBe('../../tsconfig.base.json');
  });

  it('writes a README with every section and marked placeholders, no TODO', () => {
    const readme = read(root, dir, 'README.md');
    const headings = readme.match(/^## .+$/gm);
    expect(headings).toEqual([
      '## What it does',
      '## Install',
      '## Example',
      '## Options',
      '## Output',
      '## Departures from the paper',
    ]);
    expect(readme).toContain(`npm install ${packageName} @fb/core`);
    expect(readme).not.toMatch(/TODO/i);
    for (const section of readme.split(/^## /m).slice(1)) {
      if (section.startsWith('Install')) continue;
      expect(section, section.split('\n')[0]).toContain('> **Placeholder:**');
    }
  });

  it('registers the method in copies of the bench registry and manifest', () => {
    const ident = plan.names.ident;
    const registry = read(root, REGISTRY);
    expect(registry).toContain(`import { ${ident} } from '${packageName}';`);
    expect(registry).toContain(`  ${ident} as unknown as Detector<object>,\n  // @new-method:entries`);
    expect(JSON.parse(read(root, BENCH_PACKAGE)).dependencies[packageName]).toBe('workspace:^');
    // The README check compiles the new README's example against the package.
    expect(JSON.parse(read(root, SNIPPETS_PACKAGE)).devDependencies[packageName]).toBe('workspace:^');
    // The real bench files are untouched.
    expect(read(REPO_ROOT, REGISTRY)).toBe(before[REGISTRY]);
    expect(read(REPO_ROOT, BENCH_PACKAGE)).toBe(before[BENCH_PACKAGE]);
  });

  it('passes every check of the conformance kit', async () => {
    const { [plan.names.ident]: detector } = await import(join(root, dir, 'src', 'index.ts'));
    expect(detector.id).toBe(name);
    expect(detector.kind).toBe(kind);
    const source = read(root, dir, 'test', 'conformance.test.ts');
    const config = {
      quickOptions: optionLiteral(source, 'quickOptions'),
      longOptions: optionLiteral(source, 'longOptions'),
    };
    const failures = [];
    for (const check of conformanceChecks(detector, config)) {
      await check.run().catch((e) => failures.push(`${check.name}: ${e.message}`));
    }
    expect(failures).toEqual([]);
  });

  it('runs its README example', async () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    try {
      await import(join(root, dir, 'test', 'readme-example.ts'));
      expect(log).toHaveBeenCalled();
      if (kind === 'individual')
        expect(log.mock.calls[0][0]).toMatch(/^[1-9]\d* discriminatory inputs among 1[89]\d\d tested$/);
      else {
        // Men are approved 3 times in 4 and women 1 time in 4: both groups differ from the rest by 0.5.
        const reported = log.mock.calls.map(([rank, conditions, effect]) => [rank, conditions, effect]);
        expect(reported).toEqual([
          [1, [{ attribute: 'sex', values: [0] }], expect.closeTo(0.5, 12)],
          [2, [{ attribute: 'sex', values: [1] }], expect.closeTo(-0.5, 12)],
        ]);
      }
    } finally {
      log.mockRestore();
    }
  });

  it('passes its own tests, typecheck and lint', () => {
    const pkgDir = join(root, dir);
    const tests = runNode(BIN.vitest, ['run', '--root', pkgDir], pkgDir);
    expect(tests.status, tests.stdout + tests.stderr).toBe(0);
    expect(tests.stdout).toMatch(/Test Files\s+.*2 passed/);
    const types = runNode(BIN.tsc, ['--noEmit', '-p', pkgDir], pkgDir);
    expect(types.status, types.stdout + types.stderr).toBe(0);
    // The scratch folder is git-ignored, so Biome is told not to apply ignore files here.
    const lint = runNode(
      BIN.biome,
      ['check', '--vcs-use-ignore-file=false', pkgDir, join(root, REGISTRY)],
      REPO_ROOT,
    );
    expect(lint.status, lint.stdout + lint.stderr).toBe(0);
  });
});

describe('a dry run', () => {
  let root;
  beforeAll(() => {
    root = makeScratchRoot('dry');
  });
  afterAll(() => removeScratchRoot(root));

  it('lists the files it would write and changes nothing', () => {
    const before = snapshot(root);
    const out = runNode(BIN.createMethod, ['individual', 'dry-one', '--dry-run', '--root', root], root);
    expect(out.status, out.stderr).toBe(0);
    expect(out.stdout).toContain('Would create:\n  packages/individual-dry-one/package.json');
    expect(out.stdout).toContain('  .changeset/individual-dry-one-initial.md');
    expect(out.stdout).toContain(`Would modify:\n  ${REGISTRY}\n  ${BENCH_PACKAGE}\n  ${SNIPPETS_PACKAGE}`);
    expect(out.stdout).toContain('Dry run: nothing was written.');
    expect(snapshot(root)).toEqual(before);
  });
});
