import { gunzipSync } from 'node:zlib';
import { readRegularFileCapped } from '../config/read-capped-file.js';
import { describeNonUtf8, firstNonUtf8Byte } from '../config/strict-utf8.js';

const MB = 1024 * 1024;

/**
 * The most lme holds of a dataset file, whatever the file: a 13 MB gzip can hold a 3 GB string.
 * Each limit is far above what the real files need (a LongMemEval S record is under 1 MB, its
 * longest turn about 20 kB; M's records a few MB; locomo10.json 3 MB) and far below what would
 * exhaust a machine. Crossing one is an error naming the file and the limit.
 */
export const INPUT_LIMITS = {
  /** One question record of a JSON array, decompressed. */
  recordBytes: 256 * MB,
  /** One JSON string (a turn, an id) inside a record. */
  stringBytes: 64 * MB,
  /** A file read whole (a LoCoMo file, a single JSON object), decompressed. */
  wholeFileBytes: 512 * MB,
  /** A streamed file, decompressed (bounds the time spent on a bomb, not memory). */
  streamBytes: 32 * 1024 * MB,
  /**
   * Arrays and objects inside one another (a real file needs 6: BEAM's `source_chat_ids` maps of
   * lists inside questions inside abilities); deeper is refused naming where, before any code
   * walks it recursively (a 100k-deep list overflows the stack).
   */
  nestingDepth: 64,
} as const;

/** `256 MB`. */
export function formatLimit(bytes: number): string {
  return bytes >= 1024 * MB ? `${bytes / (1024 * MB)} GB` : `${bytes / MB} MB`;
}

/**
 * A dataset file read whole (`.gz` decompressed), refused in one sentence naming it when it is not
 * a regular file (a FIFO, a device such as a link to /dev/zero, a folder), is or decompresses to more
 * than `INPUT_LIMITS.wholeFileBytes`, or holds a byte that is not UTF-8 (named by its offset);
 * corrupt gzip data is named too. Every loader that reads a file whole reads it here (then parses
 * it with `parseDatasetJson`).
 */
export async function readWholeDatasetFile(path: string): Promise<Buffer> {
  const bytes = await readCappedDatasetFile(path);
  const found = firstNonUtf8Byte(bytes);
  if (found) {
    throw new Error(
      `${path}: ${describeNonUtf8(found)}${path.endsWith('.gz') ? ' of the decompressed JSON' : ''} is not UTF-8; a dataset file must be UTF-8 text: save it as UTF-8.`,
    );
  }
  return bytes;
}

async function readCappedDatasetFile(path: string): Promise<Buffer> {
  const limit = INPUT_LIMITS.wholeFileBytes;
  const refusal = () =>
    new Error(
      `${path}: ${path.endsWith('.gz') ? 'decompresses to' : 'is'} more than ${formatLimit(limit)}, the most lme reads whole (a decompression bomb, or not a dataset)`,
    );
  // Regular files only (a FIFO or a link to /dev/zero is refused at once), capped while read.
  const bytes = await readRegularFileCapped(path, {
    what: path,
    maxBytes: limit,
    tooLarge: refusal,
  });
  if (!path.endsWith('.gz')) return bytes;
  try {
    return gunzipSync(bytes, { maxOutputLength: limit });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') throw refusal();
    throw new Error(`${path}: the gzip data is corrupt or truncated (${(error as Error).message})`);
  }
}
