import { readFile, stat } from 'node:fs/promises';
import { gunzipSync } from 'node:zlib';
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
} as const;

/** `256 MB`. */
export function formatLimit(bytes: number): string {
  return bytes >= 1024 * MB ? `${bytes / (1024 * MB)} GB` : `${bytes / MB} MB`;
}

/**
 * A dataset file read whole (`.gz` decompressed), refused in one sentence naming it when it is, or
 * decompresses to, more than `INPUT_LIMITS.wholeFileBytes`, or holds a byte that is not UTF-8 (named
 * by its offset); corrupt gzip data is named too.
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
  const refuse = (): never => {
    throw new Error(
      `${path}: ${path.endsWith('.gz') ? 'decompresses to' : 'is'} more than ${formatLimit(limit)}, the most lme reads whole (a decompression bomb, or not a dataset)`,
    );
  };
  if ((await stat(path)).size > limit) refuse();
  const bytes = await readFile(path);
  if (!path.endsWith('.gz')) return bytes;
  try {
    return gunzipSync(bytes, { maxOutputLength: limit });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') refuse();
    throw new Error(`${path}: the gzip data is corrupt or truncated (${(error as Error).message})`);
  }
}
