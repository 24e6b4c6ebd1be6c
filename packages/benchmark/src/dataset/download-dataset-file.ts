import { createHash, type Hash } from 'node:crypto';
import { constants } from 'node:fs';
import { lstat, mkdir, open, rename, rm, stat } from 'node:fs/promises';
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
  /** Bounds on a server that stalls (defaults DOWNLOAD_TIMEOUTS); tests pass short ones. */
  timeouts?: Partial<DownloadTimeouts>;
};

export type DownloadTimeouts = {
  /** From the request until the response's headers: a server that never answers. */
  connectMs: number;
  /** Between two pieces of the body: a server that stalls after its headers. */
  idleMs: number;
};

/**
 * lme's own bounds on a download (undici's are 300 s each): 30 s to answer, 60 s of silence in
 * the body, so a silent server ends a download within 90 s with a sentence saying which.
 */
export const DOWNLOAD_TIMEOUTS: DownloadTimeouts = { connectMs: 30_000, idleMs: 60_000 };

/** A download that could not reach the server (no route, refused, no answer in time): the caller may add where else to get the file. */
export class DownloadConnectionError extends Error {}

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
  // A FIFO or a device (a link to /dev/zero) is never read: it would hang or never end.
  if (!(await stat(target)).isFile())
    throw new Error(
      `${target} exists but is not a regular file (a device, a pipe or a socket); move it away to download there.`,
    );
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
  // The part is lme's own: a link (to a file elsewhere, or to /dev/zero) or a special file is
  // refused, never appended through; writes below open it with O_NOFOLLOW as well.
  const partStats = await lstat(part).catch(() => undefined);
  if (partStats && !partStats.isFile())
    throw new Error(
      `${part} is ${partStats.isSymbolicLink() ? 'a symbolic link' : 'not a regular file'}; lme writes a download there itself and never through a link: delete it and run the same command again.`,
    );
  const timeouts = { ...DOWNLOAD_TIMEOUTS, ...options.timeouts };
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
    const { response, idle } = await request(fetchImplementation, url, kept, timeouts);
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
        received = await writeBody(response, {
          part,
          append,
          hash,
          start: received,
          total,
          onProgress: options.onProgress,
          url,
          limit: options.bytes,
          idle,
        });
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

/** A regular file's bytes into the hash (opened non-blocking: a FIFO or device is refused, never read). */
async function hashFile(path: string, hash: Hash): Promise<void> {
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

/** The body's idle watch: `arm` before each read, `disarm` when done; `fired` once it aborted the body. */
type IdleWatch = { arm(): void; disarm(): void; readonly fired: boolean; readonly ms: number };

/**
 * The request, bounded: no headers within `connectMs` aborts it (a server that never answers);
 * the returned watch aborts the body after `idleMs` without a byte (one that stalls after its headers).
 */
async function request(
  fetchImplementation: typeof fetch,
  url: string,
  from: number,
  timeouts: DownloadTimeouts,
): Promise<{ response: Response; idle: IdleWatch }> {
  const controller = new AbortController();
  let connectFired = false;
  const connectTimer = setTimeout(() => {
    connectFired = true;
    controller.abort();
  }, timeouts.connectMs);
  let response: Response;
  try {
    response = await fetchImplementation(url, {
      headers: from > 0 ? { Range: `bytes=${from}-` } : {},
      signal: controller.signal,
    });
  } catch (error) {
    if (connectFired)
      throw new DownloadConnectionError(
        `${url}: the server did not answer within ${seconds(timeouts.connectMs)} (connect timeout).`,
      );
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    throw new DownloadConnectionError(
      `${url}: cannot connect (${cause?.code ?? cause?.message ?? (error as Error).message}).`,
    );
  } finally {
    clearTimeout(connectTimer);
  }
  let idleTimer: NodeJS.Timeout | undefined;
  let idleFired = false;
  const idle: IdleWatch = {
    arm() {
      clearTimeout(idleTimer);
      idleTimer = setTimeout(() => {
        idleFired = true;
        controller.abort();
      }, timeouts.idleMs);
    },
    disarm: () => clearTimeout(idleTimer),
    get fired() {
      return idleFired;
    },
    ms: timeouts.idleMs,
  };
  return { response, idle };
}

/** `30 s`, `0.1 s`. */
function seconds(ms: number): string {
  return `${ms / 1000} s`;
}

async function writeBody(
  response: Response,
  options: {
    part: string;
    append: boolean;
    hash: Hash;
    start: number;
    total: number | null;
    onProgress: DownloadOptions['onProgress'];
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
