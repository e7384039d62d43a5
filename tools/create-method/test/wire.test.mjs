import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { namesOf } from '../src/names.mjs';
import {
  addBenchDependency,
  addToRegistry,
  ENTRY_MARKER,
  IMPORT_MARKER,
  initialChangeset,
} from '../src/wire.mjs';
import { REPO_ROOT } from './scratch.mjs';

const registry = readFileSync(join(REPO_ROOT, 'apps/bench/src/methods.ts'), 'utf8');
const benchPackage = readFileSync(join(REPO_ROOT, 'apps/bench/package.json'), 'utf8');

/** The lines of `after` that are not in `before` (both split on newlines), assuming only insertions. */
function insertedLines(before, after) {
  const a = before.split('\n');
  const b = after.split('\n');
  const out = [];
  let i = 0;
  for (const line of b) {
    if (i < a.length && a[i] === line) i++;
    else out.push(line);
  }
  expect(i).toBe(a.length); // every original line is kept, in order
  return out;
}

describe('registering in the bench', () => {
  it('adds the import in module order above the marker and the entry above the entries marker', () => {
    const demo = namesOf('individual', 'demo-placeholder');
    const once = addToRegistry(registry, demo);
    expect(insertedLines(registry, once)).toEqual([
      "import { demoPlaceholder } from '@fb/individual-demo-placeholder';",
      '  demoPlaceholder as unknown as Detector<object>,',
    ]);
    const twice = addToRegistry(once, namesOf('subgroup', 'zeta'));
    const lines = twice.split('\n');
    const imports = lines.slice(
      0,
      lines.findIndex((l) => l.startsWith(IMPORT_MARKER)),
    );
    const specs = imports.map((l) => /from '([^']+)'/.exec(l)?.[1]).filter(Boolean);
    expect(specs).toEqual([...specs].sort());
    expect(specs).toContain('@fb/subgroup-zeta');
    const entriesEnd = lines.findIndex((l) => l.trim().startsWith(ENTRY_MARKER));
    expect(lines.slice(entriesEnd - 2, entriesEnd)).toEqual([
      '  demoPlaceholder as unknown as Detector<object>,',
      '  zeta as unknown as Detector<object>,',
    ]);
  });

  it('refuses a registry without its markers or already importing the package', () => {
    const demo = namesOf('individual', 'demo');
    expect(() => addToRegistry(registry.replace(IMPORT_MARKER, '// gone'), demo)).toThrow(
      /exactly once \(found 0\)/,
    );
    expect(() => addToRegistry(`${registry}\n${ENTRY_MARKER}\n`, demo)).toThrow(/exactly once \(found 2\)/);
    expect(() => addToRegistry(addToRegistry(registry, demo), demo)).toThrow(/already imports/);
  });

  it('adds the workspace dependency in name order, touching no other line', () => {
    const demo = namesOf('individual', 'demo-placeholder');
    const after = addBenchDependency(benchPackage, demo);
    expect(insertedLines(benchPackage, after)).toEqual([
      '    "@fb/individual-demo-placeholder": "workspace:^",',
    ]);
    const deps = JSON.parse(after).dependencies;
    expect(deps['@fb/individual-demo-placeholder']).toBe('workspace:^');
    expect(Object.keys(deps)).toEqual(Object.keys(deps).sort());
    const { dependencies: _a, ...restAfter } = JSON.parse(after);
    const { dependencies: _b, ...restBefore } = JSON.parse(benchPackage);
    expect(restAfter).toEqual(restBefore);
  });

  it('moves the trailing comma when the new dependency sorts last', () => {
    const source = '{\n  "name": "x",\n  "dependencies": {\n    "@fb/core": "workspace:^"\n  }\n}\n';
    const after = addBenchDependency(source, namesOf('subgroup', 'zeta'));
    expect(after).toBe(
      '{\n  "name": "x",\n  "dependencies": {\n    "@fb/core": "workspace:^",\n    "@fb/subgroup-zeta": "workspace:^"\n  }\n}\n',
    );
  });

  it('creates the dependencies block when there is none, and refuses a duplicate', () => {
    const after = addBenchDependency('{ "name": "x" }\n', namesOf('subgroup', 'zeta'));
    expect(JSON.parse(after)).toEqual({ name: 'x', dependencies: { '@fb/subgroup-zeta': 'workspace:^' } });
    expect(() => addBenchDependency(after, namesOf('subgroup', 'zeta'))).toThrow(/already depends/);
    expect(() => addBenchDependency('{ "name": ', namesOf('subgroup', 'zeta'))).toThrow(/not valid JSON/);
  });

  it('writes a minor changeset for the new package', () => {
    const text = initialChangeset(namesOf('subgroup', 'zeta'));
    expect(text).toMatch(/^---\n"@fb\/subgroup-zeta": minor\n---\n\n\S.*\n$/);
  });
});
