import { join } from 'node:path';
import { createHashingEmbedder } from '@lme/search-core/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadAnyDataset } from '../../benchmarks/load-dataset.js';
import type { LongMemEvalRecord } from '../../benchmarks/longmemeval-record.js';
import { BASE_RETRIEVERS, type BaseRetrieverName } from '../../config/base-retrievers.js';
import type { RunConfig } from '../../config/run-config.js';
import { REPO_ROOT } from '../../testing/run-cli.js';
import { sampleConfig } from '../../testing/sample-run.js';
import { BASE_RETRIEVER_FACTORIES } from './base-retriever-factories.js';
import { createPipelineProvider } from './pipeline-provider.js';

let records: LongMemEvalRecord[];
beforeAll(async () => {
  ({ records } = await loadAnyDataset(join(REPO_ROOT, 'datasets/sample/longmemeval_s_sample.json.gz'), {
    duplicateSessions: 'keep',
  }));
});

describe('BASE_RETRIEVER_FACTORIES', () => {
  it('has one factory per declared base retriever', () => {
    expect(Object.keys(BASE_RETRIEVER_FACTORIES)).toEqual(Object.keys(BASE_RETRIEVERS));
  });

  it('builds every key into a pipeline that ranks the haystack: turns for those that rank turns', async () => {
    const ranked: Record<string, [string, string]> = {};
    for (const name of Object.keys(BASE_RETRIEVERS) as BaseRetrieverName[]) {
      const config = sampleConfig({ cache: false, explain: true, retriever: name, granularity: 'session' });
      const provider = createPipelineProvider(config, { embedder: createHashingEmbedder() }, {});
      try {
        const outcome = await provider.retrieve({ record: records[0]! });
        expect(outcome.ranking.length, name).toBeGreaterThan(0);
        const first = outcome.corpus.documents[outcome.ranking[0]!]!;
        ranked[name] = [config.granularity, first.id === first.sessionId ? 'session' : 'turn'];
      } finally {
        await provider.close?.();
      }
    }
    expect(ranked).toEqual({
      bm25: ['session', 'session'],
      dense: ['session', 'session'],
      hybrid: ['session', 'session'],
      'session-aware': ['turn', 'turn'],
      'multi-route': ['turn', 'turn'],
      'multi-source': ['session', 'session'],
    });
  });

  it('hands --bm25-k1 and --bm25-b to the BM25 of bm25, hybrid and session-aware', async () => {
    const bm25Scores = async (retriever: BaseRetrieverName, bm25: { bm25K1?: number; bm25B?: number }) => {
      const config = sampleConfig({ cache: false, retriever, granularity: 'session', ...bm25 });
      const provider = createPipelineProvider(config, { embedder: createHashingEmbedder() }, {});
      try {
        const { hits } = await provider.retrieve({ record: records[0]! });
        return hits.slice(0, 5).map((hit) => hit.routes?.bm25?.score);
      } finally {
        await provider.close?.();
      }
    };
    for (const retriever of ['bm25', 'hybrid', 'session-aware'] as const) {
      const plain = await bm25Scores(retriever, {});
      expect(
        plain.every((score) => typeof score === 'number'),
        retriever,
      ).toBe(true);
      expect(await bm25Scores(retriever, { bm25K1: 1.5, bm25B: 0.75 }), retriever).toEqual(plain);
      expect(await bm25Scores(retriever, { bm25B: 0 }), retriever).not.toEqual(plain);
      expect(await bm25Scores(retriever, { bm25K1: 0.9 }), retriever).not.toEqual(plain);
    }
  });

  it('hands --bm25-feedback-docs to the BM25 of bm25 and hybrid and to session-aware stage 1', async () => {
    const bm25Scores = async (retriever: BaseRetrieverName, feedback: Partial<RunConfig>) => {
      const config = sampleConfig({ cache: false, retriever, granularity: 'session', ...feedback });
      const provider = createPipelineProvider(config, { embedder: createHashingEmbedder() }, {});
      try {
        const { hits } = await provider.retrieve({ record: records[0]! });
        const route = retriever === 'session-aware' ? 'session_text' : 'bm25';
        return hits.map((hit) => hit.routes?.[route]?.score);
      } finally {
        await provider.close?.();
      }
    };
    for (const retriever of ['bm25', 'hybrid', 'session-aware'] as const) {
      const plain = await bm25Scores(retriever, {});
      expect(
        plain.every((score) => typeof score === 'number'),
        retriever,
      ).toBe(true);
      expect(await bm25Scores(retriever, { bm25FeedbackDocs: 2, bm25FeedbackWeight: 0 }), retriever).toEqual(
        plain,
      );
      expect(await bm25Scores(retriever, { bm25FeedbackDocs: 2 }), retriever).not.toEqual(plain);
    }
  });

  it('with --bm25-feedback-keep the feedback documents keep their first places', async () => {
    const topSessions = async (retriever: BaseRetrieverName, feedback: Partial<RunConfig>) => {
      const config = sampleConfig({ cache: false, retriever, granularity: 'session', ...feedback });
      const provider = createPipelineProvider(config, { embedder: createHashingEmbedder() }, {});
      try {
        const orders: string[][] = [];
        for (const record of records) {
          const { hits } = await provider.retrieve({ record });
          // session-aware: the stage-1 order, which its turn hits carry as the session rank.
          const ranked = hits
            .map((hit, position) => ({ id: hit.sessionId, rank: hit.routes?.session?.rank ?? position }))
            .sort((left, right) => left.rank - right.rank);
          orders.push([...new Set(ranked.map(({ id }) => id))].slice(0, 2));
        }
        return orders;
      } finally {
        await provider.close?.();
      }
    };
    for (const retriever of ['hybrid', 'session-aware'] as const) {
      const plain = await topSessions(retriever, {});
      const moved = await topSessions(retriever, { bm25FeedbackDocs: 2, bm25FeedbackWeight: 3 });
      expect(moved, retriever).not.toEqual(plain);
      expect(
        await topSessions(retriever, { bm25FeedbackDocs: 2, bm25FeedbackWeight: 3, bm25FeedbackKeep: true }),
        retriever,
      ).toEqual(plain);
    }
  });
});
