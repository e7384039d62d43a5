import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkDeclarations, publishedEntries } from '../src/lib-check.mjs';
import {
  checkSnippets,
  extractSnippets,
  formatProblems,
  publishedReadmes,
  repoRoot,
  toolDir,
} from '../src/snippets.mjs';

describe('README snippets', () => {
  it('reads ts and js blocks with their fence lines and markers, and nothing else', () => {
    const md = [
      '# t', // 1
      '```sh', // 2
      'npm i x', // 3
      '```', // 4
      '```ts', // 5
      'const a = 1;', // 6
      '```', // 7
      '<!-- snippet: partial -->', // 8
      '', // 9
      '```js', // 10
      'b();', // 11
      '```', // 12
      '<!-- snippet: continues -->', // 13
      '```typescript', // 14
      'a;', // 15
      '```', // 16
    ].join('\n');
    expect(extractSnippets(md)).toEqual([
      { line: 5, lang: 'ts', code: 'const a = 1;', partial: false, continues: false },
      { line: 10, lang: 'js', code: 'b();', partial: true, continues: false },
      { line: 14, lang: 'ts', code: 'a;', partial: false, continues: true },
    ]);
  });

  it('reports a snippet that does not compile at its README line, and checks a continuing one after the one before', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'readme-snippets-'));
    const readme = path.join(dir, 'README.md');
    writeFileSync(
      readme,
      [
        '```ts', // 1
        "import { aequitas } from '@fb/individual-aequitas';", // 2
        'const n: number = aequitas.id;', // 3: a string is not a number
        '```', // 4
        '<!-- snippet: continues -->', // 5
        '```ts', // 6
        'console.log(n.toFixed(1), aequitas.kind);', // 7: n comes from the block before
        '```', // 8
        '```js', // 9
        "import { sliceline } from '@fb/subgroup-sliceline';", // 10
        'const r = await sliceline.run({ dataset: null });', // 11
        'r.findings.pairs;', // 12: a subgroup result has no pairs
        '```', // 13
      ].join('\n'),
    );
    const { checked, problems } = checkSnippets([readme], {
      workDir: path.join(toolDir, '.snippets-self-test'),
    });
    expect(checked).toBe(3);
    expect(problems.map((p) => [p.line, p.code])).toEqual([
      [3, 2322],
      [12, 2339],
    ]);
  });

  it('depends on every published package, so that each README compiles against a built package', () => {
    const own = JSON.parse(readFileSync(path.join(toolDir, 'package.json'), 'utf8')).devDependencies;
    const published = publishedEntries().filter((e) => e.split('/').length === 2);
    expect(published.filter((name) => own[name] !== 'workspace:^')).toEqual([]);
  });

  it('every snippet of the root README and the published packages READMEs compiles against the built packages', () => {
    const readmes = publishedReadmes();
    expect(readmes).toContain(path.join(repoRoot, 'packages/core/README.md'));
    expect(readmes).toContain(path.join(repoRoot, 'README.md'));
    const { checked, skipped, problems } = checkSnippets(readmes);
    expect(formatProblems(problems)).toBe('');
    expect(checked).toBeGreaterThan(25);
    expect(skipped).toBeLessThanOrEqual(2); // partial snippets stay few
  });
});

describe('published declarations with skipLibCheck: false', () => {
  // @fb/tensorflow hands out the TensorFlow.js API, and @fb/mitigation's networks take it, so their
  // declarations reach TensorFlow.js's own, which fail a full check (tfjs-core 4.22 names a global
  // `Long` it does not declare; tfjs-layers' Keras config types break their index signatures under
  // strictNullChecks). Every other problem would be ours.
  const exposesTensorflow = ['@fb/tensorflow', '@fb/mitigation'];

  it('every entry but those reaching TensorFlow.js, @fb/models included, checks clean (ESM and CommonJS)', () => {
    const entries = publishedEntries().filter((e) => !exposesTensorflow.includes(e));
    expect(entries).toContain('@fb/models');
    expect(entries).toContain('@fb/core/threads');
    expect(checkDeclarations(entries)).toEqual([]);
  });

  it('the entries reaching TensorFlow.js have problems only inside its declarations', () => {
    const problems = checkDeclarations(exposesTensorflow);
    expect(problems.filter((p) => !p.startsWith('node_modules/.pnpm/@tensorflow+'))).toEqual([]);
  });
});
