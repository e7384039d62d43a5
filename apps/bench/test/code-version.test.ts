import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { builtCodeHash, codeVersion } from '../src/plan/cells.js';
import { cleanTempDirs, tempDir } from './helpers.js';

afterEach(cleanTempDirs);

describe('cell keys follow the built code', () => {
  it('a change in a shared chunk or a thread entry changes the hash; other files do not', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'index.js'), 'export * from "./chunk-A.js";\n');
    writeFileSync(join(dir, 'chunk-A.js'), 'export const f = () => 1;\n');
    writeFileSync(join(dir, 'thread.js'), 'import "./chunk-A.js";\n');
    writeFileSync(join(dir, 'index.d.ts'), 'export declare const f: () => number;\n');
    const before = builtCodeHash(dir);
    expect(builtCodeHash(dir)).toBe(before);
    writeFileSync(join(dir, 'index.d.ts'), '// a comment in the declarations only\n');
    expect(builtCodeHash(dir)).toBe(before);
    writeFileSync(join(dir, 'chunk-A.js'), 'export const f = () => 2;\n');
    const chunkChanged = builtCodeHash(dir);
    expect(chunkChanged).not.toBe(before);
    writeFileSync(join(dir, 'thread.js'), 'import "./chunk-A.js"; // changed\n');
    expect(builtCodeHash(dir)).not.toBe(chunkChanged);
  });

  it('names the version and the hash of the package as built', () => {
    expect(codeVersion('@fb/models')).toMatch(/^\d+\.\d+\.\d+[^+]*\+[0-9a-f]{12}$/);
    // Resolved through the workspace: CBS depends on @fb/subset-scan, which the bench does not list.
    expect(codeVersion('@fb/subgroup-cbs')).toMatch(/^\d+\.\d+\.\d+[^+]*\+[0-9a-f]{12}$/);
  });

  it("follows the workspace packages a package depends on, and its other dependencies' versions", () => {
    // node_modules with a detector @fb/a that depends on @fb/b (which depends on nothing) and on ext.
    const root = tempDir();
    const write = (path: string, text: string) => {
      mkdirSync(join(root, 'node_modules', path, '..'), { recursive: true });
      writeFileSync(join(root, 'node_modules', path), text);
    };
    const manifest = (name: string, dependencies: Record<string, string> = {}) =>
      JSON.stringify({
        name,
        version: '1.0.0',
        exports: {
          '.': { import: './dist/index.js', require: './dist/index.cjs' },
          './package.json': './package.json',
        },
        dependencies,
      });
    write('@fb/a/package.json', manifest('@fb/a', { '@fb/b': '1.0.0', ext: '^2.0.0' }));
    // The hash reads the ESM build (.js) the study imports; the CommonJS entry only locates dist/.
    write('@fb/a/dist/index.js', 'export * from "@fb/b";\n');
    write('@fb/a/dist/index.cjs', '');
    write('@fb/b/package.json', manifest('@fb/b'));
    write('@fb/b/dist/index.js', 'export const b = 1;\n');
    write('@fb/b/dist/index.cjs', '');
    write('ext/package.json', JSON.stringify({ name: 'ext', version: '2.0.0' }));
    const from = createRequire(join(root, 'index.js'));
    const a0 = codeVersion('@fb/a', from);
    const b0 = codeVersion('@fb/b', from);
    expect(a0).toMatch(/^1\.0\.0\+[0-9a-f]{12}$/);
    expect(codeVersion('@fb/a', from)).toBe(a0);

    write('@fb/b/README.md', 'not code\n');
    expect(codeVersion('@fb/a', from)).toBe(a0);
    write('@fb/b/dist/index.js', 'export const b = 2;\n');
    const a1 = codeVersion('@fb/a', from);
    expect(a1).not.toBe(a0);
    expect(codeVersion('@fb/b', from)).not.toBe(b0);

    write('ext/package.json', JSON.stringify({ name: 'ext', version: '2.1.0' }));
    const a2 = codeVersion('@fb/a', from);
    expect(a2).not.toBe(a1);
    // A change in the detector itself leaves its dependency's version alone.
    const b1 = codeVersion('@fb/b', from);
    write('@fb/a/dist/index.js', 'export * from "@fb/b";\nexport const a = 1;\n');
    expect(codeVersion('@fb/a', from)).not.toBe(a2);
    expect(codeVersion('@fb/b', from)).toBe(b1);
  });

  it('names a dependency cycle instead of recursing forever', () => {
    const root = tempDir();
    for (const [name, dep] of [
      ['a', 'b'],
      ['b', 'a'],
    ] as const) {
      mkdirSync(join(root, 'node_modules', '@fb', name, 'dist'), { recursive: true });
      writeFileSync(
        join(root, 'node_modules', '@fb', name, 'package.json'),
        JSON.stringify({
          name: `@fb/${name}`,
          version: '1.0.0',
          main: 'dist/index.cjs',
          dependencies: { [`@fb/${dep}`]: '1.0.0' },
        }),
      );
      writeFileSync(join(root, 'node_modules', '@fb', name, 'dist', 'index.js'), '');
      writeFileSync(join(root, 'node_modules', '@fb', name, 'dist', 'index.cjs'), '');
    }
    expect(() => codeVersion('@fb/a', createRequire(join(root, 'index.js')))).toThrow(
      '@fb/a -> @fb/b -> @fb/a',
    );
  });
});
