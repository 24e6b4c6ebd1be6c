import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  embedderFolder,
  SEGMENT_PREFIX,
  SEGMENT_SUFFIX,
  uniqueSegmentStem,
} from '../embedding/disk-cache/cache-folder.js';
import { cacheKey, KEY_BYTES } from '../embedding/disk-cache/segment-format.js';

/**
 * For tests: writes a legacy (LMEVSEG1, unchecked) segment of these texts' vectors into an
 * embedding cache, as versions before the checksummed format did; returns its path.
 */
export async function writeLegacySegment(
  dir: string,
  embedderId: string,
  entries: readonly { text: string; vector: Float32Array }[],
): Promise<string> {
  const dimensions = entries[0]?.vector.length ?? 0;
  const idBytes = Buffer.from(embedderId, 'utf8');
  const keysOffset = Math.ceil((20 + idBytes.length) / 4) * 4;
  const recordsOffset = keysOffset + entries.length * KEY_BYTES;
  const file = Buffer.alloc(recordsOffset + entries.length * dimensions * 4);
  file.write('LMEVSEG1', 0, 'latin1');
  file.writeUInt32LE(dimensions, 8);
  file.writeUInt32LE(entries.length, 12);
  file.writeUInt32LE(idBytes.length, 16);
  idBytes.copy(file, 20);
  entries.forEach(({ text, vector }, slot) => {
    file.write(cacheKey(embedderId, text, 'document'), keysOffset + slot * KEY_BYTES, KEY_BYTES, 'latin1');
    file.set(
      new Uint8Array(vector.buffer, vector.byteOffset, vector.byteLength),
      recordsOffset + slot * dimensions * 4,
    );
  });
  const folder = embedderFolder(dir, embedderId);
  await mkdir(folder, { recursive: true });
  const path = join(folder, `${SEGMENT_PREFIX}${uniqueSegmentStem()}${SEGMENT_SUFFIX}`);
  await writeFile(path, file);
  return path;
}
