import { join } from 'node:path';
import { createHashingEmbedder } from '@lme/search-core/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadAnyDataset } from '../../benchmarks/load-dataset.js';
import type { LongMemEvalRecord } from '../../benchmarks/longmemeval-record.js';
import { groupConfig } from '../../config/run-sections.js';
import { REPO_ROOT } from '../../testing/run-cli.js';
import { sampleConfig } from '../../testing/sample-run.js';
import { type GoldItem, missCause } from './gold-trace.js';
import { createPipelineProvider } from './pipeline-provider.js';

describe('missCause', () => {
  const bm25 = (rank: number, score = 1) => ({ bm25: { score, rank } });
  it('names a hit in the top k', () => {
    expect(missCause({ rank: 3, routes: bm25(3) }, 5)).toEqual({
      kind: 'hit',
      text: 'in the top 5 (rank 3)',
    });
  });
  it('names a lexical miss, with its rank and score, when BM25 alone ranked it below k', () => {
    expect(missCause({ rank: 36, routes: bm25(36, 0) }, 5)).toEqual({
      kind: 'lexical_miss',
      text: 'lexical miss: bm25 rank 36, score 0; final rank 36',
    });
  });
  it('names a dense miss for a dense-only route', () => {
    expect(missCause({ rank: 9, routes: { dense: { score: 0.2, rank: 9 } } }, 5).kind).toBe('dense_miss');
  });
  it('names a miss by every route when neither BM25 nor dense had it within k', () => {
    const cause = missCause(
      { rank: 20, routes: { bm25: { score: 0, rank: 30 }, dense: { score: 0.1, rank: 12 } } },
      5,
    );
    expect(cause.kind).toBe('all_routes_miss');
    expect(cause.text).toContain('bm25 rank 30');
    expect(cause.text).toContain('dense rank 12');
  });
  it('names a fusion loss when one route had it within k and the fused ranking did not', () => {
    const cause = missCause(
      {
        rank: 11,
        base_rank: 11,
        routes: {
          bm25: { score: 0, rank: 40 },
          dense: { score: 0.8, rank: 2 },
          rrf: { score: 0.02, rank: 11 },
        },
      },
      5,
    );
    expect(cause).toEqual({
      kind: 'fusion_loss',
      text: 'fusion loss: dense rank 2, score 0.8, but final rank 11',
    });
  });
  it('names a stage loss when the base pool had it within k and a stage pushed it out', () => {
    const cause = missCause(
      { rank: 8, base_rank: 2, routes: { bm25: { score: 5, rank: 2 }, dense: { score: 0.5, rank: 3 } } },
      5,
    );
    expect(cause.kind).toBe('stage_loss');
    expect(cause.text).toMatch(/^stage loss: base rank 2, final rank 8/);
  });
  it('says not retrieved when nothing ranked it', () => {
    expect(missCause({ rank: null, routes: {} }, 5)).toEqual({
      kind: 'not_retrieved',
      text: 'not retrieved',
    });
  });
});

describe('the explain trace of a question', () => {
  let record: LongMemEvalRecord;
  beforeAll(async () => {
    const { records } = await loadAnyDataset(join(REPO_ROOT, 'datasets/sample/longmemeval_s_sample.json.gz'));
    record = records.find((candidate) => candidate.question_id === '6d550036')!;
  });

  it('carries the question and ranks every gold session and turn, with route scores and a cause', async () => {
    const provider = createPipelineProvider(
      groupConfig(sampleConfig({ cache: false, retriever: 'hybrid', granularity: 'turn', explain: true })),
      { embedder: createHashingEmbedder() },
    );
    const outcome = await provider.retrieve({ record });
    await provider.close?.();
    const explain = outcome.explain as {
      question: string;
      question_date: string;
      answer: string;
      gold: { k: number; sessions: GoldItem[]; turns: GoldItem[] };
      hits: { id: string; session_id: string; gold?: string }[];
    };
    expect(explain.question).toBe(record.question);
    expect(explain.question_date).toBe(record.question_date);
    expect(explain.answer).toBe('2');
    // The official gold: the four answer sessions' user evidence turns.
    expect(explain.gold.sessions.map((item) => item.session_id).sort()).toEqual(
      [...record.answer_session_ids].sort(),
    );
    expect(explain.gold.turns.length).toBeGreaterThanOrEqual(4);
    for (const turn of explain.gold.turns) {
      const position = outcome.ranking.findIndex(
        (document) => outcome.corpus.officialIds[document] === turn.id,
      );
      expect(turn.rank).toBe(position + 1);
      expect(Object.keys(turn.routes)).toEqual(expect.arrayContaining(['bm25', 'dense']));
      expect(turn.cause.kind === 'hit').toBe(turn.rank! <= 5);
    }
    // At turn granularity the official session metric sees a session through its evidence turns
    // (its other turns are graded under a noans_ id), so a gold session ranks where its best one does.
    for (const session of explain.gold.sessions) {
      const best = Math.min(
        ...explain.gold.turns
          .filter((turn) => turn.session_id === session.session_id)
          .map((turn) => turn.rank ?? Infinity),
      );
      expect(session.rank).toBe(best);
    }
    const marked = explain.hits.filter((hit) => hit.gold !== undefined);
    expect(marked.length).toBeGreaterThan(0);
    for (const hit of explain.hits) {
      expect(hit.gold !== undefined).toBe(record.answer_session_ids.includes(hit.session_id));
    }
    expect(marked.some((hit) => hit.gold === 'turn')).toBe(
      explain.gold.turns.some((turn) => turn.rank !== null && turn.rank <= explain.hits.length),
    );
  });
});
