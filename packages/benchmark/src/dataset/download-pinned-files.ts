import { existsSync, rmdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { downloadDatasetFile } from './download-dataset-file.js';
import { DownloadConnectionError, type DownloadTimeouts } from './download-request.js';

/** Where raw GitHub files are served from when neither `--github-raw-url` nor LME_GITHUB_RAW_URL says. */
export const GITHUB_RAW_URL = 'https://raw.githubusercontent.com';

/** A file of a repository pinned at a commit, with its size and SHA-256. */
export type PinnedFile = { path: string; bytes: number; sha256: string };

export type PinnedDownloadOptions<File extends PinnedFile> = {
  repository: string;
  commit: string;
  files: readonly File[];
  /** Where a file lands. */
  target(file: File): string;
  /** The source file holding the checksums, named when one does not match. */
  checksumSource: string;
  /** How else the files can be had, ending the sentence when raw GitHub cannot be reached. */
  elsewhere: string;
  /** Files are `<rawUrl>/<repository>/<commit>/<path>`; default GITHUB_RAW_URL. */
  rawUrl?: string;
  onFile?: (file: File, index: number, total: number) => void;
  fetch?: typeof fetch;
  timeouts?: Partial<DownloadTimeouts>;
};

/**
 * Downloads pinned files from raw GitHub, one by one, each resumable and checked for its size and
 * SHA-256 (a mismatch is deleted and fails naming the URL). Folders it made are removed again,
 * while empty, when it fails; no route to raw GitHub fails in one sentence saying where else the
 * files can come from.
 */
export async function downloadPinnedFiles<File extends PinnedFile>(
  options: PinnedDownloadOptions<File>,
): Promise<{ fetched: number; alreadyPresent: number }> {
  const base = (options.rawUrl ?? GITHUB_RAW_URL).replace(/\/+$/, '');
  let fetched = 0;
  let alreadyPresent = 0;
  const made: string[] = [];
  try {
    for (const [index, file] of options.files.entries()) {
      options.onFile?.(file, index, options.files.length);
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
      `${error.message.replace(/\.$/, '')}; fetch from a mirror of raw GitHub with --github-raw-url <url> (or LME_GITHUB_RAW_URL), or ${options.elsewhere}.`,
    );
  }
  return { fetched, alreadyPresent };
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
