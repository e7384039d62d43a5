import { readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { InteropError } from '@fb/core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadGerman, resolveSource, SOURCES } from '../src/index.js';
import { sha256 } from '../src/source-file.js';
import { DATA_DIR, HAS_DATA } from './data-dir.js';

describe.skipIf(!HAS_DATA)('file sources: data directory, cache, download, checksums', () => {
  const original = HAS_DATA
    ? gunzipSync(readFileSync(join(DATA_DIR, 'german-credit/german.data.gz')))
    : Buffer.alloc(0);
  const served = new Map<string, Buffer>();
  const hits: string[] = [];
  let server: Server;
  let mirror = '';
  let work = '';

  beforeAll(async () => {
    server = createServer((req, res) => {
      hits.push(req.url ?? '');
      const body = served.get(req.url ?? '');
      if (!body) {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(body);
    });
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    mirror = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((ok) => server.close(() => ok())));
  beforeEach(async () => {
    work = await mkdtemp(join(tmpdir(), 'fb-datasets-'));
    served.clear();
    hits.length = 0;
    vi.stubEnv('FB_DATA_DIR', '');
  });
  afterEach(async () => {
    vi.unstubAllEnvs();
    await rm(work, { recursive: true, force: true });
  });

  it('downloads a missing file into the cache, verifies it, then reads the cache', async () => {
    served.set('/german-credit/german.data', original);
    const cacheDir = join(work, 'cache');
    const first = await resolveSource(SOURCES.german, { cacheDir, mirror });
    expect(first.origin).toBe('download');
    expect(sha256(await readFile(first.path))).toBe(SOURCES.german.sha256);
    const second = await resolveSource(SOURCES.german, { cacheDir, mirror });
    expect(second.origin).toBe('cache');
    expect(hits).toEqual(['/german-credit/german.data']);
    const ds = await loadGerman({ cacheDir, mirror });
    expect(ds.n).toBe(1000);
  });

  it('accepts a gzip-encoded download and checks the uncompressed bytes', async () => {
    served.set('/german-credit/german.data', gzipSync(original));
    const r = await resolveSource(SOURCES.german, { cacheDir: join(work, 'cache'), mirror });
    expect(r.text).toBe(original.toString('latin1'));
  });

  it('rejects a download whose checksum differs and caches nothing', async () => {
    const tampered = Buffer.from(original);
    tampered[10] = tampered[10]! ^ 1;
    served.set('/german-credit/german.data', tampered);
    const cacheDir = join(work, 'cache');
    const err = await resolveSource(SOURCES.german, { cacheDir, mirror }).catch((e) => e);
    expect(err).toBeInstanceOf(InteropError);
    expect(err.details.reason).toBe('checksum-mismatch');
    expect(err.details.actual).toBe(sha256(tampered));
    await expect(readFile(join(cacheDir, 'german-credit/german.data'))).rejects.toThrow();
  });

  it('replaces a corrupt cached copy by a fresh download', async () => {
    const cacheDir = join(work, 'cache');
    served.set('/german-credit/german.data', original);
    await resolveSource(SOURCES.german, { cacheDir, mirror });
    writeFileSync(join(cacheDir, 'german-credit/german.data'), 'corrupt');
    const r = await resolveSource(SOURCES.german, { cacheDir, mirror });
    expect(r.origin).toBe('download');
    expect(hits.length).toBe(2);
  });

  it('reports HTTP errors and a disabled download as typed errors', async () => {
    const cacheDir = join(work, 'cache');
    const http = await resolveSource(SOURCES.german, { cacheDir, mirror }).catch((e) => e);
    expect(http.details).toMatchObject({ reason: 'download', status: 404 });
    const off = await resolveSource(SOURCES.german, { cacheDir, download: false }).catch((e) => e);
    expect(off.details.reason).toBe('not-found');
  });

  it('reads plain or gzipped files from a data directory (option or FB_DATA_DIR) and verifies them', async () => {
    writeFileSync(join(work, 'german.data'), original);
    expect((await resolveSource(SOURCES.german, { dataDir: work })).origin).toBe('data-dir');
    vi.stubEnv('FB_DATA_DIR', DATA_DIR);
    const viaEnv = await resolveSource(SOURCES.german);
    expect(viaEnv.path).toBe(join(DATA_DIR, 'german-credit/german.data.gz'));
    writeFileSync(join(work, 'german.data'), Buffer.concat([original, Buffer.from('\n')]));
    const err = await resolveSource(SOURCES.german, { dataDir: work }).catch((e) => e);
    expect(err.details.reason).toBe('checksum-mismatch');
    const missing = await resolveSource(SOURCES.adultTrain, { dataDir: work }).catch((e) => e);
    expect(missing.details.reason).toBe('not-found');
    expect(missing.message).toContain('adult.data');
  });
});
