import { existsSync } from 'node:fs';
import { join } from 'node:path';

export const KINDS = ['individual', 'subgroup'];

/** Thrown for a bad command line: the message is shown to the user as is. */
export class UsageError extends Error {
  name = 'UsageError';
}

/** Names of the workspace's own packages and tools: a method called so would read as infrastructure. */
const WORKSPACE_NAMES = [
  'core',
  'testkit',
  'eval',
  'models',
  'synth',
  'bench',
  'create-method',
  'pack-smoke',
];

/** A one-word name becomes the exported identifier as is, so it must not be a reserved word. */
const RESERVED_WORDS =
  `await break case catch class const continue debugger default delete do else enum export
extends false finally for function if implements import in instanceof interface let new null package private
protected public return static super switch this throw true try typeof var void while with yield arguments
undefined`.split(/\s+/);

const KEBAB = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/;
const MAX_LENGTH = 30;

/** `demo-placeholder` -> `demoPlaceholder` (the exported detector). */
export function camelCase(name) {
  return name.replace(/-([a-z0-9])/g, (_, c) => c.toUpperCase());
}

/** `demo-placeholder` -> `DemoPlaceholder` (type names). */
export function pascalCase(name) {
  const camel = camelCase(name);
  return camel[0].toUpperCase() + camel.slice(1);
}

/** `demo-placeholder` -> `Demo placeholder` (prose). */
export function titleCase(name) {
  const words = name.replace(/-/g, ' ');
  return words[0].toUpperCase() + words.slice(1);
}

/** Check the kind and the method name on their own (no file system). */
export function checkNameSyntax(kind, name) {
  if (!KINDS.includes(kind)) {
    throw new UsageError(`kind must be one of ${KINDS.join(', ')}, got "${kind ?? ''}"`);
  }
  if (typeof name !== 'string' || name.length === 0) throw new UsageError('a method name is required');
  if (!KEBAB.test(name)) {
    throw new UsageError(
      `"${name}" is not kebab-case: use lowercase letters and digits in words joined by single hyphens, starting with a letter (e.g. "fair-search")`,
    );
  }
  if (name.length > MAX_LENGTH) {
    throw new UsageError(`"${name}" is ${name.length} characters long; keep method names to ${MAX_LENGTH}`);
  }
  for (const k of KINDS) {
    if (name.startsWith(`${k}-`)) {
      throw new UsageError(`leave the kind out of the name: "${name.slice(k.length + 1)}", not "${name}"`);
    }
  }
  if (WORKSPACE_NAMES.includes(name)) {
    throw new UsageError(`"${name}" is reserved: it names a workspace package or tool`);
  }
  if (RESERVED_WORDS.includes(name)) {
    throw new UsageError(`"${name}" is reserved: the package exports its detector as \`${name}\``);
  }
}

/**
 * Check that `name` is free in the repository at `root`: no package of either kind holds it (the
 * detector id is the bare name), and its identifier is not already used in the bench registry.
 */
export function checkNameFree(root, name, registrySource) {
  for (const k of KINDS) {
    if (existsSync(join(root, 'packages', `${k}-${name}`))) {
      throw new UsageError(`packages/${k}-${name} already exists: the method id "${name}" is taken`);
    }
  }
  const ident = camelCase(name);
  if (new RegExp(`\\b${ident}\\b`).test(registrySource)) {
    throw new UsageError(
      `the identifier \`${ident}\` is already used in apps/bench/src/methods.ts: choose another name`,
    );
  }
}

/** Every spelling of the method's name the templates use. */
export function namesOf(kind, name) {
  return {
    kind,
    name,
    packageName: `@fb/${kind}-${name}`,
    dir: `${kind}-${name}`,
    ident: camelCase(name),
    Ident: pascalCase(name),
    title: titleCase(name),
  };
}
