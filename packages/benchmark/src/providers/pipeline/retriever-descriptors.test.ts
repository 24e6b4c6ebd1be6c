import { join } from 'node:path';
import { createHashingEmbedder } from '@lme/search-core/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadAnyDataset } from '../../benchmarks/load-dataset.js';
import type { LongMemEvalRecord } from '../../benchmarks/longmemeval-record.js';
import type { RetrieverCapabilities } from '../../components/retrievers/retriever-descriptor.js';
import { RETRIEVERS, type RetrieverName } from '../../components/retrievers/retriever-registry.js';
import type { RunConfig } from '../../config/run-config.js';
import { groupConfig } from '../../config/run-sections.js';
import { REPO_ROOT } from '../../testing/run-cli.js';
import { sampleConfig } from '../../testing/sample-run.js';
import { createPipelineProvider } from './pipeline-provider.js';

let records: LongMemEvalRecord[];
beforeAll(async () => {
  ({ records } = await loadAnyDataset(join(REPO_ROOT, 'datasets/sample/longmemeval_s_sample.json.gz'), {
    duplicateSessions: 'keep',
  }));
});

describe('the retriever descriptors built by the pipeline', () => {
  it('registers each descriptor under its own name', () => {
    for (const [key, descriptor] of Object.entries(RETRIEVERS)) expect(descriptor.name).toBe(key);
  });

  it('builds every key into a pipeline that ranks the haystack: turns for those that rank turns', async () => {
    const ranked: Record<string, [string, string]> = {};
    for (const name of Object.keys(RETRIEVERS) as RetrieverName[]) {
      const config = sampleConfig({ cache: false, explain: true, retriever: name, granularity: 'session' });
      const provider = createPipelineProvider(groupConfig(config), { embedder: createHashingEmbedder() }, {});
      try {
        const outcome = await provider.retrieve({ record: records[0]! });
        expect(outcome.ranking.length, name).toBeGreaterThan(0);
        const first = outcome.corpus.documents[outcome.ranking[0]!]!;
        ranked[name] = [config.granularity, first.id === first.sessionId ? 'session' : 'turn'];
      } finally {
        await provider.close?.();
      }
    }
    // A retriever that ranks turns (its capabilities) sets turn granularity and ranks turns.
    for (const name of Object.keys(RETRIEVERS) as RetrieverName[]) {
      const unit =
        (RETRIEVERS[name].capabilities as RetrieverCapabilities).ranks === 'turn' ? 'turn' : 'session';
      expect(ranked[name], name).toEqual([unit, unit]);
    }
    expect(ranked).toMatchObject({ bm25: ['session', 'session'], 'session-aware': ['turn', 'turn'] });
  });

  /** The hits of the first sample question under these settings (session granularity). */
  const hitsWith = async (retriever: RetrieverName, settings: Partial<RunConfig>, record = records[0]!) => {
    const config = sampleConfig({ cache: false, retriever, granularity: 'session', ...settings });
    const provider = createPipelineProvider(groupConfig(config), { embedder: createHashingEmbedder() }, {});
    try {
      return (await provider.retrieve({ record })).hits;
    } finally {
      await provider.close?.();
    }
  };
  const scoresOf = async (retriever: RetrieverName, settings: Partial<RunConfig>, route: string) =>
    (await hitsWith(retriever, settings)).map((hit) => hit.routes?.[route]?.score);

  it('hands --bm25-k1 and --bm25-b to the BM25 of bm25, hybrid and session-aware', async () => {
    for (const retriever of ['bm25', 'hybrid', 'session-aware'] as const) {
      const plain = await scoresOf(retriever, {}, 'bm25');
      expect(
        plain.every((score) => typeof score === 'number'),
        retriever,
      ).toBe(true);
      expect(await scoresOf(retriever, { bm25K1: 1.5, bm25B: 0.75 }, 'bm25'), retriever).toEqual(plain);
      expect(await scoresOf(retriever, { bm25B: 0 }, 'bm25'), retriever).not.toEqual(plain);
      expect(await scoresOf(retriever, { bm25K1: 0.9 }, 'bm25'), retriever).not.toEqual(plain);
    }
  });

  it('hands --bm25-feedback-docs to the BM25 of bm25 and hybrid and to session-aware stage 1', async () => {
    for (const retriever of ['bm25', 'hybrid', 'session-aware'] as const) {
      const route = retriever === 'session-aware' ? 'session_text' : 'bm25';
      const plain = await scoresOf(retriever, {}, route);
      expect(
        plain.every((score) => typeof score === 'number'),
        retriever,
      ).toBe(true);
      expect(
        await scoresOf(retriever, { bm25FeedbackDocs: 2, bm25FeedbackWeight: 0 }, route),
        retriever,
      ).toEqual(plain);
      expect(await scoresOf(retriever, { bm25FeedbackDocs: 2 }, route), retriever).not.toEqual(plain);
    }
  });

  it('with --bm25-feedback-keep the feedback documents keep their first places', async () => {
    const topSessions = async (retriever: RetrieverName, feedback: Partial<RunConfig>) => {
      const orders: string[][] = [];
      for (const record of records) {
        // session-aware: the stage-1 order, which its turn hits carry as the session rank.
        const ranked = (await hitsWith(retriever, feedback, record))
          .map((hit, position) => ({ id: hit.sessionId, rank: hit.routes?.session?.rank ?? position }))
          .sort((left, right) => left.rank - right.rank);
        orders.push([...new Set(ranked.map(({ id }) => id))].slice(0, 2));
      }
      return orders;
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
