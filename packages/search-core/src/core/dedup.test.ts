import { describe, expect, it } from 'vitest';
import { wordsTokenizer } from '../lexical/tokenizer.js';
import { sampleRecord } from '../testing/sample-records.js';
import { mergeNearDuplicates } from './dedup.js';
import type { MemoryDocument, RetrievalHit } from './retriever.js';

const vector = (...values: number[]) => Float32Array.from(values);

describe('mergeNearDuplicates', () => {
  it('keeps the best-scored hit and takes the union of routes, the better trace per route', () => {
    const hits: RetrievalHit[] = [
      { document: 0, id: 'turn-a', sessionId: 's1', score: 0.7, routes: { bm25: { score: 6, rank: 1 } } },
      {
        document: 1,
        id: 'summary-a',
        sessionId: 's1',
        score: 0.9,
        routes: { bm25: { score: 5, rank: 2 }, dense: { score: 0.8, rank: 1 } },
      },
      { document: 2, id: 'turn-b', sessionId: 's2', score: 0.5, routes: { bm25: { score: 1, rank: 9 } } },
    ];
    const vectors = [vector(1, 0, 0), vector(0.99, 0.05, 0), vector(0, 1, 0)];
    const { hits: merged, merges } = mergeNearDuplicates({ hits, vectors });
    expect(merged.map((hit) => hit.id)).toEqual(['summary-a', 'turn-b']);
    expect(merged[0]).toMatchObject({
      score: 0.9,
      mergedIds: ['turn-a'],
      routes: { bm25: { score: 6, rank: 1 }, dense: { score: 0.8, rank: 1 } },
    });
    expect(merged[1]!.mergedIds).toBeUndefined();
    expect(merges).toHaveLength(1);
    expect(merges[0]).toMatchObject({ kept: 'summary-a', removed: ['turn-a'] });
    expect(merges[0]!.similarity).toBeGreaterThan(0.99);
    // The input is left as it was.
    expect(hits[1]!.routes['bm25']).toEqual({ score: 5, rank: 2 });
  });

  it('leaves hits below the threshold apart and merges the same document twice', () => {
    const hits: RetrievalHit[] = [
      { document: 0, id: 'a', sessionId: 's', score: 1, routes: { bm25: { score: 3, rank: 1 } } },
      { document: 1, id: 'b', sessionId: 's', score: 0.9, routes: {} },
      { document: 0, id: 'a', sessionId: 's', score: 0.4, routes: { dense: { score: 0.4, rank: 7 } } },
    ];
    const vectors = [vector(1, 0), vector(0.9, Math.sqrt(0.19))]; // cosine 0.9 < 0.95
    const { hits: merged, merges } = mergeNearDuplicates({ hits, vectors });
    expect(merged.map((hit) => hit.id)).toEqual(['a', 'b']);
    expect(merged[0]!.routes).toEqual({ bm25: { score: 3, rank: 1 }, dense: { score: 0.4, rank: 7 } });
    expect(merges).toEqual([{ kept: 'a', removed: ['a'], similarity: 1 }]);
    expect(merged[0]!.mergedIds).toBeUndefined(); // the same id: nothing else absorbed
    expect(mergeNearDuplicates({ hits, vectors, threshold: 0.85 }).hits.map((hit) => hit.id)).toEqual(['a']);
  });

  it('merges a real turn retrieved from two sources (0a995998)', () => {
    const record = sampleRecord('0a995998');
    const sessionId = record.haystack_session_ids.find((id) => id.startsWith('answer'))!;
    const session = record.haystack_sessions[record.haystack_session_ids.indexOf(sessionId)]!;
    const turns: MemoryDocument[] = session.map((turn, turnIndex) => ({
      id: `${sessionId}_${turnIndex + 1}`,
      text: turn.content,
      sessionId,
      turnIndex,
    }));
    // The first turn also comes back from a second index with a one-word edit.
    const documents = [
      ...turns,
      { ...turns[0]!, id: `${turns[0]!.id}@facts`, text: `${turns[0]!.text} Thanks!` },
    ];
    const vectors = documents.map((document) => {
      const result = new Float32Array(512);
      for (const term of wordsTokenizer.tokenize(document.text)) {
        let hash = 0;
        for (const char of term) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
        result[hash % 512]! += 1;
      }
      return result;
    });
    const hits = documents.map(
      (document, index): RetrievalHit => ({
        document: index,
        id: document.id,
        sessionId,
        score: index === documents.length - 1 ? 2 : 1 / (index + 1),
        routes:
          index === documents.length - 1
            ? { facts: { score: 2, rank: 1 } }
            : { turns: { score: 1, rank: index + 1 } },
      }),
    );
    const { hits: merged, merges } = mergeNearDuplicates({ hits, vectors });
    expect(merged).toHaveLength(turns.length);
    expect(merged[0]).toMatchObject({ id: `${turns[0]!.id}@facts`, mergedIds: [turns[0]!.id] });
    expect(Object.keys(merged[0]!.routes).sort()).toEqual(['facts', 'turns']);
    expect(merges[0]!.similarity).toBeGreaterThanOrEqual(0.95);
  });
});
