import {
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { OutputRefusedError } from '../errors.js';

/** The file in which a report folder lists what the command wrote there. */
export const MANIFEST = 'fairbench-manifest.json';

interface Manifest {
  readonly writtenBy: 'fairbench';
  readonly command: string;
  readonly files: readonly string[];
}

function readManifest(dir: string): Manifest | null {
  try {
    const m = JSON.parse(readFileSync(path.join(dir, MANIFEST), 'utf8')) as Partial<Manifest>;
    if (m.writtenBy !== 'fairbench' || !Array.isArray(m.files)) return null;
    // Only plain names: a manifest naming `../x` must not lead the command out of the folder.
    const files = m.files.filter(
      (f): f is string => typeof f === 'string' && path.basename(f) === f && f !== MANIFEST,
    );
    return { writtenBy: 'fairbench', command: String(m.command ?? ''), files };
  } catch {
    return null;
  }
}

const real = (p: string): string | null => {
  try {
    return realpathSync(p);
  } catch {
    return null;
  }
};

const listed = (names: readonly string[]) =>
  `${names
    .slice(0, 5)
    .map((n) => `"${n}"`)
    .join(', ')}${names.length > 5 ? ` and ${names.length - 5} more` : ''}`;

/**
 * Check that `dir` may take the command's output, before any work is done: it must not exist, be empty,
 * or hold only the files a previous run listed in its manifest (those are replaced, and the ones the new
 * run does not write are removed). It must not hold (or be) an input of this run. Returns the files of
 * the previous run. Throws OutputRefusedError otherwise.
 */
export function claimOutput(dir: string, inputs: readonly string[], option = '--out'): readonly string[] {
  const where = `${option} ${dir}`;
  const refuse = (why: string): never => {
    throw new OutputRefusedError(`${where}: ${why}`, { option });
  };
  let st: ReturnType<typeof statSync> | null;
  try {
    st = statSync(dir);
  } catch {
    st = null;
  }
  if (st === null) {
    if (lstatExists(dir)) refuse('is a link to nothing: give a folder for the report');
    // Does not exist yet: it is created when the report is written.
    checkInputs(dir, inputs, refuse);
    return [];
  }
  if (!st.isDirectory()) refuse('is a file, not a folder: give a folder for the report');
  checkInputs(dir, inputs, refuse);
  const entries = readdirSync(dir);
  if (entries.length === 0) return [];
  const manifest = readManifest(dir);
  if (!manifest) {
    return refuse(
      `the folder holds files this command did not write (${listed(entries)}) and no ${MANIFEST} of an earlier report: give a new or empty folder`,
    );
  }
  if (!lstatSync(path.join(dir, MANIFEST)).isFile()) refuse(`${MANIFEST} is not a plain file`);
  const foreign = entries.filter((e) => e !== MANIFEST && !manifest.files.includes(e));
  if (foreign.length > 0) {
    refuse(
      `the folder holds files the earlier report did not write (${listed(foreign)}): move them, or give a new or empty folder`,
    );
  }
  for (const f of manifest.files) {
    const p = path.join(dir, f);
    if (lstatExists(p) && !lstatSync(p).isFile()) {
      refuse(`"${f}" is not a plain file (a link or folder): the command will not replace it`);
    }
  }
  return manifest.files;
}

function lstatExists(p: string): boolean {
  try {
    lstatSync(p);
    return true;
  } catch {
    return false;
  }
}

/** Refuse a folder that is, or holds, one of the run's inputs (the data, a schema, a model). */
function checkInputs(dir: string, inputs: readonly string[], refuse: (why: string) => never): void {
  const target = real(dir) ?? path.resolve(dir);
  for (const input of inputs) {
    const r = real(input);
    if (r === null) continue;
    const rel = path.relative(target, r);
    if (rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel))) {
      refuse(`it holds "${input}", an input of this run: the command never writes where its inputs are`);
    }
  }
}

/**
 * Write `files` into `dir` after checking it again (`claimOutput`): the files of the previous run are
 * removed, the manifest lists the new ones, and each file is created new (never written through an
 * existing file or link).
 */
export function writeOutput(
  dir: string,
  files: readonly (readonly [string, string])[],
  inputs: readonly string[],
  command: string,
): void {
  const previous = claimOutput(dir, inputs);
  mkdirSync(dir, { recursive: true });
  for (const f of previous) {
    const p = path.join(dir, f);
    if (lstatExists(p)) unlinkSync(p);
  }
  const manifest: Manifest = { writtenBy: 'fairbench', command, files: files.map(([name]) => name) };
  const manifestPath = path.join(dir, MANIFEST);
  if (lstatExists(manifestPath)) unlinkSync(manifestPath);
  writeFileSync(manifestPath, `${JSON.stringify(manifest, null, 1)}\n`, { flag: 'wx' });
  for (const [name, text] of files) writeFileSync(path.join(dir, name), text, { flag: 'wx' });
}
