import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sampleRecords } from '@lme/search-core/testing';
import { describe, expect, it } from 'vitest';
import { groupConfig } from '../../config/run-sections.js';
import { sampleConfig } from '../../testing/sample-run.js';
import { bridgesDir } from '../bridges/bridge-catalog.js';
import type { BridgeMemory } from '../bridges/bridge-memory.js';
import { readInstalledBridge } from '../bridges/install-bridge.js';
import { createPipelineProvider } from '../pipeline/pipeline-provider.js';
import { parseProviderOptions } from '../provider-registry.js';
import { mempalaceDescriptor } from './descriptor.js';

// The MemPalace bridge's benchmark modes (`--provider-option mode=raw|hybrid`) against lme's
// `--retriever session-document` on one real sample haystack: the same sessions in the same order.
// Both embed with the fp32 MiniLM the bridge install fetched. Skipped, saying why, without the bridge.
const missing = await readInstalledBridge(bridgesDir(), 'mempalace').then(
  () => undefined,
  (error: Error) => error.message,
);
const record = sampleRecords()[0]!;

async function bridgeRanking(mode: 'raw' | 'hybrid'): Promise<string[]> {
  const workDir = await mkdtemp(join(tmpdir(), 'lme-mempalace-modes-'));
  const memory = mempalaceDescriptor.createMemory(parseProviderOptions(mempalaceDescriptor, { mode }), {
    environment: { ...process.env, MEMPALACE_EMBEDDING_THREADS: '1' },
    timeoutMs: 600_000,
    maxRetries: 0,
    workDir,
  }) as BridgeMemory;
  try {
    await memory.reset('q');
    await memory.ingest(
      'q',
      record.haystack_sessions.map((turns, index) => ({
        session_id: record.haystack_session_ids[index]!,
        date: record.haystack_dates[index]!,
        turns: turns.map((turn, turnIndex) => ({
          role: turn.role,
          content: turn.content,
          turn_index: turnIndex,
        })),
      })),
    );
    const search = () =>
      memory.search({ namespace: 'q', query: record.question, topK: 50, granularity: 'session' });
    const ranking = (await search()).hits.map((hit) => hit.session_id);
    // A reset drops the namespace's collection: nothing is left to rank.
    await memory.reset('q');
    expect((await search()).hits).toEqual([]);
    return ranking;
  } finally {
    await memory.close?.();
    await rm(workDir, { recursive: true, force: true });
  }
}

async function lmeRanking(mode: 'raw' | 'hybrid'): Promise<string[]> {
  const config = sampleConfig({
    cache: false,
    retriever: 'session-document',
    granularity: 'session',
    embedder: 'hf:Xenova/all-MiniLM-L6-v2@fp32',
    modelDir: join(bridgesDir(), 'models'),
    ...(mode === 'hybrid' ? { sessionDocumentBoost: 'keyword-overlap' as const } : {}),
  });
  const provider = createPipelineProvider(groupConfig(config));
  try {
    return (await provider.retrieve({ record })).hits.map((hit) => hit.sessionId);
  } finally {
    await provider.close?.();
  }
}

describe.skipIf(missing !== undefined)(
  missing ? `MemPalace bridge benchmark modes (skipped: ${missing})` : 'MemPalace bridge benchmark modes',
  () => {
    for (const mode of ['raw', 'hybrid'] as const) {
      it(`ranks a sample haystack as lme's session-document retriever does (${mode})`, async () => {
        const bridge = await bridgeRanking(mode);
        expect(bridge.length).toBeGreaterThan(40);
        expect(bridge).toEqual(await lmeRanking(mode));
      }, 900_000);
    }
  },
);
