import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { camelCase, checkNameFree, checkNameSyntax, namesOf, pascalCase, UsageError } from '../src/names.mjs';
import { makeScratchRoot, removeScratchRoot } from './scratch.mjs';

const syntaxError = (kind, name) => {
  try {
    checkNameSyntax(kind, name);
  } catch (e) {
    expect(e).toBeInstanceOf(UsageError);
    return e.message;
  }
  return undefined;
};

describe('method names', () => {
  it('accepts kebab-case names and spells them for the templates', () => {
    for (const name of ['themis', 'expga', 'fair-search', 'adf2', 'slice-finder-v2']) {
      expect(syntaxError('individual', name)).toBeUndefined();
    }
    expect(camelCase('slice-finder-v2')).toBe('sliceFinderV2');
    expect(pascalCase('fair-search')).toBe('FairSearch');
    expect(namesOf('subgroup', 'fair-search')).toEqual({
      kind: 'subgroup',
      name: 'fair-search',
      packageName: '@fb/subgroup-fair-search',
      dir: 'subgroup-fair-search',
      ident: 'fairSearch',
      Ident: 'FairSearch',
      title: 'Fair search',
    });
  });

  it('rejects names that are not kebab-case', () => {
    for (const name of [
      'Themis',
      'fair_search',
      'fair--search',
      '-fair',
      'fair-',
      '2fast',
      'fair search',
      'fair.js',
    ]) {
      expect(syntaxError('individual', name)).toMatch(/not kebab-case/);
    }
    expect(syntaxError('individual', '')).toMatch(/name is required/);
    expect(syntaxError('individual', 'a'.repeat(31))).toMatch(/31 characters/);
  });

  it('rejects unknown kinds, kind prefixes and reserved names', () => {
    expect(syntaxError('pairwise', 'themis')).toMatch(/kind must be one of individual, subgroup/);
    expect(syntaxError('subgroup', 'subgroup-scan')).toMatch(/"scan", not "subgroup-scan"/);
    expect(syntaxError('subgroup', 'individual-scan')).toMatch(/"scan", not "individual-scan"/);
    expect(syntaxError('individual', 'core')).toMatch(/workspace package/);
    expect(syntaxError('individual', 'testkit')).toMatch(/workspace package/);
    expect(syntaxError('individual', 'new')).toMatch(/exports its detector as `new`/);
    expect(syntaxError('subgroup', 'class')).toMatch(/reserved/);
  });

  describe('in a repository', () => {
    const root = makeScratchRoot('names');
    afterAll(() => removeScratchRoot(root));
    const registry =
      "import { aequitas } from '@fb/individual-aequitas';\nimport { biasScan } from '@fb/subgroup-biasscan';\n";

    it('rejects a name already taken by a package of either kind', () => {
      mkdirSync(join(root, 'packages', 'subgroup-taken'));
      expect(() => checkNameFree(root, 'taken', registry)).toThrow(/packages\/subgroup-taken already exists/);
      expect(() => checkNameFree(root, 'free', registry)).not.toThrow();
    });

    it('rejects a name whose identifier the bench registry already uses', () => {
      expect(() => checkNameFree(root, 'bias-scan', registry)).toThrow(/`biasScan` is already used/);
      expect(() => checkNameFree(root, 'aequitas', registry)).toThrow(UsageError);
      expect(() => checkNameFree(root, 'bias', registry)).not.toThrow();
    });
  });
});
