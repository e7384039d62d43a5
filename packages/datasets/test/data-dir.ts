import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
/** The reference copies of the original files; real-data tests skip when they are absent. */
export const DATA_DIR = process.env.FB_DATA_DIR ?? resolve(repoRoot, '../shared/datasets');
export const HAS_DATA = existsSync(resolve(DATA_DIR, 'adult'));
