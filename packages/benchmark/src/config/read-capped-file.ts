import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from 'node:fs';
import { open } from 'node:fs/promises';
import { decodeUtf8 } from './strict-utf8.js';

const MB = 1024 * 1024;

/**
 * The most lme reads of a small text file a user names (a `--config` or `--preset` file, an
 * errata file): far above what a real one holds (the largest preset is under 2 kB, a run's
 * config.json a few kB, the LongMemEval errata 30 kB) and far below what would exhaust a machine
 * or make a parser run for minutes.
 */
export const SMALL_FILE_BYTES = 1 * MB;

/** `1 MB`. */
function formatBytes(bytes: number): string {
  return bytes >= MB ? `${bytes / MB} MB` : `${bytes / 1024} kB`;
}

/**
 * A small text file read whole: refused in one sentence naming it (`what` says how the user named
 * it: `--config run.yaml`) when it cannot be opened, is not a regular file (`/dev/zero`, a pipe, a
 * folder), holds more than `maxBytes` (checked on the open file's size and again while reading, so
 * a file that grows meanwhile is cut off there), or holds a byte that is not UTF-8.
 */
export function readSmallTextFile(
  path: string,
  options: { what: string; maxBytes?: number } = { what: path },
): string {
  const maxBytes = options.maxBytes ?? SMALL_FILE_BYTES;
  const tooLarge = () =>
    new Error(
      `${options.what} holds more than ${formatBytes(maxBytes)}, the most lme reads of such a file; it cannot be one (check the path).`,
    );
  let fd: number;
  try {
    // Opened before it is checked, so what is checked is what is read (no swap in between);
    // non-blocking, so a pipe with no writer is refused by its fstat instead of waiting forever.
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    throw new Error(
      `${options.what} cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}).`,
    );
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) throw notRegular(options.what, stats);
    if (stats.size > maxBytes) throw tooLarge();
    const buffer = Buffer.alloc(maxBytes + 1);
    let length = 0;
    for (;;) {
      const read = readSync(fd, buffer, length, buffer.length - length, null);
      if (read === 0) break;
      length += read;
      if (length > maxBytes) throw tooLarge();
    }
    return decodeUtf8(buffer.subarray(0, length), path);
  } finally {
    closeSync(fd);
  }
}

/** Why a file lme reads whole is refused before a byte of it is read (`what` names it). */
function notRegular(what: string, stats: Stats): Error {
  return new Error(
    `${what} is ${stats.isDirectory() ? 'a folder' : 'not a regular file (a device, a pipe or a socket)'}; lme reads this from a regular file.`,
  );
}

/**
 * The one guarded read of a file lme reads whole (a dataset file, a BEAM chat.json), async: opened
 * non-blocking (a FIFO with no writer is refused by its fstat instead of hanging the process, and a
 * link to `/dev/zero` is refused as a device), checked to be a regular file on the open descriptor,
 * refused when its size is over `maxBytes` (before a byte is read) or when it grows past it while
 * read. `tooLarge` builds the refusal (one sentence naming the file); the bytes come back as read.
 */
export async function readRegularFileCapped(
  path: string,
  options: { what: string; maxBytes: number; tooLarge: () => Error },
): Promise<Buffer> {
  const handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK).catch(
    (error: NodeJS.ErrnoException) => {
      throw new Error(
        `${options.what} cannot be read (${error.code === 'ENOENT' ? 'no such file' : (error.code ?? error.message)}).`,
      );
    },
  );
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) throw notRegular(options.what, stats);
    if (stats.size > options.maxBytes) throw options.tooLarge();
    const chunks: Buffer[] = [];
    let length = 0;
    // Read to the end of what is there, never past maxBytes + 1 (a file that grows meanwhile).
    for (;;) {
      const room = Math.min(
        Math.max(stats.size - length + 1, 64 * 1024),
        16 * MB,
        options.maxBytes + 1 - length,
      );
      const chunk = Buffer.allocUnsafe(room);
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, null);
      if (bytesRead === 0) break;
      chunks.push(bytesRead === chunk.length ? chunk : chunk.subarray(0, bytesRead));
      length += bytesRead;
      if (length > options.maxBytes) throw options.tooLarge();
    }
    return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, length);
  } finally {
    await handle.close();
  }
}
