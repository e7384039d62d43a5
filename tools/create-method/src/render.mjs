import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

export const TEMPLATES_DIR = fileURLToPath(new URL('../templates', import.meta.url));

const SUFFIX = '.tmpl';
const PLACEHOLDER = /\{\{(\w+)\}\}/g;

function listFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? listFiles(join(dir, entry.name)) : [join(dir, entry.name)],
  );
}

/** Replace every `{{key}}` in `text`; an unknown key is an error, not an empty string. */
export function fill(text, values, where) {
  return text.replace(PLACEHOLDER, (_, key) => {
    if (!Object.hasOwn(values, key)) throw new Error(`${where}: unknown placeholder {{${key}}}`);
    return values[key];
  });
}

/**
 * The files of a new package of `names.kind`, as `{ path, content }` with paths relative to the
 * package folder (posix separators). Template paths may hold `[name]`, and contents `{{key}}`.
 */
export function renderPackage(names) {
  const dir = join(TEMPLATES_DIR, names.kind);
  return listFiles(dir)
    .filter((file) => file.endsWith(SUFFIX))
    .map((file) => {
      const templatePath = relative(dir, file).split(sep).join('/');
      const path = templatePath.slice(0, -SUFFIX.length).replaceAll('[name]', names.name);
      return { path, content: fill(readFileSync(file, 'utf8'), names, templatePath) };
    })
    .sort((a, b) => a.path.localeCompare(b.path));
}
