import { existsSync, rmdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { downloadDatasetFile } from './download-dataset-file.js';
import { DownloadConnectionError, type DownloadTimeouts } from './download-request.js';

/** Where raw GitHub files are served from when neither `--github-raw-url` nor LME_GITHUB_RAW_URL says. */
export const GITHUB_RAW_URL = 'https://raw.githubusercontent.com';

/** One file of a repository at a pinned commit; `path` is relative to the repository root. */
export type PinnedFile = { readonly path: string; readonly bytes: number; readonly sha256: string };

export type PinnedDownloadOptions = {
  /** `owner/name` on GitHub. */
  repository: string;
  commit: string;
  files: readonly PinnedFile[];
  /** Where one file lands on disk. */
  target: (file: PinnedFile) => string;
  /** The source file that pins the checksums, named when a download does not match. */
  checksumSource: string;
  /** What to put where, for the "put … yourself" advice when raw GitHub cannot be reached. */
  putYourself: string;
  /** Default GITHUB_RAW_URL; files are `<rawUrl>/<repository>/<commit>/<path>`. */
  rawUrl?: string;
  fetch?: typeof fetch;
  timeouts?: Partial<DownloadTimeouts>;
};

export type PinnedDownloadResult = { files: number; fetched: number; alreadyPresent: number };

/**
 * Downloads pinned files of a GitHub repository from raw GitHub, one after another: each resumable
 * and checked for its size and SHA-256 (a mismatch is deleted and fails naming the URL). On failure
 * the folders this call made are removed again while empty; with no route to the server the error
 * says, in the same sentence, where else the files can come from.
 */
export async function downloadPinnedFiles(options: PinnedDownloadOptions): Promise<PinnedDownloadResult> {
  const base = (options.rawUrl ?? GITHUB_RAW_URL).replace(/\/+$/, '');
  let fetched = 0;
  let alreadyPresent = 0;
  const made: string[] = [];
  try {
    for (const file of options.files) {
      const target = options.target(file);
      made.push(...missingFolders(dirname(target)));
      const result = await downloadDatasetFile({
        url: `${base}/${options.repository}/${options.commit}/${file.path}`,
        target,
        bytes: file.bytes,
        sha256: file.sha256,
        checksumSource: options.checksumSource,
        ...(options.fetch ? { fetch: options.fetch } : {}),
        ...(options.timeouts ? { timeouts: options.timeouts } : {}),
      });
      if (result.alreadyPresent) alreadyPresent++;
      else fetched++;
    }
  } catch (error) {
    removeEmptyFolders(made);
    if (!(error instanceof DownloadConnectionError)) throw error;
    throw new Error(
      `${error.message.replace(/\.$/, '')}; fetch from a mirror of raw GitHub with --github-raw-url <url> (or LME_GITHUB_RAW_URL), or put ${options.putYourself} yourself (--data-dir or LME_DATA_DIR chooses the data folder).`,
    );
  }
  return { files: options.files.length, fetched, alreadyPresent };
}

/** The folders from `folder` up that do not exist yet, deepest first. */
function missingFolders(folder: string): string[] {
  const missing: string[] = [];
  for (let at = resolve(folder); !existsSync(at); at = dirname(at)) {
    missing.push(at);
    if (dirname(at) === at) break;
  }
  return missing;
}

/** Removes the folders listed, deepest first, each only while empty (a kept `.part` keeps its folder). */
function removeEmptyFolders(folders: readonly string[]): void {
  for (const folder of [...new Set(folders)].sort((left, right) => right.length - left.length)) {
    try {
      rmdirSync(folder);
    } catch {
      // not empty (a partial download to resume), or gone already
    }
  }
}
