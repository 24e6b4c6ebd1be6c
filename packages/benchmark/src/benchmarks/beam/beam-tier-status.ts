import { statSync } from 'node:fs';
import { join } from 'node:path';
import { BEAM_DATASETS, beamTierFolder } from './beam-download.js';
import { BEAM_COMMIT, BEAM_FILES, BEAM_REPOSITORY, type BeamFile } from './beam-files.js';

/** A pinned BEAM tier in the data directory: its folder and the pinned files absent or of another size. */
export type BeamTierStatus = { folder: string; files: number; bytes: number; missing: BeamFile[] };

/** Which of a tier's pinned files are in `<dataDir>/beam/` at their pinned size (no checksum: `lme datasets download` checks those). */
export function beamTierStatus(name: string, dataDir: string): BeamTierStatus {
  const tier = BEAM_DATASETS[name]!;
  const files = BEAM_FILES[tier] ?? [];
  const missing = files.filter(
    (file) => statSync(join(dataDir, 'beam', file.path), { throwIfNoEntry: false })?.size !== file.bytes,
  );
  return {
    folder: beamTierFolder(dataDir, tier),
    files: files.length,
    bytes: files.reduce((sum, file) => sum + file.bytes, 0),
    missing,
  };
}

/** How to get a pinned tier: the download, and the files by hand. */
export function beamTierRemedy(name: string, status: BeamTierStatus): string {
  return (
    `run \`lme datasets download ${name}\` (${status.files} files, ${(status.bytes / 1e6).toFixed(1)} MB; it fetches only what is missing), ` +
    `or copy chats/${BEAM_DATASETS[name]} of ${BEAM_REPOSITORY} at commit ${BEAM_COMMIT.slice(0, 7)} into ${status.folder} by hand`
  );
}

/** The `--dataset beam-<tier>` folder, or one sentence saying what is missing and what to do. */
export function resolveBeamTier(name: string, dataDir: string): string {
  const status = beamTierStatus(name, dataDir);
  if (status.missing.length === 0) return status.folder;
  const what =
    status.missing.length === status.files
      ? `is not in ${status.folder} (none of its ${status.files} files)`
      : `is incomplete in ${status.folder}: ${status.missing.length} of its ${status.files} files are missing or cut short (first: ${status.missing[0]!.path})`;
  throw new Error(
    `Dataset ${name} ${what}; ${beamTierRemedy(name, status)}, or set --data-dir or LME_DATA_DIR to the folder that holds beam/chats/${BEAM_DATASETS[name]}.`,
  );
}
