import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { basename, join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { InteropError } from '@fb/core';
import type { SourceFile } from './sources.js';
import { extractZipMember } from './zip.js';

/** Where a loader finds its original file. */
export interface SourceOptions {
  /**
   * Directory holding the original files, plain or gzipped, either flat or in the reference layout
   * (`adult/adult.data[.gz]`). Default: env `FB_DATA_DIR`; without either, the user cache.
   */
  dataDir?: string;
  /** Cache for downloads. Default: `$XDG_CACHE_HOME/fairbench` or `~/.cache/fairbench`. */
  cacheDir?: string;
  /** Download a missing file from its publisher into the cache. Default true. */
  download?: boolean;
  /** Base URL that mirrors the reference layout (`<mirror>/adult/adult.data`), used instead of the publisher. */
  mirror?: string;
}

export interface ResolvedSource {
  /** The uncompressed, checksum-verified bytes decoded as text. */
  readonly text: string;
  readonly path: string;
  readonly origin: 'data-dir' | 'cache' | 'download';
  readonly sha256: string;
}

export function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

function isGzip(bytes: Uint8Array): boolean {
  return bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;
}

/** A file's bytes, or an `InteropError` naming it (missing, a directory, unreadable). */
export function readFileBytes(path: string): Buffer {
  try {
    return readFileSync(path);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const why =
      code === 'EISDIR' ? 'is a directory, not a file' : `cannot be read (${code ?? (e as Error).message})`;
    throw new InteropError('INTEROP_PARSE', `${path} ${why}`, { reason: 'unreadable', file: path });
  }
}

/** Gunzipped bytes when they start with the gzip magic, else the bytes; a broken stream is an `InteropError`. */
export function gunzipIfGzip(bytes: Buffer, what: string): Buffer {
  if (!isGzip(bytes)) return bytes;
  try {
    return gunzipSync(bytes);
  } catch (e) {
    throw new InteropError(
      'INTEROP_PARSE',
      `${what} is not a whole gzip stream (${(e as Error).message}): truncated or damaged`,
      { reason: 'bad-gzip', file: what },
    );
  }
}

function verify(bytes: Uint8Array, expected: string, what: string): void {
  const actual = sha256(bytes);
  if (actual !== expected) {
    throw new InteropError(
      'INTEROP_PARSE',
      `${what}: SHA-256 ${actual} does not match the expected ${expected}; the file is not the original and was not used`,
      { reason: 'checksum-mismatch', file: what, expected, actual },
    );
  }
}

export function defaultCacheDir(): string {
  const xdg = process.env.XDG_CACHE_HOME;
  return join(xdg && xdg.length > 0 ? xdg : join(homedir(), '.cache'), 'fairbench');
}

async function readLocal(path: string, src: SourceFile): Promise<Buffer> {
  const bytes = gunzipIfGzip(readFileBytes(path), path);
  verify(bytes, src.sha256, path);
  return bytes;
}

async function download(src: SourceFile, mirror: string | undefined): Promise<Buffer> {
  const url = mirror ? `${mirror.replace(/\/+$/, '')}/${src.dir}/${basename(src.url)}` : src.url;
  let response: Response;
  try {
    response = await fetch(url);
  } catch (e) {
    throw new InteropError('INTEROP_PARSE', `download of ${url} failed: ${(e as Error).message}`, {
      reason: 'download',
      url,
    });
  }
  if (!response.ok) {
    throw new InteropError('INTEROP_PARSE', `download of ${url} failed: HTTP ${response.status}`, {
      reason: 'download',
      url,
      status: response.status,
    });
  }
  const body = Buffer.from(await response.arrayBuffer());
  if (src.archive) {
    verify(body, src.archive.sha256, url);
    const member = extractZipMember(body, src.archive.member);
    verify(member, src.sha256, `${url}!${src.archive.member}`);
    return member;
  }
  const bytes = src.file.endsWith('.gz') ? body : gunzipIfGzip(body, url);
  verify(bytes, src.sha256, url);
  return bytes;
}

/**
 * The verified bytes of one original file: from the data directory (option, else `FB_DATA_DIR`),
 * else the cache, else downloaded into the cache. A checksum mismatch is always an error; a corrupt
 * cached copy is replaced by a fresh download.
 */
export async function resolveSource(src: SourceFile, options: SourceOptions = {}): Promise<ResolvedSource> {
  const dataDir = options.dataDir ?? process.env.FB_DATA_DIR;
  const decode = (bytes: Buffer, path: string, origin: ResolvedSource['origin']): ResolvedSource => ({
    text: bytes.toString('latin1'),
    path,
    origin,
    sha256: src.sha256,
  });
  if (dataDir !== undefined && dataDir !== '') {
    const candidates = [
      join(dataDir, src.dir, src.file),
      join(dataDir, src.dir, `${src.file}.gz`),
      join(dataDir, src.file),
      join(dataDir, `${src.file}.gz`),
    ];
    const found = candidates.find((p) => existsSync(p));
    if (!found) {
      throw new InteropError(
        'INTEROP_PARSE',
        `${src.file} is not in the data directory ${dataDir} (looked for ${candidates.join(', ')})`,
        { reason: 'not-found', file: src.file },
      );
    }
    return decode(await readLocal(found, src), found, 'data-dir');
  }
  const cacheDir = options.cacheDir ?? defaultCacheDir();
  const cached = join(cacheDir, src.dir, src.file);
  if (existsSync(cached)) {
    const raw = readFileBytes(cached);
    if (sha256(raw) === src.sha256) return decode(raw, cached, 'cache');
  }
  if (options.download === false) {
    throw new InteropError(
      'INTEROP_PARSE',
      `${src.file} is neither in a data directory nor in the cache ${cacheDir}, and download is off: pass dataDir or set FB_DATA_DIR`,
      { reason: 'not-found', file: src.file },
    );
  }
  const bytes = await download(src, options.mirror);
  await mkdir(join(cacheDir, src.dir), { recursive: true });
  const tmp = `${cached}.${process.pid}.part`;
  await writeFile(tmp, bytes);
  await rename(tmp, cached).catch(async (e) => {
    await rm(tmp, { force: true });
    throw e;
  });
  return decode(bytes, cached, 'download');
}
