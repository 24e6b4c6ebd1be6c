import { join } from 'node:path';
import {
  createHashingEmbedder,
  type OpenAiWireServer,
  rerankReply,
  startRerankServer,
} from '@lme/search-core/testing';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadAnyDataset } from '../../benchmarks/load-dataset.js';
import type { LongMemEvalRecord } from '../../benchmarks/longmemeval-record.js';
import type { RunConfigInput } from '../../config/run-config.js';
import { groupConfig, parseRunConfig, parseRunSections } from '../../config/run-sections.js';
import { planRerank } from '../../run/plan/plan-rerank.js';
import { REPO_ROOT } from '../../testing/run-cli.js';
import { sampleConfig } from '../../testing/sample-run.js';
import type { RetrievalOutcome } from '../provider.js';
import { createPipelineProvider } from './pipeline-provider.js';

const KEY = 'rk-pipeline-SECRET-abcdef0123';
let records: LongMemEvalRecord[];
let server: OpenAiWireServer | undefined;

beforeAll(async () => {
  ({ records } = await loadAnyDataset(join(REPO_ROOT, 'datasets/sample/longmemeval_s_sample.json.gz'), {
    duplicateSessions: 'keep',
  }));
});
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function retrieve(
  overrides: RunConfigInput,
  environment: NodeJS.ProcessEnv = {},
): Promise<RetrievalOutcome> {
  const config = sampleConfig({ cache: false, explain: true, ...overrides });
  const provider = createPipelineProvider(
    groupConfig(config),
    { embedder: createHashingEmbedder() },
    environment,
  );
  try {
    return await provider.retrieve({ record: records.find((record) => record.question_id === '6d550036')! });
  } finally {
    await provider.close?.();
  }
}

const sessionAware = {
  retriever: 'session-aware',
  routes: 'hybrid',
  topSessions: 5,
  turnsPerSession: 3,
} as const;

describe('--reranker in the pipeline', () => {
  it('reranks a session-aware base through its hook and records the usage and explain trace', async () => {
    // The loopback service puts the last candidate first.
    server = await startRerankServer((request) => {
      const { documents } = request.body as { documents: string[] };
      return rerankReply(documents.map((_, index) => index));
    });
    const outcome = await retrieve(
      { ...sessionAware, reranker: `http:${server.baseUrl}`, rerankModel: 'm', rerankKeyEnv: 'H11_KEY' },
      { H11_KEY: KEY },
    );
    expect(server.requests[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
    expect((server.requests[0]!.body as { top_n: number }).top_n).toBe(15);
    const rerank = outcome.explain!.rerank as { candidates: number; changes: { rank_before: number }[] };
    expect(rerank.candidates).toBe(15);
    expect(rerank.changes[0]!.rank_before).toBe(15);
    expect(outcome.hits[0]!.routes.rerank_input!.rank).toBe(15);
    expect(outcome.hits).toHaveLength(10);
    expect(outcome.explain!.stages).toContain('rerank');
    expect(outcome.usage?.reranker).toMatchObject({ prompt_tokens: 42, cached: false });
    expect(JSON.stringify(outcome.explain)).not.toContain(KEY);
  });

  it('keeps the incoming order of a question whose reranker fails, and says why', async () => {
    server = await startRerankServer(() => ({ status: 500, text: 'down' }));
    const plain = await retrieve(sessionAware);
    const failed = await retrieve({ ...sessionAware, reranker: `http:${server.baseUrl}`, maxRetries: 0 });
    expect(failed.ranking.slice(0, 10)).toEqual(plain.ranking.slice(0, 10));
    expect((failed.explain!.rerank as { fallback: string }).fallback).toMatch(/failed: HTTP 500/);
  });

  it('refuses a key variable that is not set', async () => {
    await expect(
      retrieve({ ...sessionAware, reranker: 'http:http://127.0.0.1:9/v1', rerankKeyEnv: 'NOT_SET_H11' }),
    ).rejects.toThrow(/--rerank-key-env names NOT_SET_H11, which is not set/);
  });

  it('plans one listwise call per window and one pointwise call per candidate', () => {
    const record = records.find((entry) => entry.question_id === '6d550036')!;
    const listwise = planRerank(
      parseRunSections({ ...sessionAware, reranker: 'llm:gpt-4o-mini' }),
      [record],
      0.25,
    );
    expect(listwise).toMatchObject({ model: 'gpt-4o-mini', calls: 1 });
    const deep = planRerank(
      parseRunSections({ retriever: 'bm25', reranker: 'llm:m', rerankDepth: 40 }),
      [record],
      0.25,
    );
    expect(deep?.calls).toBe(3); // windows 20-40, 10-30, 0-20, as the listwise reranker slides
    const pointwise = planRerank(
      parseRunSections({ ...sessionAware, reranker: 'llm-pointwise:m' }),
      [record],
      0.25,
    );
    expect(pointwise).toMatchObject({ calls: 15, completionTokens: 15 });
    expect(
      planRerank(parseRunSections({ reranker: 'offline:session-prior' }), [record], 0.25),
    ).toBeUndefined();
  });
});

describe('--multi-source in the pipeline', () => {
  it('ranks with the three sources and writes the debug statistics to explain', async () => {
    const outcome = await retrieve({ retriever: 'multi-source', routes: 'hybrid', granularity: 'session' });
    const trace = outcome.explain!.multi_source as {
      scored: Record<string, number>;
      recent_sessions: string[];
    };
    expect(trace.recent_sessions).toHaveLength(3);
    expect(trace.scored.memory).toBe(outcome.corpus.documents.length);
    expect(Object.keys(outcome.explain!.sources as object)).toEqual(
      expect.arrayContaining(['memory', 'context']),
    );
  });

  it('cannot be combined with another base retriever', () => {
    expect(() => parseRunConfig({ multiSource: true, sessionAware: true })).toThrow(
      'Invalid configuration: --multi-source cannot be combined with --session-aware: each is a base retriever; name one with --retriever.',
    );
  });
});

describe('--reranker in the run config', () => {
  it('refuses an http: reranker URL that carries a key, before anything is written', () => {
    expect(() => parseRunConfig({ reranker: 'http:https://user:secret@rerank.example/v1' })).toThrow(
      /reranker: an http: reranker is http:<base URL> .*without credentials/,
    );
    expect(() => parseRunConfig({ reranker: 'http:https://rerank.example/v1?key=secret' })).toThrow(
      /--reranker/,
    );
    expect(parseRunConfig({ reranker: 'http:https://rerank.example/v1' }).reranker).toBe(
      'http:https://rerank.example/v1',
    );
  });
});
