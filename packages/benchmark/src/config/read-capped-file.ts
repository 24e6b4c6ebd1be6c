import { constants, type Stats } from 'node:fs';
import { open } from 'node:fs/promises';

const MB = 1024 * 1024;

/** Why a file lme reads whole is refused before a byte of it is read (`what` names it). */
export function notRegular(what: string, stats: Stats): Error {
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
