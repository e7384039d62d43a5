// The README snippets users copy: every ```ts and ```js block of the root README and of each published
// package's README, typechecked with the TypeScript compiler against the built packages, as a user's
// project would see them (each package resolved through its `exports` and declaration files).
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

export const toolDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const repoRoot = path.resolve(toolDir, '../..');

/** Marks a snippet that is a fragment on purpose (a template): it is not checked. */
export const PARTIAL_MARKER = '<!-- snippet: partial -->';
/** Marks a snippet that goes on from the previous one of the same README: checked after it. */
export const CONTINUES_MARKER = '<!-- snippet: continues -->';

const LANGS = { ts: 'ts', typescript: 'ts', js: 'js', javascript: 'js' };

/**
 * The code blocks of a Markdown text in TypeScript or JavaScript. `line` is the 1-based line of the
 * opening fence; the code starts on the next line. A block whose previous non-blank line is
 * PARTIAL_MARKER is `partial`; one after CONTINUES_MARKER `continues` the block before it.
 * @param {string} markdown
 * @returns {{ line: number, lang: 'ts' | 'js', code: string, partial: boolean, continues: boolean }[]}
 */
export function extractSnippets(markdown) {
  const lines = markdown.split(/\r?\n/);
  const out = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^```\s*(\w+)\s*$/.exec(lines[i]);
    if (!open) continue;
    let end = i + 1;
    while (end < lines.length && !/^```\s*$/.test(lines[end])) end++;
    const lang = LANGS[open[1].toLowerCase()];
    if (lang) {
      let before = i - 1;
      while (before >= 0 && lines[before].trim() === '') before--;
      out.push({
        line: i + 1,
        lang,
        code: lines.slice(i + 1, end).join('\n'),
        partial: before >= 0 && lines[before].trim() === PARTIAL_MARKER,
        continues: before >= 0 && lines[before].trim() === CONTINUES_MARKER,
      });
    }
    i = end;
  }
  return out;
}

/** The root README and the README of every package that is published (not `private`). */
export function publishedReadmes(root = repoRoot) {
  const files = [path.join(root, 'README.md')];
  const packages = path.join(root, 'packages');
  for (const dir of readdirSync(packages).sort()) {
    const manifest = JSON.parse(readFileSync(path.join(packages, dir, 'package.json'), 'utf8'));
    if (!manifest.private) files.push(path.join(packages, dir, 'README.md'));
  }
  return files;
}

/**
 * Typecheck the snippets of `readmes`. TypeScript blocks are checked under the repository's strict
 * compiler options; JavaScript blocks as JavaScript (`checkJs`): the names, option shapes and result
 * fields they use must exist, without the annotations strict mode would ask of JavaScript. Unused
 * names are allowed (a snippet shows values). Returns the problems, each at its README line.
 * @param {string[]} readmes
 * @param {{ workDir?: string }} [options]
 */
export function checkSnippets(readmes, { workDir = path.join(toolDir, '.snippets') } = {}) {
  rmSync(workDir, { recursive: true, force: true });
  mkdirSync(workDir, { recursive: true });
  /** @type {Map<string, { readme: string, line: number, offset: number }>} */
  const origin = new Map();
  const files = { ts: [], js: [] };
  let skipped = 0;
  for (const readme of readmes) {
    const name = path.relative(repoRoot, readme).replaceAll(path.sep, '_').replace(/\.md$/i, '');
    let previous = { code: '', lines: 0 };
    for (const s of extractSnippets(readFileSync(readme, 'utf8'))) {
      if (s.partial) {
        skipped++;
        continue;
      }
      // Each snippet is a module of its own, so that two snippets' names never clash; a continuing
      // one is checked after the code it continues.
      const before = s.continues ? previous : { code: '', lines: 0 };
      const code = `${before.code}${s.code}\n`;
      previous = { code, lines: before.lines + s.code.split('\n').length };
      const file = path.join(workDir, `${name}_${s.line}.${s.lang}`);
      writeFileSync(file, `${code}export {};\n`);
      origin.set(file, { readme, line: s.line, offset: before.lines });
      files[s.lang].push(file);
    }
  }
  const base = ts.getParsedCommandLineOfConfigFile(
    path.join(repoRoot, 'tsconfig.base.json'),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      },
    },
  ).options;
  const common = { ...base, noEmit: true, noUnusedLocals: false, noUnusedParameters: false };
  const problems = [];
  const programs = [
    [files.ts, common],
    [files.js, { ...common, allowJs: true, checkJs: true, strict: false, noImplicitAny: false }],
  ];
  for (const [rootNames, options] of programs) {
    if (rootNames.length === 0) continue;
    const program = ts.createProgram({ rootNames, options });
    for (const d of ts.getPreEmitDiagnostics(program)) {
      const message = ts.flattenDiagnosticMessageText(d.messageText, '\n');
      const from = d.file && origin.get(path.resolve(d.file.fileName));
      if (from && d.start !== undefined) {
        const { line } = d.file.getLineAndCharacterOfPosition(d.start);
        // A problem in the code a snippet continues is reported by that snippet's own check.
        if (line < from.offset) continue;
        problems.push({
          readme: path.relative(repoRoot, from.readme),
          line: from.line + 1 + line - from.offset,
          code: d.code,
          message,
        });
      } else problems.push({ readme: d.file?.fileName ?? '(compiler)', line: 0, code: d.code, message });
    }
  }
  return { checked: origin.size, skipped, problems };
}

/** One line per problem: `packages/core/README.md:51 TS2339 Property 'pairs' does not exist ...`. */
export function formatProblems(problems) {
  return problems.map((p) => `${p.readme}:${p.line} TS${p.code} ${p.message}`).join('\n');
}
