import { isDeepStrictEqual } from 'node:util';
import { UsageError } from './names.mjs';

export const IMPORT_MARKER = '// @new-method:imports';
export const ENTRY_MARKER = '// @new-method:entries';

function markerLine(lines, marker, file) {
  const found = lines.flatMap((line, i) => (line.trim().startsWith(marker) ? [i] : []));
  if (found.length !== 1) {
    throw new UsageError(
      `${file} must hold the marker comment "${marker}" exactly once (found ${found.length}); restore it`,
    );
  }
  return found[0];
}

/** Import statements above line `end`: their first line and module path, in file order. */
function importsAbove(lines, end) {
  const out = [];
  for (let i = 0; i < end; i++) {
    const m = /from '([^']+)';\s*$/.exec(lines[i]);
    if (!m) continue;
    let start = i;
    while (start > 0 && !lines[start].startsWith('import')) start--;
    out.push({ start, spec: m[1] });
  }
  return out;
}

/**
 * Register the method in the bench's registry source: its import, kept in module-path order among
 * the imports above the imports marker, and its entry directly above the entries marker.
 */
export function addToRegistry(source, names, file = 'apps/bench/src/methods.ts') {
  const lines = source.split('\n');
  const importAt = markerLine(lines, IMPORT_MARKER, file);
  const entryAt = markerLine(lines, ENTRY_MARKER, file);
  if (entryAt < importAt)
    throw new UsageError(`${file}: the imports marker must come before the entries marker`);
  if (source.includes(`'${names.packageName}'`)) {
    throw new UsageError(`${file} already imports ${names.packageName}`);
  }
  const indent = /^\s*/.exec(lines[entryAt])[0];
  lines.splice(entryAt, 0, `${indent}${names.ident} as unknown as Detector<object>,`);
  const next = importsAbove(lines, importAt).find((s) => s.spec > names.packageName);
  lines.splice(next ? next.start : importAt, 0, `import { ${names.ident} } from '${names.packageName}';`);
  return lines.join('\n');
}

function sortedDependencies(deps) {
  return Object.fromEntries(Object.entries(deps).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/**
 * Add the package to a manifest's `field` (the bench's dependencies, the README check's
 * devDependencies) as `workspace:^`, in name order, touching no other line of the file (falls back to
 * rewriting the JSON when the block is not laid out one per line).
 */
export function addBenchDependency(source, names, file = 'apps/bench/package.json', field = 'dependencies') {
  let pkg;
  try {
    pkg = JSON.parse(source);
  } catch (e) {
    throw new UsageError(`${file} is not valid JSON: ${e.message}`);
  }
  const deps = pkg[field] ?? {};
  if (Object.hasOwn(deps, names.packageName)) {
    throw new UsageError(`${file} already depends on ${names.packageName}`);
  }
  const expected = {
    ...pkg,
    [field]: sortedDependencies({ ...deps, [names.packageName]: 'workspace:^' }),
  };

  let result;
  const block = new RegExp(
    `^([ \\t]*)"${field}": \\{\\n((?:[ \\t]*"[^"\\n]+": "[^"\\n]*",?\\n)+)\\1\\}`,
    'm',
  ).exec(source);
  if (block) {
    const entries = block[2].trimEnd().split('\n');
    const indent = /^\s*/.exec(entries[0])[0];
    const line = `${indent}"${names.packageName}": "workspace:^"`;
    const at = entries.findIndex((e) => /"([^"]+)"/.exec(e)[1] > names.packageName);
    const bare = entries.map((e) => e.replace(/,\s*$/, ''));
    bare.splice(at < 0 ? bare.length : at, 0, line);
    const body = `${bare.map((e, i) => (i < bare.length - 1 ? `${e},` : e)).join('\n')}\n`;
    result =
      source.slice(0, block.index) +
      block[0].replace(block[2], () => body) +
      source.slice(block.index + block[0].length);
  } else {
    result = `${JSON.stringify(expected, null, 2)}\n`;
  }
  if (!isDeepStrictEqual(JSON.parse(result), expected)) {
    throw new Error(`${file}: adding ${names.packageName} did not give the expected dependencies`);
  }
  return result;
}

/** The changeset that releases the package's first version. */
export function initialChangeset(names) {
  return `---
"${names.packageName}": minor
---

Add ${names.packageName}, a new ${names.kind}-discrimination detector (rewrite this line to name the method and its paper).
`;
}
