import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../testing/run-cli.js';
import { checkReferenceRun } from './check-reference-run.js';
import { hasReference } from './official-reference.js';

const shared = resolve(REPO_ROOT, '../shared');
const referenceDir = join(shared, 'reference/official-bm25');
const dataDir = join(shared, 'datasets/longmemeval');
const available = hasReference(referenceDir);

// The same four checks as scripts/check-reference.ts (about 15 s of CPU), wherever the real data
// and the official runs sit beside the repository (../shared, as in CI). Without them the suite
// says why it skips instead of passing silently.
const title = available
  ? 'official BM25 reference'
  : `official BM25 reference (skipped: no official runs at ${referenceDir}; clone the shared data beside the repository to run it)`;

describe.skipIf(!available)(title, () => {
  const out = mkdtempSync(join(tmpdir(), 'lme-ref-'));
  afterAll(() => rmSync(out, { recursive: true, force: true }));
  for (const dataset of ['oracle', 's'] as const) {
    for (const granularity of ['session', 'turn'] as const) {
      it(`reproduces ${dataset} ${granularity} granularity per question and per mean`, async () => {
        const comparison = await checkReferenceRun({ dataset, granularity, dataDir, referenceDir, out });
        expect(comparison.findings).toEqual([]);
        expect(comparison.questionsCompared).toBe(dataset === 's' ? 499 : 500);
        expect(comparison.rankingMismatches).toBe(0);
      }, 180_000);
    }
  }
});
