import { createHash } from 'node:crypto';
import { readdirSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { checkDatasetFile } from '../../dataset/check-dataset-file.js';
import { readDatasetJson } from '../../dataset/parse-dataset-json.js';
import { type RealtalkRecord, realtalkRecords } from './realtalk-chat.js';
import { REALTALK_CHAT_NAME } from './realtalk-files.js';

export type LoadedRealtalk = {
  path: string;
  /** One chat file: the SHA-256 of its JSON; a folder: of `<name>\0<file sha256>\n` per chat, in order. */
  sha256: string;
  records: RealtalkRecord[];
  /** Evidence that names no turn or was read leniently, each starting with its file. */
  warnings: string[];
};

/** Whether a path is a folder holding REALTALK chats (`Chat_<n>_<A>_<B>.json`). */
export function isRealtalkFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory() && realtalkChatFiles(path).length > 0;
  } catch {
    return false;
  }
}

/** The chat files of a folder, by chat number. */
export function realtalkChatFiles(folder: string): string[] {
  return readdirSync(folder)
    .filter((name) => REALTALK_CHAT_NAME.test(name))
    .sort((left, right) => chatNumber(left) - chatNumber(right) || (left < right ? -1 : 1));
}

function chatNumber(name: string): number {
  return Number(REALTALK_CHAT_NAME.exec(name)?.[1]);
}

/** A chat's id in question and session ids: its file name without `.json`/`.json.gz`. */
export function realtalkChatId(file: string): string {
  return basename(file).replace(/\.json(\.gz)?$/, '');
}

/** Reads one chat file or a folder of them; every error starts with the file at fault. */
export async function loadRealtalk(path: string): Promise<LoadedRealtalk> {
  const folder = isRealtalkFolder(path);
  const files = folder ? realtalkChatFiles(path).map((name) => join(path, name)) : [path];
  const digest = createHash('sha256');
  const records: RealtalkRecord[] = [];
  const warnings: string[] = [];
  let single = '';
  for (const file of files) {
    await checkDatasetFile(file);
    const { bytes, value } = await readDatasetJson(file);
    single = createHash('sha256').update(bytes).digest('hex');
    digest.update(`${basename(file)}\0${single}\n`);
    try {
      const chat = realtalkRecords(value, realtalkChatId(file));
      records.push(...chat.records);
      warnings.push(...chat.warnings.map((warning) => `${file}: ${warning}`));
    } catch (error) {
      throw new Error(`${file}: ${(error as Error).message}`);
    }
  }
  return { path, sha256: folder ? digest.digest('hex') : single, records, warnings };
}
