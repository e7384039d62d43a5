import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { builtCodeHash, codeVersion } from '../src/cells.js';
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
  });
});
