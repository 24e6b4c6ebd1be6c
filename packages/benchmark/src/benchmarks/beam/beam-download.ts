import { existsSync, rmdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { downloadDatasetFile } from '../../dataset/download-dataset-file.js';
import { DownloadConnectionError, type DownloadTimeouts } from '../../dataset/download-request.js';
import { BEAM_COMMIT, BEAM_FILES, BEAM_REPOSITORY, type BeamFile } from './beam-files.js';

/** Where raw GitHub files are served from (env LME_GITHUB_RAW_URL or `--github-raw-url` in tests). */
export const GITHUB_RAW_URL = 'https://raw.githubusercontent.com';

/** `lme datasets download` names of the BEAM tiers it can fetch and check, and their folders. */
export const BEAM_DATASETS: Record<string, string> = { 'beam-100k': '100K', 'beam-500k': '500K' };

/** Tiers BEAM publishes that lme cannot pin, and why (one sentence each). */
const UNPINNED: Record<string, string> = {
  'beam-1m':
    'beam-1m is not offered: 26 of its 35 chat.json files (over 4 MiB each) were absent from the snapshot lme pinned, so their SHA-256 is unknown; fetch the tier from the BEAM repository yourself and pass its folder to --dataset',
  'beam-10m':
    'beam-10m is not offered: its chat.json files were absent from the snapshot lme pinned, so their SHA-256 is unknown; fetch the tier from the BEAM repository yourself and pass its folder to --dataset',
};

/** Whether `lme datasets download` should treat a name as BEAM's (then `downloadBeamTier` says what it does with it). */
export function isBeamDatasetName(name: string): boolean {
  return name.startsWith('beam-');
}

/** The folder a downloaded tier lands in: `<dataDir>/beam/chats/<tier>`, what `--dataset` takes. */
export function beamTierFolder(dataDir: string, tier: string): string {
  return join(dataDir, 'beam', 'chats', tier);
}

export type BeamDownloadOptions = {
  name: string;
  dataDir: string;
  /** Default GITHUB_RAW_URL; files are `<rawUrl>/<repository>/<commit>/<path>`. */
  rawUrl?: string;
  /** The pinned files (default BEAM_FILES of the name's tier); tests pass their own. */
  files?: readonly BeamFile[];
  onFile?: (file: BeamFile, index: number, total: number) => void;
  fetch?: typeof fetch;
  timeouts?: Partial<DownloadTimeouts>;
};

export type BeamDownloadResult = { folder: string; files: number; fetched: number; alreadyPresent: number };

/**
 * Downloads one BEAM tier, file by file, from raw GitHub at the pinned commit: every file resumable
 * and SHA-256 checked against BEAM_FILES (a mismatch is deleted and fails naming the URL).
 */
export async function downloadBeamTier(options: BeamDownloadOptions): Promise<BeamDownloadResult> {
  const refusal = UNPINNED[options.name];
  if (refusal) throw new Error(`${refusal}.`);
  const tier = BEAM_DATASETS[options.name];
  if (!tier)
    throw new Error(
      `Unknown BEAM dataset "${options.name}"; known: ${Object.keys(BEAM_DATASETS).join(', ')}.`,
    );
  const files = options.files ?? BEAM_FILES[tier]!;
  const base = (options.rawUrl ?? GITHUB_RAW_URL).replace(/\/+$/, '');
  let fetched = 0;
  let alreadyPresent = 0;
  // Folders this call makes, removed again (when still empty) if it fails: no empty tier left behind.
  const made: string[] = [];
  try {
    for (const [index, file] of files.entries()) {
      options.onFile?.(file, index, files.length);
      const target = join(options.dataDir, 'beam', file.path);
      made.push(...missingFolders(dirname(target)));
      const result = await downloadDatasetFile({
        url: `${base}/${BEAM_REPOSITORY}/${BEAM_COMMIT}/${file.path}`,
        target,
        bytes: file.bytes,
        sha256: file.sha256,
        checksumSource: 'benchmarks/beam/beam-files.ts',
        ...(options.fetch ? { fetch: options.fetch } : {}),
        ...(options.timeouts ? { timeouts: options.timeouts } : {}),
      });
      if (result.alreadyPresent) alreadyPresent++;
      else fetched++;
    }
  } catch (error) {
    removeEmptyFolders(made);
    if (!(error instanceof DownloadConnectionError)) throw error;
    // No route to raw GitHub: where else the files can come from, in the same sentence.
    throw new Error(
      `${error.message.replace(/\.$/, '')}; fetch from a mirror of raw GitHub with --github-raw-url <url> (or LME_GITHUB_RAW_URL), or put the tier's files (${BEAM_REPOSITORY} at commit ${BEAM_COMMIT.slice(0, 7)}: chats/${tier}/<n>/chat.json and probing_questions/probing_questions.json) under ${beamTierFolder(options.dataDir, tier)} yourself (--data-dir or LME_DATA_DIR chooses the data folder).`,
    );
  }
  return { folder: beamTierFolder(options.dataDir, tier), files: files.length, fetched, alreadyPresent };
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
