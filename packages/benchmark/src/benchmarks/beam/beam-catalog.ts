import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { DatasetCatalogEntry } from '../benchmark.js';
import { BEAM_DATASETS } from './beam-download.js';
import { BEAM_REPOSITORY } from './beam-files.js';
import { beamTierRemedy, beamTierStatus } from './beam-tier-status.js';

/** What `lme datasets list` shows of BEAM: the pinned tiers lme downloads, and the two it cannot pin. */
export const BEAM_CATALOG: readonly DatasetCatalogEntry[] = [
  ...Object.entries(BEAM_DATASETS).map(([name, tier]): DatasetCatalogEntry => {
    const status = beamTierStatus(name, '.');
    return {
      name,
      what: `BEAM ${tier} tier: ${status.files / 2} conversations of about ${tier} tokens, probing questions of ten abilities (a folder)`,
      questions: '?',
      locate: (dataDir) => {
        const here = beamTierStatus(name, dataDir);
        if (here.missing.length === 0) return { path: here.folder, status: 'present' };
        return here.missing.length === here.files
          ? { path: here.folder, status: 'missing' }
          : {
              path: here.folder,
              status: 'incomplete',
              note: `${here.missing.length} of ${here.files} files missing`,
            };
      },
      get: beamTierRemedy(name, { ...status, folder: `<data dir>/beam/chats/${tier}` }),
    };
  }),
  ...(['1M', '10M'] as const).map(
    (tier): DatasetCatalogEntry => ({
      name: `beam-${tier.toLowerCase()}`,
      what: `BEAM ${tier} tier (a folder); lme pins no checksums for it, so it does not download it`,
      questions: '?',
      locate: (dataDir) => {
        const path = join(dataDir, 'beam', 'chats', tier);
        return { path, status: existsSync(path) ? 'present' : 'missing' };
      },
      get: `fetch chats/${tier} of ${BEAM_REPOSITORY} yourself and pass its folder to --dataset`,
    }),
  ),
];
