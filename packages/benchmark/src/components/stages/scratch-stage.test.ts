import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ScratchPackage, scratchPackage } from '../../testing/scratch-package.js';

/**
 * A new stage is one folder and one registry line. This test writes a stage of its own
 * (`components/stages/scratch-drop/`: `--scratch-drop` drops the first `--scratch-drop-count` hits
 * of the candidate pool) into a copy of the package's src, adds its line (and import) to STAGES,
 * edits nothing else, and runs the real CLI on the copy: its flags are in `lme run --help`, warned
 * about where they do nothing, recorded in config.json, traced in explain.jsonl, listed by the dry
 * run, and change the run's figures. Its line comes first in STAGES and its `order` (25) after
 * multi-signal's: it runs after multi-signal. A second one (`scratch-erase`) acts at index time
 * through a hook, with its own folder and line too.
 */

const SCRATCH_DROP = `import { z } from 'zod';
import { defineStage } from '../stage-descriptor.js';

export const SCRATCH_DROP_STAGE = defineStage({
  name: 'scratch-drop',
  description: 'drops the first hits of the candidate pool (a scratch stage)',
  options: {
    scratchDrop: { schema: z.boolean().default(false), flags: '--scratch-drop', group: 'stages', help: 'drop the first hits of the pool (a scratch stage)' },
    scratchDropCount: { schema: z.number().int().min(1).default(2), flags: '--scratch-drop-count <n>', group: 'stages', help: 'hits --scratch-drop drops' },
  },
  capabilities: { runsOn: 'pipeline', order: 25, needsVectors: false },
  switch: 'scratchDrop',
  create: (options) => ({ name: 'scratch_drop', apply: (pool) => pool.slice(options.scratchDropCount) }),
  provenance: (options) => \`scratch-drop (\${options.scratchDropCount})\`,
  explain: (options) => ({ scratch_drop: { count: options.scratchDropCount } }),
});
`;

/** A stage acting at index time, through a hook: `--scratch-erase` blanks every other document before it is indexed. */
const SCRATCH_ERASE = `import { z } from 'zod';
import { defineStage } from '../stage-descriptor.js';

export const SCRATCH_ERASE_STAGE = defineStage({
  name: 'scratch-erase',
  description: 'blanks every other document before indexing (a scratch index-time stage)',
  options: {
    scratchErase: { schema: z.boolean().default(false), flags: '--scratch-erase', group: 'stages', help: 'blank every other document before indexing (a scratch stage)' },
  },
  capabilities: { runsOn: 'pipeline', at: 'index', order: 3, needsVectors: false },
  switch: 'scratchErase',
  create: () => {
    let erased = 0;
    return {
      indexDocuments: async (documents) => ({
        documents: documents.map((document, index) => {
          if (index % 2 === 0) return { ...document };
          erased++;
          return { ...document, text: '' };
        }),
        statuses: [],
      }),
      stats: () => ({ scratch_erase: { erased } }),
    };
  },
  provenance: () => 'scratch-erase',
});
`;

let scratch: ScratchPackage;
let out: string;

beforeAll(() => {
  const copy = scratchPackage({
    files: {
      'components/stages/scratch-drop/scratch-drop-stage.ts': SCRATCH_DROP,
      'components/stages/scratch-erase/scratch-erase-stage.ts': SCRATCH_ERASE,
    },
    registry: {
      path: 'components/stages/stage-registry.ts',
      prepend:
        "import { SCRATCH_DROP_STAGE } from './scratch-drop/scratch-drop-stage.js';\n" +
        "import { SCRATCH_ERASE_STAGE } from './scratch-erase/scratch-erase-stage.js';\n",
      replacements: [
        [
          'export const STAGES = {',
          "export const STAGES = {\n  'scratch-drop': SCRATCH_DROP_STAGE,\n  'scratch-erase': SCRATCH_ERASE_STAGE,",
        ],
      ],
    },
  });
  // Each stage's one registry line and its import: nothing else outside the folders changes.
  expect(copy.addedLines).toBe(4);
  scratch = copy;
  out = mkdtempSync(join(tmpdir(), 'lme-scratch-stage-'));
});

afterAll(() => {
  scratch?.remove();
  if (out) rmSync(out, { recursive: true, force: true });
});

const metricsOf = (runId: string): Record<string, number> =>
  JSON.parse(readFileSync(join(out, runId, 'summary.json'), 'utf8')).metrics.overall.metrics;

describe('a scratch stage: one folder and one registry line', () => {
  it('lists its flags in lme run --help', () => {
    const help = scratch.run(['run', '--help']);
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/--scratch-drop\s+drop\s+the\s+first\s+hits\s+of\s+the\s+pool/);
    expect(help.stdout).toMatch(/--scratch-drop-count <n>\s+hits\s+--scratch-drop\s+drops/);
  });

  it('warns where its flags do nothing, and the dry run lists it at its declared place, not its registry line', () => {
    const off = scratch.run(['run', '-d', 'sample', '--scratch-drop-count', '3', '--dry-run']);
    expect(off.stderr).toContain('--scratch-drop-count has no effect without --scratch-drop.');
    const on = scratch.run(['run', '-d', 'sample', '--scratch-drop', '--multi-signal', '--dry-run']);
    expect(on.stdout).toContain('stages after retrieval: multi-signal re-rank, scratch-drop (2)');
  }, 240_000);

  it('runs in its declared order, is recorded in config.json and explain.jsonl, and changes the figures', () => {
    for (const [runId, flags] of [
      ['plain', []],
      ['dropped', ['--scratch-drop', '--multi-signal']],
    ] as const) {
      const result = scratch.run([
        ...['run', '-d', 'sample', '--limit', '6', '--retriever', 'bm25', '--explain', ...flags],
        ...['--out', out, '--run-id', runId],
      ]);
      expect(result.stderr).not.toMatch(/error|no effect/i);
      expect(result.status).toBe(0);
    }
    const stored = JSON.parse(readFileSync(join(out, 'dropped', 'config.json'), 'utf8'));
    expect(stored.config).toMatchObject({ scratchDrop: true, scratchDropCount: 2 });
    const explained = JSON.parse(readFileSync(join(out, 'dropped', 'explain.jsonl'), 'utf8').split('\n')[0]!);
    expect(explained.stages).toEqual(['multi_signal', 'scratch_drop']);
    expect(explained.weights.scratch_drop).toEqual({ count: 2 });
    expect(metricsOf('dropped')['session.recall_any@1']).toBeLessThan(
      metricsOf('plain')['session.recall_any@1']!,
    );
  }, 480_000);

  it('acts at index time through its hook: recorded in config.json, counted, and the figures change', () => {
    const result = scratch.run([
      ...['run', '-d', 'sample', '--limit', '6', '--retriever', 'bm25', '--scratch-erase'],
      ...['--out', out, '--run-id', 'erased'],
    ]);
    expect(result.stderr).not.toMatch(/error|no effect/i);
    expect(result.status).toBe(0);
    const stored = JSON.parse(readFileSync(join(out, 'erased', 'config.json'), 'utf8'));
    expect(stored.config).toMatchObject({ scratchErase: true });
    expect(stored.provider_stats.scratch_erase.erased).toBeGreaterThan(0);
    expect(metricsOf('erased')['session.recall_any@5']).toBeLessThan(
      metricsOf('plain')['session.recall_any@5']!,
    );
    const elsewhere = scratch.run([
      ...['run', '-d', 'sample', '--provider', 'http', '--provider-url', 'http://127.0.0.1:9'],
      ...['--scratch-erase', '--dry-run'],
    ]);
    expect(elsewhere.stderr).toContain('--scratch-erase has no effect without --provider pipeline.');
  }, 240_000);
});
