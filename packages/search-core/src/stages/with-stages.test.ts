import { describe, expect, it } from 'vitest';
import type { MemoryDocument, RetrievalHit, Retriever } from '../core/retriever.js';
import { createBm25Retriever } from '../lexical/bm25-retriever.js';
import { wordsTokenizer } from '../lexical/tokenizer.js';
import { createDenseScorer } from '../retrievers/dense-scorer.js';
import { createHashingEmbedder } from '../testing/hashing-embedder.js';
import { createMemoryVectorIndex } from '../vector-index/memory-vector-index.js';
import { dedupStage } from './dedup-stage.js';
import { mmrStage } from './mmr-stage.js';
import { multiSignalStage } from './multi-signal-stage.js';
import { withStages } from './with-stages.js';

const hashingEmbedder = createHashingEmbedder();

const dense = () =>
  createDenseScorer({
    embedder: hashingEmbedder,
    createIndex: ({ dimensions }) => createMemoryVectorIndex({ dimensions }),
  });

const documents: MemoryDocument[] = [
  {
    id: 'a1',
    text: 'I adopted a beagle puppy named Max',
    sessionId: 'a',
    date: '2023/05/01 (Mon) 10:00',
    turnIndex: 0,
  },
  {
    id: 'a2',
    text: 'I adopted a beagle puppy named Max',
    sessionId: 'a',
    date: '2023/05/01 (Mon) 10:00',
    turnIndex: 2,
  },
  {
    id: 'b1',
    text: 'my beagle Max loves the park near Lisbon',
    sessionId: 'b',
    date: '2023/05/20 (Sat) 09:00',
    turnIndex: 0,
  },
  {
    id: 'c1',
    text: 'the puppy chewed my shoes',
    sessionId: 'c',
    date: '2022/01/03 (Mon) 09:00',
    turnIndex: 0,
  },
  {
    id: 'd1',
    text: 'a recipe for lentil soup',
    sessionId: 'd',
    date: '2023/05/25 (Thu) 09:00',
    turnIndex: 0,
  },
];
const search = {
  query: 'beagle puppy Max',
  queryDate: '2023/05/30 (Tue) 12:00',
  limit: Number.POSITIVE_INFINITY,
};

async function ranked(options: Partial<Parameters<typeof withStages>[1]> = {}) {
  const base = createBm25Retriever({ tokenizer: wordsTokenizer });
  const retriever = withStages(base, {
    finalK: 3,
    dense: dense(),
    indexDense: true,
    namespace: 'q',
    ...options,
  });
  await retriever.index({ documents });
  return retriever.searchStaged(search);
}

describe('withStages', () => {
  it('returns the base ranking unchanged when no stage is on', async () => {
    const base = createBm25Retriever({ tokenizer: wordsTokenizer });
    await base.index({ documents });
    const result = await ranked();
    expect(result.hits).toEqual(await base.search(search));
    expect(result.trace.stages).toEqual([]);
    // Only the base retrieval is timed: no stage ran.
    expect(Object.keys(result.trace.timings)).toEqual(['retrieve']);
  });

  it('merges near-duplicates into the better hit and records the merge', async () => {
    const { hits, trace } = await ranked({ stages: [dedupStage()] });
    expect(hits.map((hit) => hit.id)).toEqual(['a1', 'b1', 'c1', 'd1']);
    expect((hits[0] as RetrievalHit & { mergedIds?: string[] }).mergedIds).toEqual(['a2']);
    expect(trace.merges).toEqual([{ kept: 'a1', removed: ['a2'], similarity: expect.closeTo(1, 6) }]);
    expect(trace.stages).toEqual(['dedup']);
  });

  it('lets MMR skip the duplicate of a selected hit and record its decisions', async () => {
    const without = await ranked();
    expect(without.hits.slice(0, 2).map((hit) => hit.id)).toEqual(['a1', 'a2']);
    const { hits, trace } = await ranked({ stages: [mmrStage()] });
    expect(hits.map((hit) => hit.id).slice(0, 3)).toEqual(['a1', 'b1', 'c1']);
    expect(hits.findIndex((hit) => hit.id === 'a2')).toBeGreaterThanOrEqual(3);
    const a2 = trace.mmr!.find((decision) => decision.id === 'a2')!;
    expect(a2).toMatchObject({ skippedAsDuplicateOf: 'a1', document: 1 });
    expect(a2.selectedAt).toBeUndefined();
    expect(hits[0]!.routes['mmr']).toEqual({ score: expect.any(Number), rank: 1 });
  });

  it('adds the signals of the multi-signal re-rank and the weights of the query class', async () => {
    const { hits, trace } = await ranked({ stages: [multiSignalStage()] });
    for (const hit of hits.slice(0, 5))
      for (const name of [
        'signal_semantic',
        'signal_entity',
        'signal_temporal',
        'signal_recency',
        'multi_signal',
      ])
        expect(hit.routes[name], `${hit.id} ${name}`).toBeDefined();
    expect(trace.understanding?.queryClass).toBe('factual');
    expect(trace.signalWeights).toEqual({ semantic: 0.7, entity: 0.15, temporal: 0.1, recency: 0.05 });
    // c1 names no entity of the question and is old: it falls below b1.
    expect(hits.findIndex((hit) => hit.id === 'b1')).toBeLessThan(hits.findIndex((hit) => hit.id === 'c1'));
  });

  it('applies the stages in the order given, each on the pool the one before returned', async () => {
    const { trace, hits } = await ranked({ stages: [dedupStage(), multiSignalStage(), mmrStage()] });
    expect(trace.stages).toEqual(['dedup', 'multi_signal', 'mmr']);
    expect(hits.map((hit) => hit.id)).not.toContain('a2');
    const reversed = await ranked({ stages: [mmrStage(), dedupStage()] });
    expect(reversed.trace.stages).toEqual(['mmr', 'dedup']);
    expect(Object.keys(reversed.trace.timings)).toEqual(['retrieve', 'mmr', 'dedup']);
  });

  it('acts on the top max(K × 4, 32) hits only and keeps the rest in base order', async () => {
    const many: MemoryDocument[] = Array.from({ length: 50 }, (_, index) => ({
      id: `t${index}`,
      text: `note ${'word '.repeat(index % 7)}${index}`,
      sessionId: `s${index}`,
      date: '2023/05/01 (Mon) 10:00',
      turnIndex: 0,
    }));
    const scores = new Map(many.map((document, index) => [document.id, 50 - index]));
    const base: Retriever = {
      id: 'fixed',
      async index() {},
      async search() {
        return many.map((document, index) => ({
          document: index,
          id: document.id,
          sessionId: document.sessionId,
          score: scores.get(document.id)!,
          routes: {},
        }));
      },
    };
    const retriever = withStages(base, {
      finalK: 5,
      dense: dense(),
      indexDense: true,
      namespace: 'q',
      stages: [mmrStage()],
    });
    await retriever.index({ documents: many });
    const { hits, trace } = await retriever.searchStaged({ ...search, query: 'note' });
    expect(trace.basePool).toHaveLength(32);
    expect(trace.mmr).toHaveLength(32);
    expect(hits.slice(32).map((hit) => hit.id)).toEqual(many.slice(32).map((document) => document.id));
  });

  it('refuses dedup or MMR without document vectors', () => {
    const base = createBm25Retriever({ tokenizer: wordsTokenizer });
    expect(() => withStages(base, { finalK: 3, namespace: 'q', stages: [mmrStage()] })).toThrow(
      /need document vectors/,
    );
  });
});
