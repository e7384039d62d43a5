import { inflateRawSync } from 'node:zlib';
import { InteropError } from '@fb/core';

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;

function fail(message: string): never {
  throw new InteropError('INTEROP_PARSE', message, { reason: 'zip' });
}

/** One member of a zip archive (stored or deflated), found through the central directory. */
export function extractZipMember(zip: Buffer, member: string): Buffer {
  // The end-of-central-directory record sits in the last 22 + 65535 bytes (trailing comment).
  let eocd = -1;
  for (let i = zip.length - 22; i >= Math.max(0, zip.length - 22 - 65535); i--) {
    if (zip.readUInt32LE(i) === EOCD) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) fail('not a zip archive: no end-of-central-directory record');
  const entries = zip.readUInt16LE(eocd + 10);
  let p = zip.readUInt32LE(eocd + 16);
  for (let e = 0; e < entries; e++) {
    if (zip.readUInt32LE(p) !== CENTRAL) fail('corrupt zip central directory');
    const method = zip.readUInt16LE(p + 10);
    const compressed = zip.readUInt32LE(p + 20);
    const nameLen = zip.readUInt16LE(p + 28);
    const extraLen = zip.readUInt16LE(p + 30);
    const commentLen = zip.readUInt16LE(p + 32);
    const localOffset = zip.readUInt32LE(p + 42);
    const name = zip.toString('utf8', p + 46, p + 46 + nameLen);
    p += 46 + nameLen + extraLen + commentLen;
    if (name !== member && !name.endsWith(`/${member}`)) continue;
    if (zip.readUInt32LE(localOffset) !== LOCAL) fail(`corrupt zip local header for ${name}`);
    const start = localOffset + 30 + zip.readUInt16LE(localOffset + 26) + zip.readUInt16LE(localOffset + 28);
    const data = zip.subarray(start, start + compressed);
    if (method === 0) return Buffer.from(data);
    if (method === 8) return inflateRawSync(data);
    fail(`zip member ${name} uses unsupported compression method ${method}`);
  }
  return fail(`zip archive has no member named ${member}`);
}
