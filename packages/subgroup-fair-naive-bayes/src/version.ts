/** This package's version, equal to its package.json's (`node tools/packages/versions.mjs` checks; `--write` sets). */
export const VERSION = '0.0.0';
