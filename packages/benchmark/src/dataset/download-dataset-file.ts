import { createHash, type Hash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, open, rename, rm, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { lock } from 'proper-lockfile';

export type DownloadOptions = {
  url: string;
  /** Where the file ends up; it is written to `<target>.part` first. */
  target: string;
  /** Expected size in bytes, or null when unknown. */
  bytes: number | null;
  /** Expected SHA-256, or null when unknown (the file is kept, reported as unverified). */
  sha256: string | null;
  /** Where the expected values come from, for error messages (configs/datasets.json). */
  checksumSource?: string;
  /** Bytes written so far (including a resumed part) and the total when known. */
  onProgress?: (received: number, total: number | null) => void;
  fetch?: typeof fetch;
};

export type DownloadResult = {
  path: string;
  sha256: string;
  /** false when no checksum was known to check against. */
  verified: boolean;
  /** The file was already there (and checked), nothing was fetched. */
  alreadyPresent: boolean;
  /** Bytes of an earlier interrupted download that were kept (0 for a fresh start). */
  resumedFrom: number;
};

/**
 * Downloads one file with resume and SHA-256 verification: bytes go to `<target>.part`, an
 * existing part is continued with an HTTP Range request, and only a file whose checksum matches
 * (or that has no known checksum) is renamed to `target`. A mismatching download is deleted.
 * Errors are one sentence naming the URL or the file.
 *
 * Two processes (or two calls) downloading the same file take turns: the download holds
 * `<target>.lock` (proper-lockfile: a folder made atomically, refreshed while held, taken over
 * when its holder died), and the one that waited finds the file in place and checks it.
 */
export async function downloadDatasetFile(options: DownloadOptions): Promise<DownloadResult> {
  const { target } = options;
  const present = await presentFile(options);
  if (present) return present;
  await mkdir(dirname(target), { recursive: true });
  let compromised: Error | undefined;
  const release = await lock(target, {
    realpath: false,
    lockfilePath: `${target}.lock`,
    stale: 30_000,
    retries: { forever: true, minTimeout: 200, maxTimeout: 2_000 },
    onCompromised: (error) => {
      compromised = error;
    },
  }).catch((error: NodeJS.ErrnoException) => {
    throw new Error(
      `${target}.lock cannot be made (${error.code ?? error.message}); lme locks a download there.`,
    );
  });
  try {
    const result = (await presentFile(options)) ?? (await downloadLocked(options, () => compromised));
    return result;
  } finally {
    await release().catch(() => undefined);
  }
}

/** The file already in place, checked against the expected SHA-256; undefined when absent. */
async function presentFile(options: DownloadOptions): Promise<DownloadResult | undefined> {
  const { target, checksumSource = 'the dataset config' } = options;
  const present = await sizeOf(target);
  if (present === undefined) return undefined;
  const digest = await sha256OfFile(target);
  if (options.sha256 !== null && digest !== options.sha256) {
    throw new Error(
      `${target} already exists but its SHA-256 is ${digest}, not ${options.sha256} as ${checksumSource} expects; delete it to download it again.`,
    );
  }
  return {
    path: target,
    sha256: digest,
    verified: options.sha256 !== null,
    alreadyPresent: true,
    resumedFrom: 0,
  };
}

async function downloadLocked(
  options: DownloadOptions,
  lockLost: () => Error | undefined,
): Promise<DownloadResult> {
  const { url, target, checksumSource = 'the dataset config' } = options;
  const fetchImplementation = options.fetch ?? fetch;
  const part = `${target}.part`;
  let kept = (await sizeOf(part)) ?? 0;
  if (options.bytes !== null && kept > options.bytes) {
    await rm(part);
    kept = 0;
  }
  const hash = createHash('sha256');
  let received = kept;
  let resumedFrom = 0;
  // The size of the file on the server, as the response declares it (undefined: not declared).
  let serverSize: number | null = null;
  if (options.bytes === null || kept < options.bytes) {
    const response = await request(fetchImplementation, url, kept);
    if (response.status === 416 && kept > 0 && options.bytes === null) {
      // The part already holds every byte the server has; the checksum decides.
      await response.body?.cancel();
      await hashFile(part, hash);
      resumedFrom = kept;
    } else if (!response.ok) {
      await response.body?.cancel();
      throw new Error(`${url}: HTTP ${response.status} ${response.statusText}${hint(response.status)}`);
    } else {
      const append = kept > 0 && response.status === 206;
      if (append && rangeStart(response) !== kept) {
        await response.body?.cancel();
        throw new Error(
          `${url}: asked for the bytes from ${kept} on, the server answered with Content-Range "${response.headers.get('content-range')}"; delete ${part} to start again.`,
        );
      }
      if (append) {
        await hashFile(part, hash);
        resumedFrom = kept;
      } else {
        received = 0; // a fresh start (or a server that ignores Range: it sent everything)
      }
      serverSize = totalOf(response, received);
      if (options.bytes !== null && serverSize !== null && serverSize > options.bytes) {
        // Refused on its Content-Length, before a byte is written.
        await response.body?.cancel();
        if (!append) await rm(part, { force: true });
        throw new Error(
          `${url}: the server's file has ${serverSize} bytes, but ${checksumSource} expects ${options.bytes}; nothing was downloaded.`,
        );
      }
      const total = options.bytes ?? serverSize;
      try {
        received = await writeBody(
          response,
          part,
          append,
          hash,
          received,
          total,
          options.onProgress,
          url,
          options.bytes,
        );
      } catch (error) {
        if (!(error instanceof TooLongError)) throw error;
        await rm(part, { force: true });
        throw new Error(
          `${url}: the server sent more than the ${options.bytes} bytes ${checksumSource} expects; the download was stopped there and deleted.`,
        );
      }
    }
  } else {
    await hashFile(part, hash);
    resumedFrom = kept;
  }
  if (
    options.bytes !== null &&
    serverSize !== null &&
    serverSize !== options.bytes &&
    received === serverSize
  ) {
    await rm(part, { force: true });
    throw new Error(
      `${url}: the server's file has ${serverSize} bytes, but ${checksumSource} expects ${options.bytes}; the download was deleted.`,
    );
  }
  if (options.bytes !== null && received < options.bytes) {
    throw new Error(
      `${url}: the server sent ${received} of ${options.bytes} bytes; ${part} keeps them, run the same command again to resume.`,
    );
  }
  if (options.bytes !== null && received > options.bytes) {
    await rm(part, { force: true });
    throw new Error(
      `${target}: the server sent ${received} bytes, but ${checksumSource} expects ${options.bytes}; the download was deleted.`,
    );
  }
  const digest = hash.digest('hex');
  if (options.sha256 !== null && digest !== options.sha256) {
    await rm(part, { force: true });
    throw new Error(
      `${target}: the downloaded file's SHA-256 is ${digest}, but ${checksumSource} expects ${options.sha256}; the download was deleted.`,
    );
  }
  const lost = lockLost();
  if (lost) {
    throw new Error(
      `${target}.lock was taken over while this download held it (${lost.message}); run the same command again.`,
    );
  }
  await rename(part, target);
  return {
    path: target,
    sha256: digest,
    verified: options.sha256 !== null,
    alreadyPresent: false,
    resumedFrom,
  };
}

/** SHA-256 of a file's bytes as stored (no decompression). */
export async function sha256OfFile(path: string): Promise<string> {
  const hash = createHash('sha256');
  await hashFile(path, hash);
  return hash.digest('hex');
}

async function hashFile(path: string, hash: Hash): Promise<void> {
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 })) hash.update(chunk as Buffer);
}

async function request(fetchImplementation: typeof fetch, url: string, from: number): Promise<Response> {
  try {
    return await fetchImplementation(url, { headers: from > 0 ? { Range: `bytes=${from}-` } : {} });
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    throw new Error(`${url}: cannot connect (${cause?.code ?? cause?.message ?? (error as Error).message}).`);
  }
}

async function writeBody(
  response: Response,
  part: string,
  append: boolean,
  hash: Hash,
  start: number,
  total: number | null,
  onProgress: DownloadOptions['onProgress'],
  url: string,
  /** The expected size: a body that goes on past it is stopped (TooLongError), never written past it. */
  limit: number | null,
): Promise<number> {
  const handle = await open(part, append ? 'a' : 'w');
  let received = start;
  try {
    onProgress?.(received, total);
    if (response.body) {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
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
    const cause = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).message;
    throw new Error(
      `${url}: the connection broke after ${received}${total === null ? '' : ` of ${total}`} bytes (${cause}); ${part} keeps them, run the same command again to resume.`,
    );
  } finally {
    await handle.close();
  }
  return received;
}

/** A body that went on past the expected size. */
class TooLongError extends Error {}

/** The first byte a 206 response holds, from `Content-Range: bytes <start>-<end>/<size>`. */
function rangeStart(response: Response): number | undefined {
  const match = /^bytes (\d+)-/.exec(response.headers.get('content-range') ?? '');
  return match ? Number(match[1]) : undefined;
}

function totalOf(response: Response, start: number): number | null {
  const length = Number(response.headers.get('content-length'));
  return Number.isFinite(length) && length > 0 ? start + length : null;
}

function hint(status: number): string {
  if (status === 404)
    return ': the file is not at this address (check the revision and file name in the dataset config).';
  if (status === 401 || status === 403) return ': the hub refused access (a gated or private file?).';
  return '.';
}

async function sizeOf(path: string): Promise<number | undefined> {
  const stats = await stat(path).catch(() => undefined);
  if (stats?.isDirectory()) throw new Error(`${path} is a directory; move it away to download there.`);
  return stats?.size;
}
