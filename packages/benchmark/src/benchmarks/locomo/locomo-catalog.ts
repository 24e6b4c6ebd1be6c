import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { DatasetCatalogEntry } from '../benchmark.js';

/** A file lme does not download, found (or not) where the catalog says to put it. */
function fileAt(relative: string): DatasetCatalogEntry['locate'] {
  return (dataDir) => {
    const path = join(dataDir, relative);
    return { path, status: existsSync(path) ? 'present' : 'missing' };
  };
}

/** What `lme datasets list` shows of LoCoMo: the published file, passed to --dataset by path. */
export const LOCOMO_CATALOG: readonly DatasetCatalogEntry[] = [
  {
    name: 'locomo',
    what: 'LoCoMo: 10 two-speaker conversations, QA in five categories (locomo10.json, 2.8 MB); --errata locomo corrects its known label errors',
    questions: '1986',
    locate: fileAt('locomo10.json'),
    get: 'not downloaded by lme: save data/locomo10.json of snap-research/locomo as <data dir>/locomo10.json, then --dataset locomo',
  },
];
