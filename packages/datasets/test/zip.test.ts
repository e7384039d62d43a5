import { deflateRawSync } from 'node:zlib';
import { InteropError } from '@fb/core';
import { describe, expect, it } from 'vitest';
import { extractZipMember } from '../src/index.js';

/** A minimal zip (no CRC check is made by the reader, so the CRC fields stay 0). */
function makeZip(members: { name: string; data: Buffer; deflate: boolean }[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const m of members) {
    const body = m.deflate ? deflateRawSync(m.data) : m.data;
    const name = Buffer.from(m.name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(m.deflate ? 8 : 0, 8);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(m.data.length, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(m.deflate ? 8 : 0, 10);
    central.writeUInt32LE(body.length, 20);
    central.writeUInt32LE(m.data.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, body);
    centrals.push(central, name);
    offset += 30 + name.length + body.length;
  }
  const dir = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(members.length, 8);
  end.writeUInt16LE(members.length, 10);
  end.writeUInt32LE(dir.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, dir, end]);
}

describe('extractZipMember', () => {
  const text = Buffer.from('"age";"job"\n58;"management"\n'.repeat(50));
  const zip = makeZip([
    { name: 'bank-names.txt', data: Buffer.from('names'), deflate: false },
    { name: 'bank/bank-full.csv', data: text, deflate: true },
  ]);

  it('finds a deflated member by name, also inside a folder', () => {
    expect(extractZipMember(zip, 'bank-full.csv').equals(text)).toBe(true);
    expect(extractZipMember(zip, 'bank-names.txt').toString()).toBe('names');
  });

  it('names what is wrong', () => {
    expect(() => extractZipMember(zip, 'bank.csv')).toThrow(/no member named bank.csv/);
    expect(() => extractZipMember(Buffer.from('not a zip at all, just some bytes'), 'x')).toThrow(
      InteropError,
    );
  });
});
