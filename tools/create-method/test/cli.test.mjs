import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, makeScratchRoot, removeScratchRoot, runNode } from './scratch.mjs';

describe('the command line', () => {
  let root;
  const cli = (...args) => runNode(BIN.createMethod, [...args, '--root', root], root);
  beforeAll(() => {
    root = makeScratchRoot('cli');
  });
  afterAll(() => removeScratchRoot(root));

  it('scaffolds a method and prints the next steps', () => {
    const out = cli('subgroup', 'cli-scan');
    expect(out.status, out.stderr).toBe(0);
    expect(out.stdout).toContain('Created:\n  packages/subgroup-cli-scan/package.json');
    expect(out.stdout).toContain('  pnpm install\n  pnpm --filter @fb/subgroup-cli-scan test');
    expect(existsSync(join(root, 'packages/subgroup-cli-scan/src/scan.ts'))).toBe(true);
  });

  it('exits with status 1 and a reason for bad input, writing nothing', () => {
    mkdirSync(join(root, 'packages', 'individual-taken'));
    const cases = [
      [['individual'], /expected <kind> and <name>, got 1 arguments/],
      [['pairwise', 'x'], /kind must be one of individual, subgroup/],
      [['individual', 'Bad_Name'], /"Bad_Name" is not kebab-case/],
      [['subgroup', 'taken'], /packages\/individual-taken already exists/],
      [['individual', 'x', '--frobnicate'], /Unknown option '--frobnicate'/],
    ];
    for (const [args, message] of cases) {
      const out = cli(...args);
      expect(out.status, args.join(' ')).toBe(1);
      expect(out.stderr).toMatch(message);
      expect(out.stderr).toContain('usage: pnpm new:method');
    }
    expect(existsSync(join(root, 'packages/subgroup-taken'))).toBe(false);
  });

  it('refuses a root that is not a fairbench checkout', () => {
    const out = runNode(BIN.createMethod, ['individual', 'x', '--root', join(root, 'packages')], root);
    expect(out.status).toBe(1);
    expect(out.stderr).toMatch(/is .* the fairbench repository root\?/);
  });
});
