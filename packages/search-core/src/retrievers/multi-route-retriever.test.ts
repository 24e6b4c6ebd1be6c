import { describe, expect, it } from 'vitest';
import type { MemoryDocument } from '../core/retriever.js';
import { wordsTokenizer } from '../lexical/tokenizer.js';
import { createMultiRouteRetriever } from './multi-route-retriever.js';

const turn = (sessionId: string, turnIndex: number, text: string): MemoryDocument => ({
  id: `${sessionId}_${turnIndex + 1}`,
  text,
  sessionId,
  date: '2023/05/01 (Mon) 10:00',
  turnIndex,
  role: 'user',
});

// Session s2 talks about the marathon across turns; no single turn says it all. s1 names it once.
const documents: MemoryDocument[] = [
  turn('s1', 0, 'I ran a marathon once'),
  turn('s1', 2, 'what is a good pasta recipe'),
  turn('s2', 0, 'training plan for the city marathon'),
  turn('s2', 2, 'my marathon pace is slow'),
  turn('s2', 4, 'marathon shoes advice please'),
  turn('s3', 0, 'how do I repot a cactus'),
];
const search = { query: 'marathon pace', limit: Number.POSITIVE_INFINITY };

describe('createMultiRouteRetriever', () => {
  it('returns only turns, in RRF order, with the routes that ranked them', async () => {
    const retriever = createMultiRouteRetriever({ tokenizer: wordsTokenizer, finalK: 5, namespace: 'q' });
    await retriever.index({ documents });
    const result = await retriever.searchSessions(search);
    expect(result.hits.every((hit) => hit.document < documents.length)).toBe(true);
    expect(result.hits[0]!.id).toBe('s2_3');
    expect(Object.keys(result.hits[0]!.routes).sort()).toEqual(['rrf', 'turn_bm25']);
    // The pool holds session documents too (index ≥ the turns), ranked by session-text BM25.
    const sessionHits = result.fused.filter((hit) => hit.document >= documents.length);
    expect(sessionHits.map((hit) => hit.id)).toEqual(['s2', 's1', 's3']);
    expect(sessionHits[0]!.routes['session_bm25']!.rank).toBe(1);
    expect(result.pools).toEqual({ route: 64, fused: 32, candidates: 9 });
    // Sessions in order of first appearance in the fused pool.
    expect(result.sessionOrder[0]).toBe('s2');
    expect(await retriever.search({ ...search, limit: 2 })).toEqual(result.hits.slice(0, 2));
  });

  it('ranks sessions session-first and puts the session score on each turn', async () => {
    const retriever = createMultiRouteRetriever({
      tokenizer: wordsTokenizer,
      finalK: 5,
      sessionFirst: true,
      namespace: 'q',
    });
    await retriever.index({ documents });
    const { hits, sessionOrder } = await retriever.searchSessions(search);
    expect(sessionOrder.slice(0, 2)).toEqual(['s2', 's1']);
    const top = hits.find((hit) => hit.sessionId === 's2')!;
    expect(top.routes['session_first']!.rank).toBe(1);
  });
});
