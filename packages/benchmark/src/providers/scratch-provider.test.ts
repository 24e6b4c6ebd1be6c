import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ScratchPackage, scratchPackage } from '../testing/scratch-package.js';

/**
 * A new provider is one folder and one registry line. This test writes an external memory system
 * of its own (`providers/scratch-memory/`: sessions kept in memory, ranked by the query words they
 * share, or in the reverse order with `--provider-option order=reverse`) into a copy of the
 * package's src, adds its line (and import) to EXTERNAL_MEMORIES, edits nothing else, and runs the
 * real CLI on the copy: the option is listed by `lme run --help`, recorded in config.json, warned
 * about under `--provider pipeline`, and changes the run's figures.
 */

const SCRATCH_MEMORY = `import { z } from 'zod';
import type { OptionValues } from '../../components/component.js';
import { defineProviderOptions } from '../../components/provider-options.js';
import type { ExternalMemoryDescriptor } from '../external/external-memory-descriptor.js';
import type { ExternalMemory } from '../external/external-memory.js';
import type { ProtocolSession } from '../http/protocol.js';

const words = (text: string) => new Set(text.toLowerCase().match(/[a-z0-9]{3,}/g) ?? []);

export const scratchMemoryOptions = defineProviderOptions({
  order: {
    schema: z.enum(['overlap', 'reverse']).default('overlap'),
    help: 'overlap: most query words shared first; reverse: fewest first (a scratch option)',
  },
});
type ScratchMemoryOptions = OptionValues<typeof scratchMemoryOptions>;

function createScratchMemory(options: ScratchMemoryOptions): ExternalMemory {
  const stores = new Map<string, ProtocolSession[]>();
  return {
    identity: () => ({ kind: 'scratch-memory', url: 'memory://scratch' }),
    preflight: async () => {},
    reset: async (namespace) => {
      stores.delete(namespace);
    },
    ingest: async (namespace, sessions) => {
      stores.set(namespace, [...(stores.get(namespace) ?? []), ...sessions]);
      return {};
    },
    search: async ({ namespace, query, topK }) => {
      const asked = words(query);
      const sign = options.order === 'reverse' ? -1 : 1;
      const hits = (stores.get(namespace) ?? []).map((session, position) => {
        const text = words(session.turns.map((turn) => turn.content).join(' '));
        const shared = [...asked].filter((word) => text.has(word)).length;
        return { session_id: session.session_id, score: sign * shared - position * 1e-6 };
      });
      return { hits: hits.sort((a, b) => b.score - a.score).slice(0, topK) };
    },
  };
}

export const scratchMemoryDescriptor: ExternalMemoryDescriptor<typeof scratchMemoryOptions> = {
  name: 'scratch-memory',
  description: 'a scratch memory system: sessions ranked by the query words they share',
  options: scratchMemoryOptions,
  capabilities: { external: true, answersItself: false, ranks: true },
  createMemory: (options) => createScratchMemory(options),
};
`;

let scratch: ScratchPackage;
let out: string;

beforeAll(() => {
  const copy = scratchPackage({
    files: { 'providers/scratch-memory/scratch-memory-descriptor.ts': SCRATCH_MEMORY },
    registry: {
      path: 'providers/external-memory-registry.ts',
      replacements: [
        [
          "import { mempalaceDescriptor } from './mempalace/descriptor.js';\n",
          "import { mempalaceDescriptor } from './mempalace/descriptor.js';\nimport { scratchMemoryDescriptor } from './scratch-memory/scratch-memory-descriptor.js';\n",
        ],
        [
          '  letta: lettaDescriptor,\n',
          "  letta: lettaDescriptor,\n  'scratch-memory': scratchMemoryDescriptor,\n",
        ],
      ],
    },
  });
  // The one registry line and its import: nothing else outside the folder changes.
  expect(copy.addedLines).toBe(2);
  scratch = copy;
  out = mkdtempSync(join(tmpdir(), 'lme-scratch-provider-'));
});

afterAll(() => {
  scratch?.remove();
  if (out) rmSync(out, { recursive: true, force: true });
});

const RUN = ['run', '-d', 'sample', '--limit', '6', '--provider', 'scratch-memory', '--out'];

function metricsOf(runId: string): Record<string, number> {
  return JSON.parse(readFileSync(join(out, runId, 'summary.json'), 'utf8')).metrics.overall.metrics;
}

describe('a scratch provider: one folder and one registry line', () => {
  it('lists the provider and its option in lme run --help', () => {
    const help = scratch.run(['run', '--help']);
    expect(help.status).toBe(0);
    expect(help.stdout).toContain(
      'scratch-memory: a scratch memory system: sessions ranked by the query words they share [external system]',
    );
    expect(help.stdout).toContain('order=…  overlap: most query words shared first; reverse: fewest first');
  });

  it('records the option in config.json, and it changes the figures', () => {
    const plain = scratch.run([...RUN, out, '--run-id', 'overlap']);
    expect(plain.stderr).not.toMatch(/error/i);
    expect(plain.status).toBe(0);
    const reverse = scratch.run([...RUN, out, '--run-id', 'reverse', '--provider-option', 'order=reverse']);
    expect(reverse.status).toBe(0);
    const stored = JSON.parse(readFileSync(join(out, 'reverse/config.json'), 'utf8'));
    expect(stored.config).toMatchObject({
      provider: 'scratch-memory',
      providerOptions: { order: 'reverse' },
    });
    expect(stored.provider_options).toEqual({ order: 'reverse' });
    const overlap = metricsOf('overlap');
    const reversed = metricsOf('reverse');
    expect(overlap['session.recall_any@5']).toBeGreaterThan(0.5);
    expect(reversed['session.recall_any@5']).toBeLessThan(overlap['session.recall_any@5']!);
  }, 480_000);

  it('warns that the option has no effect under --provider pipeline, and refuses an unknown key of its own', () => {
    const pipeline = scratch.run([
      'run',
      '-d',
      'sample',
      '--provider',
      'pipeline',
      '--provider-option',
      'order=reverse',
      '--dry-run',
    ]);
    expect(pipeline.stderr).toContain(
      '--provider-option has no effect with --provider pipeline, which takes no options.',
    );
    const unknown = scratch.run([...RUN, out, '--provider-option', 'ordre=reverse', '--dry-run']);
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toContain(
      '--provider-option ordre=reverse: --provider scratch-memory has no option "ordre" (did you mean "order"?); its options: order.',
    );
  }, 240_000);
});
