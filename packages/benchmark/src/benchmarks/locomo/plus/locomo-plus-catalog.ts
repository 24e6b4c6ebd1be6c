import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { DatasetCatalogEntry } from '../../benchmark.js';

/** What `lme datasets list` shows of LoCoMo-Plus: its file with locomo10.json beside it, passed by path. */
export const LOCOMO_PLUS_CATALOG: readonly DatasetCatalogEntry[] = [
  {
    name: 'locomo-plus',
    what: "LoCoMo-Plus: LoCoMo's QA plus Cognitive cue/trigger items stitched into its conversations (locomo_plus.json with locomo10.json beside it)",
    questions: '2387',
    locate: (dataDir) => {
      const path = join(dataDir, 'locomo-plus', 'locomo_plus.json');
      const besides = existsSync(join(dataDir, 'locomo-plus', 'locomo10.json'));
      if (!existsSync(path)) return { path, status: 'missing' };
      return besides
        ? { path, status: 'present' }
        : { path, status: 'incomplete', note: 'locomo10.json is not beside it' };
    },
    get: 'not downloaded by lme: copy data/locomo_plus.json and data/locomo10.json of xjtuleeyf/Locomo-Plus (commit 143cdeb) into <data dir>/locomo-plus/, then --dataset locomo-plus',
  },
];
