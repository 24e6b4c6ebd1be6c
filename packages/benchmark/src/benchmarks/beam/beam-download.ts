import { join } from 'node:path';
import { downloadPinnedFiles, type PinnedDownloadResult } from '../../dataset/download-pinned-files.js';
import type { DownloadTimeouts } from '../../dataset/download-request.js';
import { BEAM_COMMIT, BEAM_FILES, BEAM_REPOSITORY, type BeamFile } from './beam-files.js';

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
  fetch?: typeof fetch;
  timeouts?: Partial<DownloadTimeouts>;
};

export type BeamDownloadResult = { folder: string } & PinnedDownloadResult;

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
  const folder = beamTierFolder(options.dataDir, tier);
  const result = await downloadPinnedFiles({
    repository: BEAM_REPOSITORY,
    commit: BEAM_COMMIT,
    files: options.files ?? BEAM_FILES[tier]!,
    target: (file) => join(options.dataDir, 'beam', file.path),
    checksumSource: 'benchmarks/beam/beam-files.ts',
    putYourself: `the tier's files (${BEAM_REPOSITORY} at commit ${BEAM_COMMIT.slice(0, 7)}: chats/${tier}/<n>/chat.json and probing_questions/probing_questions.json) under ${folder}`,
    ...(options.rawUrl ? { rawUrl: options.rawUrl } : {}),
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...(options.timeouts ? { timeouts: options.timeouts } : {}),
  });
  return { folder, ...result };
}
