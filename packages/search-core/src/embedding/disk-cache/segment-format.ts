import { createHash } from 'node:crypto';
import { open } from 'node:fs/promises';
import * as zlib from 'node:zlib';

/*
 * Segment format, little-endian. Version 2, the one written:
 *
 *   "LMEVSEG2" | u32 dimensions | u32 count | u32 id byte length | u32 header checksum
 *   | embedder id (UTF-8), padded to 4 | count × 32-byte key | count × record
 *   record = dimensions × f32 | u32 CRC-32 of those vector bytes
 *
 * The header checksum is the CRC-32 of bytes 0–19, the padded id and the key block: loading the
 * index reads only those and verifies all it reads; a record is verified when its vector is read.
 * A key is sha256(embedder id + NUL + text) (queries: sha256(id + NUL + "query" + NUL + text)).
 *
 * Version 1 (legacy, no checksums; read only by `verifyEmbeddingCache` and the upgrade):
 *   "LMEVSEG1" | u32 dimensions | u32 count | u32 id byte length | id padded to 4 | keys
 *   | count × dimensions × f32
 */

export const KEY_BYTES = 32;
export type SegmentVersion = 1 | 2;

const MAGIC: Record<SegmentVersion, Buffer> = {
  1: Buffer.from('LMEVSEG1', 'latin1'),
  2: Buffer.from('LMEVSEG2', 'latin1'),
};
const FIXED_BYTES: Record<SegmentVersion, number> = { 1: 20, 2: 24 };
const CHECKSUM_OFFSET = 20;
const CHECKSUM_BYTES = 4;
const MAX_ID_BYTES = 4096;

export type SegmentHeader = {
  version: SegmentVersion;
  embedderId: string;
  dimensions: number;
  count: number;
  keysOffset: number;
  recordsOffset: number;
  /** Bytes per record: the vector, and in version 2 its checksum. */
  recordBytes: number;
  /** The file size the header promises. */
  size: number;
};

export type SegmentInspection =
  | { status: 'ok'; header: SegmentHeader; keys?: Buffer }
  | { status: 'corrupt'; reason: string };

/** The key of a text: 32 latin1 characters of sha256 over the embedder id, the kind and the text. */
export function cacheKey(embedderId: string, text: string, kind: 'document' | 'query'): string {
  const hash = createHash('sha256').update(embedderId).update('\0');
  if (kind === 'query') hash.update('query\0');
  return hash.update(text).digest('binary'); // 'binary' is latin1: 32 one-byte chars
}

/** Whether a file starts like a legacy (version 1, unchecked) segment. */
export function isLegacySegment(file: Buffer): boolean {
  return file.subarray(0, 8).equals(MAGIC[1]);
}

/** CRC-32 (node:zlib, Node 20.15 or later). */
export function checksum(data: Uint8Array, previous?: number): number {
  if (typeof zlib.crc32 !== 'function') {
    throw new Error(
      `The embedding cache needs crc32 from node:zlib (Node 20.15 or later); this is Node ${process.version}.`,
    );
  }
  return zlib.crc32(data, previous);
}

function shapeOf(version: SegmentVersion, idBytes: number, dimensions: number, count: number) {
  const keysOffset = Math.ceil((FIXED_BYTES[version] + idBytes) / 4) * 4;
  const recordsOffset = keysOffset + count * KEY_BYTES;
  const recordBytes = dimensions * 4 + (version === 2 ? CHECKSUM_BYTES : 0);
  return { keysOffset, recordsOffset, recordBytes, size: recordsOffset + count * recordBytes };
}

/** The header checksum of a version 2 segment: everything before the records, checksum field left out. */
function headChecksum(head: Buffer): number {
  return checksum(
    head.subarray(CHECKSUM_OFFSET + CHECKSUM_BYTES),
    checksum(head.subarray(0, CHECKSUM_OFFSET)),
  );
}

/**
 * A version 2 segment of these vectors. Throws, naming the embedder, on a vector that is not
 * finite or not of `dimensions` values: such a vector is never cached.
 */
export function encodeSegment(
  embedderId: string,
  dimensions: number,
  keys: readonly string[],
  vectorOf: (key: string) => Float32Array,
): Buffer {
  const idBytes = Buffer.from(embedderId, 'utf8');
  const shape = shapeOf(2, idBytes.length, dimensions, keys.length);
  const file = Buffer.alloc(shape.size);
  MAGIC[2].copy(file, 0);
  file.writeUInt32LE(dimensions, 8);
  file.writeUInt32LE(keys.length, 12);
  file.writeUInt32LE(idBytes.length, 16);
  idBytes.copy(file, FIXED_BYTES[2]);
  keys.forEach((key, slot) => {
    file.write(key, shape.keysOffset + slot * KEY_BYTES, KEY_BYTES, 'latin1');
    const vector = vectorOf(key);
    if (vector.length !== dimensions) {
      throw new Error(
        `Refusing to cache a vector of ${vector.length} dimensions from ${embedderId}, expected ${dimensions}.`,
      );
    }
    for (let d = 0; d < dimensions; d++) {
      if (!Number.isFinite(vector[d])) {
        throw new Error(
          `Refusing to cache a non-finite vector from ${embedderId} (${vector[d]} at dimension ${d}).`,
        );
      }
    }
    const offset = shape.recordsOffset + slot * shape.recordBytes;
    const bytes = new Uint8Array(vector.buffer, vector.byteOffset, vector.byteLength);
    file.set(bytes, offset);
    file.writeUInt32LE(checksum(bytes), offset + dimensions * 4);
  });
  file.writeUInt32LE(headChecksum(file.subarray(0, shape.recordsOffset)), CHECKSUM_OFFSET);
  return file;
}

/** Reads the fixed header of `source` (at least 24 bytes or the whole file) and checks the size. */
function parseFixed(
  fixed: Buffer,
  fileSize: number,
):
  | {
      version: SegmentVersion;
      idBytes: number;
      dimensions: number;
      count: number;
      shape: ReturnType<typeof shapeOf>;
    }
  | string {
  const magic = fixed.subarray(0, 8);
  const version = magic.equals(MAGIC[2]) ? 2 : magic.equals(MAGIC[1]) ? 1 : undefined;
  if (version === undefined) return 'not an embedding segment (unknown magic)';
  if (fileSize < FIXED_BYTES[version]) return `${fileSize} bytes, shorter than its header`;
  const dimensions = fixed.readUInt32LE(8);
  const count = fixed.readUInt32LE(12);
  const idBytes = fixed.readUInt32LE(16);
  if (dimensions === 0 || idBytes > MAX_ID_BYTES) return 'implausible header';
  const shape = shapeOf(version, idBytes, dimensions, count);
  if (fileSize !== shape.size)
    return `${fileSize} bytes where its header promises ${shape.size} (torn or damaged)`;
  return { version, idBytes, dimensions, count, shape };
}

function headerOf(head: Buffer, parsed: Exclude<ReturnType<typeof parseFixed>, string>): SegmentInspection {
  const { version, idBytes, dimensions, count, shape } = parsed;
  if (
    version === 2 &&
    head.length >= shape.recordsOffset &&
    headChecksum(head.subarray(0, shape.recordsOffset)) !== head.readUInt32LE(CHECKSUM_OFFSET)
  ) {
    return { status: 'corrupt', reason: 'header or key checksum mismatch' };
  }
  const start = FIXED_BYTES[version];
  const header: SegmentHeader = {
    version,
    embedderId: head.toString('utf8', start, start + idBytes),
    dimensions,
    count,
    ...shape,
  };
  if (head.length < shape.recordsOffset) return { status: 'ok', header };
  return { status: 'ok', header, keys: head.subarray(shape.keysOffset, shape.recordsOffset) };
}

/** The header and key block of a whole segment file in memory (checksum verified for version 2). */
export function parseSegment(file: Buffer): SegmentInspection {
  const parsed = parseFixed(file, file.length);
  return typeof parsed === 'string' ? { status: 'corrupt', reason: parsed } : headerOf(file, parsed);
}

/**
 * Reads a segment's header and, with `withKeys`, its key block, verifying the header checksum of
 * a version 2 segment (without keys nothing is verified: for counting only). Throws ENOENT if it vanished.
 */
export async function inspectSegment(path: string, withKeys: boolean): Promise<SegmentInspection> {
  const handle = await open(path, 'r');
  try {
    const { size } = await handle.stat();
    const fixed = Buffer.alloc(FIXED_BYTES[2]);
    await handle.read(fixed, 0, fixed.length, 0);
    const parsed = parseFixed(fixed, size);
    if (typeof parsed === 'string') return { status: 'corrupt', reason: parsed };
    const head = Buffer.allocUnsafe(withKeys ? parsed.shape.recordsOffset : parsed.shape.keysOffset);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    if (bytesRead !== head.length) return { status: 'corrupt', reason: 'shorter than its header' };
    return headerOf(head, parsed);
  } finally {
    await handle.close();
  }
}

/**
 * The vector of the record at `offset` in `source`, or why it cannot be used: a checksum
 * mismatch (version 2) or a value that is not finite.
 */
export function decodeRecord(source: Buffer, offset: number, header: SegmentHeader): Float32Array | string {
  const vectorBytes = header.dimensions * 4;
  const bytes = source.subarray(offset, offset + vectorBytes);
  if (header.version === 2 && checksum(bytes) !== source.readUInt32LE(offset + vectorBytes)) {
    return 'record checksum mismatch';
  }
  const vector = new Float32Array(header.dimensions);
  new Uint8Array(vector.buffer).set(bytes);
  for (let d = 0; d < vector.length; d++) {
    if (!Number.isFinite(vector[d])) return `non-finite value ${vector[d]} at dimension ${d}`;
  }
  return vector;
}
