import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { createHashingEmbedder, type FakeQdrant, startFakeQdrant } from '@lme/search-core/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { LongMemEvalRecord } from '../../benchmarks/longmemeval-record.js';
import { groupConfig } from '../../config/run-sections.js';
import { runBenchmark } from '../../run/run-benchmark.js';
import { REPO_ROOT } from '../../testing/run-cli.js';
import { sampleConfig } from '../../testing/sample-run.js';
import { createPipelineProvider } from './pipeline-provider.js';
import { createVectorStore } from './vector-stores.js';

const SAMPLE = join(REPO_ROOT, 'datasets/sample/longmemeval_s_sample.json.gz');
const records = () => JSON.parse(gunzipSync(readFileSync(SAMPLE)).toString('utf8')) as LongMemEvalRecord[];
const qdrantConfig = (overrides = {}) =>
  sampleConfig({ retriever: 'hybrid', vectorStore: 'qdrant', cache: false, ...overrides }, 'lme-qdrant-');

let fake: FakeQdrant | undefined;
afterEach(async () => {
  vi.useRealTimers();
  vi.unstubAllEnvs();
  await fake?.close();
  fake = undefined;
});

describe('the qdrant vector store (against a loopback Qdrant)', () => {
  it('gives two stores started in the same second by the same pid their own collections', async () => {
    fake = await startFakeQdrant();
    // Two containers, each pid 1, started in the same second (issue 36 item 11).
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-25T09:00:00Z'));
    const config = qdrantConfig();
    const environment = { QDRANT_URL: fake.url };
    const stores = [createVectorStore(config, environment), createVectorStore(config, environment)];
    for (const store of stores) {
      const index = store.factory({ dimensions: 2, namespace: 'q1' });
      await index.upsert({ records: [{ id: 'a', vector: Float32Array.from([1, 0]), payload: {} }] });
    }
    expect(fake.collections.size).toBe(2);
    const names = [...fake.collections.keys()];
    expect(names.every((name) => /^lme-20261125090000-[0-9a-f]{12}$/.test(name))).toBe(true);
    // The first to finish drops its own collection only.
    await stores[0]!.close();
    expect(fake.collections.size).toBe(1);
    await stores[1]!.close();
  });

  it("deletes a failed question's points at once, not at the end of the run", async () => {
    fake = await startFakeQdrant({
      fail: (route) =>
        route.endsWith('/points/query')
          ? { status: 400, body: { status: { error: 'bad request' } } }
          : undefined,
    });
    const config = qdrantConfig();
    const provider = createPipelineProvider(
      groupConfig(config),
      { embedder: createHashingEmbedder({ dimensions: 32 }) },
      { QDRANT_URL: fake.url },
    );
    const record = records()[0]!;
    await expect(provider.retrieve({ record })).rejects.toThrow(/Qdrant search on collection "lme-/);
    const [collection] = [...fake.collections.values()];
    expect(collection).toBeDefined();
    expect(fake.requests).toContain(`POST /collections/${[...fake.collections.keys()][0]}/points/delete`);
    expect(collection!.points.size).toBe(0);
    await provider.close?.();
    expect(fake.collections.size).toBe(0);
  });

  it("logs a finished question's delete without waiting for Qdrant to apply it", async () => {
    fake = await startFakeQdrant();
    const provider = createPipelineProvider(
      groupConfig(qdrantConfig()),
      { embedder: createHashingEmbedder({ dimensions: 32 }) },
      { QDRANT_URL: fake.url },
    );
    await provider.retrieve({ record: records()[0]! });
    const collection = [...fake.collections.keys()][0]!;
    const writes = fake.urls.filter((url) => /\/points(\/delete)?\?/.test(url));
    // Its points were written and searched with every write applied first (wait=true); nothing
    // reads them after the question, so the delete is only logged (Qdrant applies it in order,
    // before the next question's upsert).
    expect(writes.filter((url) => url.startsWith('PUT')).every((url) => url.endsWith('?wait=true'))).toBe(
      true,
    );
    expect(writes.filter((url) => url.includes('/points/delete'))).toEqual([
      `POST /collections/${collection}/points/delete?wait=false`,
    ]);
    expect(fake.collections.get(collection)!.points.size).toBe(0);
    await provider.close?.();
  });

  it('indexes the payload keys searches filter on, and no other', async () => {
    fake = await startFakeQdrant();
    const provider = createPipelineProvider(
      groupConfig(qdrantConfig({ retriever: 'session-aware', feedbackDocs: 2, feedbackWeight: 0.3 })),
      { embedder: createHashingEmbedder({ dimensions: 32 }) },
      { QDRANT_URL: fake.url },
    );
    for (const record of records()) await provider.retrieve({ record });
    const [collection] = [...fake.collections.values()];
    expect(collection!.indexes).toEqual({
      namespace: { data_type: 'keyword' },
      session_id: { data_type: 'keyword' },
    });
    // Session-aware's second stage filters on session_id when its feedback documents differ from
    // the first stage's (otherwise both its searches are answered from the first stage's hits).
    expect(fake.bodies.some((body) => body.includes('"key":"session_id"'))).toBe(true);
    await provider.close?.();
  });

  it('keeps the outcome of a run whose collection cannot be dropped, with a warning naming it', async () => {
    fake = await startFakeQdrant({
      fail: (route) =>
        /^DELETE \/collections\/[^/]+$/.test(route)
          ? { status: 500, body: { status: { error: 'Service internal error: disk full' } } }
          : route.endsWith('/points/query')
            ? { status: 400, body: { status: { error: 'bad request' } } }
            : undefined,
    });
    vi.stubEnv('QDRANT_URL', fake.url);
    const warnings: string[] = [];
    const config = qdrantConfig({ limit: 2, runId: 'drop-fails' });
    const result = await runBenchmark(config, {
      argv: [],
      resources: { embedder: createHashingEmbedder({ dimensions: 32 }) },
      hooks: { onWarning: (message) => warnings.push(message) },
    });
    // Every question failed (exit 2 with the table and the resume hint), and the drop failed too.
    expect(result.summary.errors).toBe(2);
    expect(warnings.join('\n')).toMatch(
      /closing the provider failed after the run \(its results stand\): Qdrant drop collection on collection "lme-[^"]+" at http:\/\/127\.0\.0\.1:\d+ failed: .*HTTP 500.*disk full.*lme qdrant collections --remove/,
    );
  });
});
