import { describe, expect, it } from 'vitest';
import type { MemoryDocument, RetrievalHit } from '../core/retriever.js';
import { wordsTokenizer } from '../lexical/tokenizer.js';
import { createSessionAwareRetriever } from '../retrievers/session-aware-retriever.js';
import { withStages } from '../stages/with-stages.js';
import { createSessionPriorReranker } from './offline-reranker.js';
import { rerankHits } from './rerank-hits.js';
import type { CandidateReranker } from './reranker.js';
import { createReranker, parseRerankerId } from './reranker-registry.js';
import { createSessionTurnReranker, withReranker } from './with-reranker.js';

/** Puts the candidates in reverse order. */
const reverse: CandidateReranker = {
  id: 'test:reverse',
  async rerank({ candidates }) {
    const order = candidates.map((_, position) => candidates.length - 1 - position);
    const scores = candidates.map((_, position) => position);
    return {
      order,
      scores,
      missing: [],
      usage: { calls: 1, cachedCalls: 0, promptTokens: 7, completionTokens: 1 },
    };
  },
};

const hitsOf = (ids: string[]): RetrievalHit[] =>
  ids.map((id, document) => ({
    document,
    id,
    sessionId: `s${document % 2}`,
    score: 10 - document,
    routes: {},
  }));
const documentsOf = (ids: string[]): MemoryDocument[] =>
  ids.map((id, index) => ({ id, text: id, sessionId: `s${index % 2}` }));

describe('rerank stage', () => {
  it('reranks the top depth hits, keeps the rest below, and traces score and rank changes', async () => {
    const ids = ['a', 'b', 'c', 'd'];
    const { hits, trace } = await rerankHits({
      reranker: reverse,
      query: 'q',
      hits: hitsOf(ids),
      documents: documentsOf(ids),
      depth: 3,
    });
    expect(hits.map((hit) => hit.id)).toEqual(['c', 'b', 'a', 'd']);
    expect(trace.changes[0]).toEqual({
      id: 'c',
      rank_before: 3,
      rank_after: 1,
      score_before: 8,
      score_after: 2,
    });
    expect(hits[0]!.routes.rerank_input).toEqual({ score: 8, rank: 3 });
    expect(trace.usage.promptTokens).toBe(7);
    expect(trace.fallback).toBeUndefined();
  });

  it('keeps the incoming order when the reranker returns something that is not a permutation', async () => {
    const broken: CandidateReranker = {
      id: 'broken',
      rerank: async () => ({
        order: [0, 0],
        scores: [1, 1],
        missing: [],
        usage: { calls: 1, cachedCalls: 0, promptTokens: 0, completionTokens: 0 },
      }),
    };
    const ids = ['a', 'b'];
    const { hits, trace } = await rerankHits({
      reranker: broken,
      query: 'q',
      hits: hitsOf(ids),
      documents: documentsOf(ids),
      depth: 5,
    });
    expect(hits.map((hit) => hit.id)).toEqual(['a', 'b']);
    expect(trace.fallback).toMatch(/not a permutation of 2 candidates/);
  });

  it('propagates an abort instead of falling back', async () => {
    const controller = new AbortController();
    const aborting: CandidateReranker = {
      id: 'aborting',
      rerank: async () => {
        controller.abort(new Error('stopped'));
        throw new Error('aborted');
      },
    };
    const ids = ['a', 'b'];
    await expect(
      rerankHits({
        reranker: aborting,
        query: 'q',
        hits: hitsOf(ids),
        documents: documentsOf(ids),
        depth: 2,
        signal: controller.signal,
      }),
    ).rejects.toThrow('stopped');
  });

  it('the session-prior reranker lifts a turn of a strong session over a slightly better turn of a weak one', async () => {
    const reranker = createSessionPriorReranker({ sessionWeight: 0.5 });
    const result = await reranker.rerank({
      query: 'q',
      candidates: [
        { id: 'weak', sessionId: 'w', text: '', score: 1.0, routes: { session: { score: 0.1, rank: 2 } } },
        { id: 'strong', sessionId: 's', text: '', score: 0.9, routes: { session: { score: 0.9, rank: 1 } } },
        { id: 'low', sessionId: 's', text: '', score: 0.2, routes: { session: { score: 0.9, rank: 1 } } },
      ],
    });
    expect(result.order).toEqual([1, 0, 2]);
  });

  it('the registry lists the known kinds for an unknown id', () => {
    expect(() => parseRerankerId('cohere:x')).toThrow(
      /known: llm:<model>, llm-pointwise:<model>, http:<url>, offline:session-prior/,
    );
    expect(() => createReranker('offline:nope')).toThrow(/known: offline:session-prior/);
    expect(createReranker('offline:session-prior@0.4').id).toBe('offline:session-prior@0.4');
    expect(createReranker('http:http://127.0.0.1:1/v1', { http: { model: 'x' } }).id).toBe('http:x');
  });

  it('a session-aware base reranks its merged candidates through its hook before the final cut', async () => {
    const documents: MemoryDocument[] = [
      { id: 'a1', text: 'alpha apples', sessionId: 'A' },
      { id: 'a2', text: 'alpha pears', sessionId: 'A' },
      { id: 'b1', text: 'alpha beta', sessionId: 'B' },
    ];
    const state = {};
    const base = createSessionAwareRetriever({
      tokenizer: wordsTokenizer,
      sessionIndex: 'text',
      topSessions: 2,
      turnsPerSession: 2,
      finalTopK: 2,
      fusion: { kind: 'weighted', weights: { bm25: 1 } },
      turnReranker: createSessionTurnReranker(reverse, 10, state),
      namespace: 'n',
    });
    const retriever = withReranker(withStages(base, { finalK: 2, namespace: 'n' }), {
      reranker: reverse,
      depth: 10,
      hookState: state,
    });
    await retriever.index({ documents });
    const result = await retriever.searchStaged({ query: 'alpha apples', limit: Number.POSITIVE_INFINITY });
    expect(result.rerank?.candidates).toBe(3);
    expect(result.hits).toHaveLength(2);
    expect(result.hits[0]!.id).not.toBe('a1');
  });

  it('after any other base, reranks its final ranking', async () => {
    const ids = ['a', 'b', 'c'];
    const base = {
      id: 'fixed',
      index: async () => {},
      search: async () => hitsOf(ids),
    };
    const retriever = withReranker(withStages(base, { finalK: 2, namespace: 'n' }), {
      reranker: reverse,
      depth: 2,
    });
    await retriever.index({ documents: documentsOf(ids) });
    const result = await retriever.searchStaged({ query: 'q', limit: 3 });
    expect(result.hits.map((hit) => hit.id)).toEqual(['b', 'a', 'c']);
    expect(retriever.id).toBe('fixed+rerank(test:reverse)');
  });
});

describe('interleave reranker', () => {
  it('puts the best candidate of every session before any second best, sessions by their score', async () => {
    const candidates = [
      { id: 'a1', sessionId: 'A', text: '', score: 0.9, routes: { session: { score: 0.8, rank: 1 } } },
      { id: 'a2', sessionId: 'A', text: '', score: 0.8, routes: { session: { score: 0.8, rank: 1 } } },
      { id: 'b1', sessionId: 'B', text: '', score: 0.5, routes: { session: { score: 0.6, rank: 2 } } },
      { id: 'a3', sessionId: 'A', text: '', score: 0.4, routes: { session: { score: 0.8, rank: 1 } } },
      { id: 'b2', sessionId: 'B', text: '', score: 0.3, routes: { session: { score: 0.6, rank: 2 } } },
    ];
    const result = await createReranker('offline:interleave').rerank({ query: 'q', candidates });
    expect(result.order.map((position) => candidates[position]!.id)).toEqual(['a1', 'b1', 'a2', 'b2', 'a3']);
  });
});
