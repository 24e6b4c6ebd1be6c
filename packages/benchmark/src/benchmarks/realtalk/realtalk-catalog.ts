import type { DatasetCatalogEntry } from '../benchmark.js';
import { missingRealtalkFiles, realtalkFolder } from './realtalk-download.js';
import {
  REALTALK_COMMIT,
  REALTALK_FILES,
  REALTALK_QUESTIONS,
  REALTALK_REPOSITORY,
} from './realtalk-files.js';

const MEGABYTES = (REALTALK_FILES.reduce((sum, file) => sum + file.bytes, 0) / 1e6).toFixed(1);

/** What `lme datasets list` shows of REALTALK: the folder of ten chats lme downloads. */
export const REALTALK_CATALOG: readonly DatasetCatalogEntry[] = [
  {
    name: 'realtalk',
    what: `REALTALK: 10 real two-person messaging chats over 21 days, memory-probing questions in three categories (a folder, ${MEGABYTES} MB)`,
    questions: String(REALTALK_QUESTIONS),
    locate: (dataDir) => {
      const path = realtalkFolder(dataDir);
      const missing = missingRealtalkFiles(path).length;
      if (missing === 0) return { path, status: 'present' };
      return missing === REALTALK_FILES.length
        ? { path, status: 'missing' }
        : { path, status: 'incomplete', note: `${missing} of ${REALTALK_FILES.length} chats missing` };
    },
    get: `lme datasets download realtalk (${REALTALK_REPOSITORY} at ${REALTALK_COMMIT.slice(0, 7)}, ${MEGABYTES} MB, SHA-256 checked)`,
  },
];
