import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** The conversation file of a BEAM conversation folder. */
export const BEAM_CHAT_FILE = 'chat.json';
/** The probing questions file of a BEAM conversation folder, relative to it. */
export const BEAM_PROBING_FILE = join('probing_questions', 'probing_questions.json');

/** A folder of one BEAM conversation: `chat.json` beside `probing_questions/probing_questions.json`. */
export function isBeamConversationFolder(path: string): boolean {
  return existsSync(join(path, BEAM_CHAT_FILE)) && existsSync(join(path, BEAM_PROBING_FILE));
}

/**
 * The conversation folders of a BEAM path, in numeric order: the path itself when it is one, else
 * its sub-folders that are (a tier such as `chats/100K`). Empty when neither.
 */
export function beamConversationFolders(path: string): string[] {
  if (!statSync(path, { throwIfNoEntry: false })?.isDirectory()) return [];
  if (isBeamConversationFolder(path)) return [path];
  return readdirSync(path, { withFileTypes: true })
    .filter(
      (entry) =>
        (entry.isDirectory() || entry.isSymbolicLink()) && isBeamConversationFolder(join(path, entry.name)),
    )
    .map((entry) => entry.name)
    .sort(compareNames)
    .map((name) => join(path, name));
}

function compareNames(left: string, right: string): number {
  const a = Number(left);
  const b = Number(right);
  if (Number.isInteger(a) && Number.isInteger(b)) return a - b;
  return left < right ? -1 : left > right ? 1 : 0;
}

/** Whether a path is a BEAM folder (a conversation, or a tier of them). */
export function isBeamFolder(path: string): boolean {
  return beamConversationFolders(path).length > 0;
}

/**
 * The files `loadBeam` reads from a BEAM path, relative to it with `/`, in the order of its
 * conversation folders: what a run's dataset checksum covers (nothing else under the folder:
 * no link it holds is walked, no unrelated file is hashed).
 */
export function beamDatasetFiles(path: string): string[] {
  return beamConversationFolders(path).flatMap((folder) => {
    const relative = folder === path ? '' : `${folder.slice(path.length).replace(/^[\\/]+/, '')}/`;
    return [`${relative}${BEAM_CHAT_FILE}`, `${relative}probing_questions/probing_questions.json`];
  });
}
