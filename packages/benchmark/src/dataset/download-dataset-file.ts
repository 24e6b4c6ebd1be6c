import { createHash } from 'node:crypto';
import { lstat, mkdir, rename, rm, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { lock } from 'proper-lockfile';
import { TooLongError, writeBody } from './download-body.js';
import {
  DOWNLOAD_TIMEOUTS,
  type DownloadTimeouts,
  hint,
  rangeStart,
  request,
  totalOf,
} from './download-request.js';
import { hashFile, sha256OfFile } from './file-sha256.js';

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

async function sizeOf(path: string): Promise<number | undefined> {
  const stats = await stat(path).catch(() => undefined);
  if (stats?.isDirectory()) throw new Error(`${path} is a directory; move it away to download there.`);
  return stats?.size;
}
