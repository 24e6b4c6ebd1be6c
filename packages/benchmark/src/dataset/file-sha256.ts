import { createHash, type Hash } from 'node:crypto';
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';

/** SHA-256 of a file's bytes as stored (no decompression). */
export async function sha256OfFile(path: string): Promise<string> {
  const hash = createHash('sha256');
  await hashFile(path, hash);
  return hash.digest('hex');
}

/** A regular file's bytes into the hash (opened non-blocking: a FIFO or device is refused, never read). */
export async function hashFile(path: string, hash: Hash): Promise<void> {
  const handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    if (!(await handle.stat()).isFile())
      throw new Error(`${path} is not a regular file (a device, a pipe or a socket); move it away.`);
    for await (const chunk of handle.createReadStream({ highWaterMark: 1 << 20, autoClose: false }))
      hash.update(chunk as Buffer);
  } finally {
    await handle.close();
  }
}
