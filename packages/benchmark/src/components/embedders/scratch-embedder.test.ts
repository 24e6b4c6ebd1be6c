import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ScratchPackage, scratchPackage } from '../../testing/scratch-package.js';

/**
 * A new embedder family is one folder and one registry line. This test writes a family of its own
 * (`components/embedders/scratch-hash/`: words hashed into a vector, no model files) with an
 * option of its own (`--scratch-hash-dims`) into a copy of the package's src, adds its line (and
 * import) to EMBEDDERS, edits nothing else, and runs the real CLI on the copy: the option is in
 * `lme run --help`, in config.json, warned about under another embedder, and changes the figures
 * of a dense run (fewer dimensions, more words sharing one). The option changes the vectors, so
 * the family puts it in `cacheIdentity`: the disk cache keeps the two apart.
 */

const SCRATCH_HASH = `import type { Embedder } from '@lme/search-core';
import { z } from 'zod';
import { defineEmbedder } from '../embedder-descriptor.js';

function hashed(text: string, dimensions: number): Float32Array {
  const vector = new Float32Array(dimensions);
  for (const word of text.toLowerCase().match(/[a-z0-9]{3,}/g) ?? []) {
    let hash = 2166136261;
    for (let index = 0; index < word.length; index++) hash = Math.imul(hash ^ word.charCodeAt(index), 16777619);
    vector[(hash >>> 0) % dimensions]! += 1;
  }
  let norm = 0;
  for (const value of vector) norm += value * value;
  return norm === 0 ? vector : vector.map((value) => value / Math.sqrt(norm));
}

export const SCRATCH_HASH_EMBEDDER = defineEmbedder({
  name: 'scratch-hash',
  description: 'words hashed into a vector (a scratch family needing no model files)',
  options: {
    scratchHashDims: {
      schema: z.number().int().min(1).max(4096).default(512),
      flags: '--scratch-hash-dims <n>',
      group: 'retrieval',
      help: 'dimensions of the scratch-hash embedder (a scratch option)',
    },
  },
  capabilities: { form: 'scratch-hash:words', modelFiles: false, threads: false, hosted: false },
  create: (model, options): Embedder | undefined =>
    model !== 'words'
      ? undefined
      : {
          id: 'scratch-hash:words',
          cacheIdentity: \`scratch-hash:words/\${options.scratchHashDims}\`,
          dimensions: options.scratchHashDims,
          embedDocuments: async ({ texts }) => texts.map((text) => hashed(text, options.scratchHashDims)),
          embedQuery: async ({ text }) => hashed(text, options.scratchHashDims),
        },
});
`;

let scratch: ScratchPackage;
let out: string;

beforeAll(() => {
  const copy = scratchPackage({
    files: { 'components/embedders/scratch-hash/scratch-hash-embedder.ts': SCRATCH_HASH },
    registry: {
      path: 'components/embedders/embedder-registry.ts',
      replacements: [
        [
          "import { OPENAI_EMBEDDER } from './openai/openai-embedder.js';\n",
          "import { OPENAI_EMBEDDER } from './openai/openai-embedder.js';\nimport { SCRATCH_HASH_EMBEDDER } from './scratch-hash/scratch-hash-embedder.js';\n",
        ],
        [
          '  openai: OPENAI_EMBEDDER,\n',
          "  openai: OPENAI_EMBEDDER,\n  'scratch-hash': SCRATCH_HASH_EMBEDDER,\n",
        ],
      ],
    },
  });
  // The one registry line and its import: nothing else outside the folder changes.
  expect(copy.addedLines).toBe(2);
  scratch = copy;
  out = mkdtempSync(join(tmpdir(), 'lme-scratch-embedder-'));
});

afterAll(() => {
  scratch?.remove();
  if (out) rmSync(out, { recursive: true, force: true });
});

const RUN = [
  'run',
  '-d',
  'sample',
  '--limit',
  '6',
  '--retriever',
  'dense',
  '--embedder',
  'scratch-hash:words',
];

function metricsOf(runId: string): Record<string, number> {
  return JSON.parse(readFileSync(join(out, runId, 'summary.json'), 'utf8')).metrics.overall.metrics;
}

describe('a scratch embedder family: one folder and one registry line', () => {
  it('lists its option in lme run --help', () => {
    const help = scratch.run(['run', '--help']);
    expect(help.status).toBe(0);
    // The help wraps at the terminal's width: words are matched across line breaks.
    expect(help.stdout).toMatch(
      /--scratch-hash-dims <n>\s+dimensions\s+of\s+the\s+scratch-hash\s+embedder\s+\(a\s+scratch\s+option\)/,
    );
  });

  it('records the option in config.json, and it changes the figures of a dense run', () => {
    for (const [runId, dims] of [
      ['wide', '512'],
      ['narrow', '2'],
    ] as const) {
      const result = scratch.run([...RUN, '--scratch-hash-dims', dims, '--out', out, '--run-id', runId]);
      expect(result.stderr).not.toMatch(/error|no effect/i);
      expect(result.status).toBe(0);
      const stored = JSON.parse(readFileSync(join(out, runId, 'config.json'), 'utf8'));
      expect(stored.config).toMatchObject({ embedder: 'scratch-hash:words', scratchHashDims: Number(dims) });
    }
    const wide = metricsOf('wide');
    const narrow = metricsOf('narrow');
    expect(wide['session.recall_any@5']).toBeGreaterThan(0.5);
    expect(narrow['session.ndcg_any@5']).not.toBe(wide['session.ndcg_any@5']);
  }, 480_000);

  it('warns that the option has no effect under another embedder', () => {
    const other = scratch.run([
      'run',
      '-d',
      'sample',
      '--retriever',
      'dense',
      '--embedder',
      'local:use-lite',
      '--scratch-hash-dims',
      '8',
      '--dry-run',
    ]);
    expect(other.stderr).toContain(
      '--scratch-hash-dims has no effect without --embedder scratch-hash:words in a pipeline that embeds.',
    );
  }, 240_000);
});
