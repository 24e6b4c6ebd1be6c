import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../../testing/run-cli.js';

// lme's session-document retriever against MemPalace's own benchmark code (raw mode and hybrid v1)
// on three real S questions, through scripts/compare-mempalace-rankings.ts. It needs the MemPalace
// bridge (`lme bridges install mempalace`), a clone of MemPalace/mempalace (LME_MEMPALACE_REPO) and
// the S file; each missing part skips it, saying which. Slow: both sides embed about 150 sessions.
const bridges = process.env.LME_BRIDGES_DIR ?? join(homedir(), '.cache/lme/bridges');
const dataDir = process.env.LME_DATA_DIR ?? resolve(REPO_ROOT, '../shared/datasets/longmemeval');
const missing = [
  [existsSync(join(bridges, 'mempalace/installed.json')), `the MemPalace bridge (${bridges}/mempalace)`],
  [process.env.LME_MEMPALACE_REPO !== undefined, 'LME_MEMPALACE_REPO (a clone of MemPalace/mempalace)'],
  [existsSync(join(dataDir, 'longmemeval_s_cleaned.json.gz')), `the S file in ${dataDir}`],
]
  .filter(([present]) => !present)
  .map(([, what]) => what);

describe.skipIf(missing.length > 0)(
  `session-document against MemPalace's script (needs ${missing.join(', ')})`,
  () => {
    for (const mode of ['raw', 'hybrid']) {
      it(`ranks the top 50 sessions of three S questions as MemPalace's ${mode} mode does`, () => {
        const result = spawnSync(
          process.execPath,
          [
            '--import',
            'tsx',
            '--conditions=source',
            join(REPO_ROOT, 'scripts/compare-mempalace-rankings.ts'),
            '--ids',
            'e47becba,0a995998,gpt4_59149c77',
            '--mode',
            mode,
            '--json',
          ],
          { cwd: REPO_ROOT, encoding: 'utf8', env: { ...process.env, LME_DATA_DIR: dataDir } },
        );
        expect(result.stderr).toBe('');
        const rows = JSON.parse(result.stdout) as Array<{
          documents: number;
          firstDifference: number | null;
          distanceGap: number;
        }>;
        expect(rows).toHaveLength(3);
        for (const row of rows) {
          expect(row.documents).toBeGreaterThan(10);
          expect(row.firstDifference).toBeNull();
          expect(row.distanceGap).toBeLessThan(1e-5);
        }
        expect(result.status).toBe(0);
      }, 1_200_000);
    }
  },
);
