import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ScratchPackage, scratchPackage } from '../../testing/scratch-package.js';

/**
 * A new retriever is one folder and one registry line. This test writes a retriever of its own
 * (`components/retrievers/scratch-rank/`: documents ranked by the query words they share, or in
 * the reverse order with its own `--scratch-order reverse`) into a copy of the package's src, adds its
 * line (and import) to RETRIEVERS, edits nothing else, and runs the real CLI on the copy: the
 * option is in `lme run --help`, warned about under another retriever, recorded in config.json,
 * and changes the run's figures.
 */

const SCRATCH_RANK = `import { z } from 'zod';
import { defineRetriever } from '../retriever-descriptor.js';

export const SCRATCH_RANK_RETRIEVER = defineRetriever({
  name: 'scratch-rank',
  description: 'documents ranked by the query words they share (a scratch retriever)',
  options: {
    scratchOrder: {
      schema: z.enum(['overlap', 'reverse']).default('overlap'),
      flags: '--scratch-order <order>',
      group: 'retrieval',
      help: 'overlap: most shared words first; reverse: fewest first (a scratch option)',
    },
  },
  capabilities: { routes: [], fusion: 'rrf', bm25Settings: false, timeBoost: false, denseNeighbours: false, refuses: [] },
  create: (options, { tokenizer }) => {
    let documents: { id: string; sessionId: string; words: Set<string> }[] = [];
    const sign = options.scratchOrder === 'reverse' ? -1 : 1;
    return {
      retriever: {
        id: \`scratch-rank:\${options.scratchOrder}\`,
        index: async ({ documents: given }) => {
          documents = given.map((document) => ({ ...document, words: new Set(tokenizer.tokenize(document.text)) }));
        },
        search: async ({ query, limit }) => {
          const asked = new Set(tokenizer.tokenize(query));
          return documents
            .map((document, position) => {
              const shared = [...asked].filter((word) => document.words.has(word)).length;
              return { document: position, id: document.id, sessionId: document.sessionId, score: sign * shared - position * 1e-6, routes: {} };
            })
            .sort((a, b) => b.score - a.score)
            .slice(0, limit);
        },
      },
    };
  },
});
`;

let scratch: ScratchPackage;
let out: string;

beforeAll(() => {
  const copy = scratchPackage({
    files: { 'components/retrievers/scratch-rank/scratch-rank-retriever.ts': SCRATCH_RANK },
    registry: {
      path: 'components/retrievers/retriever-registry.ts',
      // Its import first and its line first: whatever the registry lists already stays as it is.
      prepend: "import { SCRATCH_RANK_RETRIEVER } from './scratch-rank/scratch-rank-retriever.js';\n",
      replacements: [
        [
          'export const RETRIEVERS = {',
          "export const RETRIEVERS = {\n  'scratch-rank': SCRATCH_RANK_RETRIEVER,",
        ],
      ],
    },
  });
  // The one registry line and its import: nothing else outside the folder changes.
  expect(copy.addedLines).toBe(2);
  scratch = copy;
  out = mkdtempSync(join(tmpdir(), 'lme-scratch-retriever-'));
});

afterAll(() => {
  scratch?.remove();
  if (out) rmSync(out, { recursive: true, force: true });
});

function metricsOf(runId: string): Record<string, number> {
  return JSON.parse(readFileSync(join(out, runId, 'summary.json'), 'utf8')).metrics.overall.metrics;
}

describe('a scratch retriever: one folder and one registry line', () => {
  it('lists its option in lme run --help', () => {
    const help = scratch.run(['run', '--help']);
    expect(help.status).toBe(0);
    // The help wraps at the terminal's width: words are matched across line breaks.
    expect(help.stdout).toMatch(
      /--scratch-order <order>\s+overlap:\s+most\s+shared\s+words\s+first;\s+reverse:\s+fewest\s+first\s+\(a\s+scratch\s+option\)/,
    );
  });

  it('warns that the option has no effect under another retriever', () => {
    const other = scratch.run([
      'run',
      '-d',
      'sample',
      '--retriever',
      'bm25',
      '--scratch-order',
      'reverse',
      '--dry-run',
    ]);
    expect(other.stderr).toContain('--scratch-order has no effect without --retriever scratch-rank.');
  }, 240_000);

  it('records the option in config.json, and it changes the figures', () => {
    for (const [runId, flags] of [
      ['overlap', []],
      ['reverse', ['--scratch-order', 'reverse']],
    ] as const) {
      const result = scratch.run([
        ...['run', '-d', 'sample', '--limit', '6', '--retriever', 'scratch-rank', ...flags],
        ...['--out', out, '--run-id', runId],
      ]);
      expect(result.stderr).not.toMatch(/error|no effect/i);
      expect(result.status).toBe(0);
      const stored = JSON.parse(readFileSync(join(out, runId, 'config.json'), 'utf8'));
      expect(stored.config).toMatchObject({ retriever: 'scratch-rank', scratchOrder: runId });
    }
    const overlap = metricsOf('overlap');
    const reverse = metricsOf('reverse');
    expect(overlap['session.recall_any@5']).toBeGreaterThan(0.5);
    expect(reverse['session.recall_any@5']).toBeLessThan(overlap['session.recall_any@5']!);
  }, 480_000);
});
