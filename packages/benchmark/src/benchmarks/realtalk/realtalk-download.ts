import { existsSync } from 'node:fs';
import { basename, join } from 'node:path';
import { downloadPinnedFiles, type PinnedDownloadResult } from '../../dataset/download-pinned-files.js';
import type { DownloadTimeouts } from '../../dataset/download-request.js';
import { REALTALK_COMMIT, REALTALK_FILES, REALTALK_REPOSITORY, type RealtalkFile } from './realtalk-files.js';

/** The folder the chats land in, what `--dataset realtalk` resolves to. */
export function realtalkFolder(dataDir: string): string {
  return join(dataDir, 'realtalk');
}

/** The `--dataset realtalk` folder, or one sentence saying what is missing and what to do. */
export function resolveRealtalkFolder(dataDir: string): string {
  const folder = realtalkFolder(dataDir);
  const missing = missingRealtalkFiles(folder);
  if (missing.length === 0) return folder;
  const what =
    missing.length === REALTALK_FILES.length
      ? `is not in ${folder} (none of its ${REALTALK_FILES.length} chats)`
      : `is incomplete in ${folder}: ${missing.length} of its ${REALTALK_FILES.length} chats are missing (first: ${basename(missing[0]!.path)})`;
  throw new Error(
    `Dataset realtalk ${what}; run \`lme datasets download realtalk\`, or set --data-dir or LME_DATA_DIR to the folder that holds realtalk/.`,
  );
}

/** The pinned files not in the folder yet. */
export function missingRealtalkFiles(folder: string, files = REALTALK_FILES): RealtalkFile[] {
  return files.filter((file) => !existsSync(join(folder, basename(file.path))));
}

export type RealtalkDownloadOptions = {
  dataDir: string;
  /** Files are `<rawUrl>/<repository>/<commit>/<path>`. */
  rawUrl?: string;
  /** The pinned files (default REALTALK_FILES); tests pass their own. */
  files?: readonly RealtalkFile[];
  fetch?: typeof fetch;
  timeouts?: Partial<DownloadTimeouts>;
};

/**
 * Downloads the ten chats from raw GitHub at the pinned commit into `<dataDir>/realtalk`, each
 * resumable and checked for its size and SHA-256 (a mismatch is deleted and fails naming the URL).
 */
export async function downloadRealtalk(
  options: RealtalkDownloadOptions,
): Promise<{ folder: string } & PinnedDownloadResult> {
  const folder = realtalkFolder(options.dataDir);
  const result = await downloadPinnedFiles({
    repository: REALTALK_REPOSITORY,
    commit: REALTALK_COMMIT,
    files: options.files ?? REALTALK_FILES,
    target: (file) => join(folder, basename(file.path)),
    checksumSource: 'benchmarks/realtalk/realtalk-files.ts',
    putYourself: `data/Chat_*.json of ${REALTALK_REPOSITORY} at commit ${REALTALK_COMMIT.slice(0, 7)} in ${folder}`,
    ...(options.rawUrl ? { rawUrl: options.rawUrl } : {}),
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...(options.timeouts ? { timeouts: options.timeouts } : {}),
  });
  return { folder, ...result };
}
