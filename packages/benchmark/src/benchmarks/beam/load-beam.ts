import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { readDatasetJson } from '../../dataset/parse-dataset-json.js';
import { BEAM_CHAT_FILE, BEAM_PROBING_FILE, beamConversationFolders } from './beam-folders.js';
import { type BeamRecord, beamConversationRecords } from './beam-records.js';

export type LoadedBeam = {
  path: string;
  /** SHA-256 over every file read, in order (path relative to the folder, then its SHA-256). */
  sha256: string;
  records: BeamRecord[];
  warnings: string[];
};

/**
 * Loads a BEAM tier folder (or one conversation folder) into common records, one per probing
 * question (see `beamConversationRecords`). Every error starts with the file at fault.
 */
export async function loadBeam(path: string): Promise<LoadedBeam> {
  const folders = beamConversationFolders(path);
  if (folders.length === 0) {
    throw new Error(
      `${path}: not a BEAM folder (no chat.json with probing_questions/probing_questions.json in it or in its sub-folders)`,
    );
  }
  const digest = createHash('sha256');
  const records: BeamRecord[] = [];
  const warnings: string[] = [];
  for (const folder of folders) {
    const conversation =
      folder === path
        ? (folder.split(/[\\/]/).filter(Boolean).pop() ?? '1')
        : folder.slice(path.length).replace(/^[\\/]+/, '');
    const chat = await readJson(join(folder, BEAM_CHAT_FILE), digest, `${conversation}/${BEAM_CHAT_FILE}`);
    const probing = await readJson(
      join(folder, BEAM_PROBING_FILE),
      digest,
      `${conversation}/probing_questions/probing_questions.json`,
    );
    try {
      const mapped = beamConversationRecords(conversation, chat, probing);
      records.push(...mapped.records);
      warnings.push(...mapped.warnings.map((warning) => `${folder}: ${warning}`));
    } catch (error) {
      throw new Error(`${folder}: ${(error as Error).message}`);
    }
  }
  return { path, sha256: digest.digest('hex'), records, warnings };
}

/**
 * One file of a conversation through the guarded reader every loader uses (a regular file only, a
 * FIFO or device refused at once; 512 MB, UTF-8, 64 MB per string, nesting bounded), its
 * SHA-256 added to the tier's digest.
 */
async function readJson(file: string, digest: ReturnType<typeof createHash>, name: string): Promise<unknown> {
  const { bytes, value } = await readDatasetJson(file);
  digest.update(`${name}\0${createHash('sha256').update(bytes).digest('hex')}\n`);
  return value;
}
