import type { Hash } from 'node:crypto';
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { type IdleWatch, seconds } from './download-request.js';

/** Writes a response body to a download's part file, hashing it as it goes; returns the bytes the part now holds. */
export async function writeBody(
  response: Response,
  options: {
    part: string;
    append: boolean;
    hash: Hash;
    start: number;
    total: number | null;
    onProgress: ((received: number, total: number | null) => void) | undefined;
    url: string;
    /** The expected size: a body that goes on past it is stopped (TooLongError), never written past it. */
    limit: number | null;
    idle: IdleWatch;
  },
): Promise<number> {
  const { part, hash, total, onProgress, url, limit, idle } = options;
  // Never through a link, even one made since the check above (O_NOFOLLOW fails with ELOOP).
  const flags =
    constants.O_WRONLY |
    constants.O_CREAT |
    constants.O_NOFOLLOW |
    (options.append ? constants.O_APPEND : constants.O_TRUNC);
  const handle = await open(part, flags).catch((error: NodeJS.ErrnoException) => {
    throw new Error(
      `${part} cannot be written (${error.code === 'ELOOP' ? 'it is a symbolic link' : (error.code ?? error.message)}); delete it and run the same command again.`,
    );
  });
  let received = options.start;
  try {
    onProgress?.(received, total);
    if (response.body) {
      idle.arm();
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        idle.arm();
        if (limit !== null && received + chunk.length > limit) throw new TooLongError();
        await handle.write(chunk);
        hash.update(chunk);
        received += chunk.length;
        onProgress?.(received, total);
      }
    }
  } catch (error) {
    if (error instanceof TooLongError) {
      // Leaving the loop cancels the body; the caller deletes the part.
      throw error;
    }
    const cause = idle.fired
      ? `no byte for ${seconds(idle.ms)}, idle timeout`
      : ((error as { cause?: { code?: string } }).cause?.code ?? (error as Error).message);
    throw new Error(
      `${url}: the connection broke after ${received}${total === null ? '' : ` of ${total}`} bytes (${cause}); ${part} keeps them, run the same command again to resume.`,
    );
  } finally {
    idle.disarm();
    await handle.close();
  }
  return received;
}

/** A body that went on past the expected size. */
export class TooLongError extends Error {}
