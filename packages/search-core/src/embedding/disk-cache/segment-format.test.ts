import { describe, expect, it } from 'vitest';
import {
  cacheKey,
  checksum,
  decodeRecord,
  encodeSegment,
  KEY_BYTES,
  parseSegment,
  type SegmentHeader,
} from './segment-format.js';

const ID = 'test:format';
const vectors = new Map([
  [cacheKey(ID, 'one', 'document'), Float32Array.from([0.5, -0.5, 0.5, -0.5])],
  [cacheKey(ID, 'two', 'document'), Float32Array.from([1, 0, 0, 0])],
]);
const keys = [...vectors.keys()];
const encode = () => encodeSegment(ID, 4, keys, (key) => vectors.get(key)!);

/** Every record of a parsed segment: its vector, or why it was refused. */
function records(file: Buffer, header: SegmentHeader): (Float32Array | string)[] {
  return Array.from({ length: header.count }, (_, slot) =>
    decodeRecord(file, header.recordsOffset + slot * header.recordBytes, header),
  );
}

describe('segment format', () => {
  it('reads back the keys and vectors it wrote, bit for bit', () => {
    const parsed = parseSegment(encode());
    expect(parsed.status).toBe('ok');
    if (parsed.status !== 'ok') return;
    expect(parsed.header).toMatchObject({ version: 2, embedderId: ID, dimensions: 4, count: 2 });
    expect(parsed.keys!.toString('latin1', KEY_BYTES, 2 * KEY_BYTES)).toBe(keys[1]);
    expect(records(encode(), parsed.header).map((vector) => Array.from(vector as Float32Array))).toEqual([
      [0.5, -0.5, 0.5, -0.5],
      [1, 0, 0, 0],
    ]);
  });

  it('detects a flipped bit in any byte of a segment', () => {
    const original = encode();
    const undetected: number[] = [];
    for (let at = 0; at < original.length; at++) {
      const file = Buffer.from(original);
      file[at]! ^= 0x10;
      const parsed = parseSegment(file);
      const caught =
        parsed.status === 'corrupt' ||
        records(file, parsed.header).some((record) => typeof record === 'string');
      if (!caught) undetected.push(at);
    }
    expect(undetected).toEqual([]);
  });

  it('refuses to write a vector that is not finite, naming the embedder', () => {
    for (const bad of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]) {
      expect(() => encodeSegment(ID, 2, ['k'.repeat(32)], () => Float32Array.from([0, bad]))).toThrow(
        `Refusing to cache a non-finite vector from test:format (${bad} at dimension 1).`,
      );
    }
  });

  it('refuses a non-finite value on read even when its checksum matches', () => {
    const file = encode();
    const parsed = parseSegment(file);
    if (parsed.status !== 'ok') throw new Error('expected a valid segment');
    const { header } = parsed;
    const offset = header.recordsOffset + header.recordBytes;
    file.writeFloatLE(Number.NaN, offset + 8);
    file.writeUInt32LE(checksum(file.subarray(offset, offset + 16)), offset + 16);
    expect(records(file, header)[1]).toBe('non-finite value NaN at dimension 2');
  });
});
