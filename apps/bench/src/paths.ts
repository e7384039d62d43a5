import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The app's folder (`apps/bench/`), from this module: in the sources it lives in `src/`, in the build
 * in a chunk of `dist/`, one level below the app either way. Modules in the stage folders resolve the
 * app's files (studies, package.json, the built worker) from here, never from their own location.
 */
export const appRoot = new URL('../', import.meta.url);

/** A path inside the app's folder. */
export const appPath = (relative: string): string => fileURLToPath(new URL(relative, appRoot));

/**
 * A path the user typed, from the folder they typed it in: pnpm runs the app's scripts in the app's
 * folder and passes the caller's folder as INIT_CWD, so `pnpm article --results docs/article` from the
 * repository's root means the root's `docs/article`.
 */
export const userPath = (typed: string): string => resolve(process.env['INIT_CWD'] ?? process.cwd(), typed);
