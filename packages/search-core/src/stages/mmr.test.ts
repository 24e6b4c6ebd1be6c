import { describe, expect, it } from 'vitest';
import type { MemoryDocument, RetrievalHit } from '../core/retriever.js';
import { cosineSimilarity } from '../core/vector-math.js';
import { createBm25Index } from '../lexical/bm25-index.js';
import { wordsTokenizer } from '../lexical/tokenizer.js';
import { sampleRecord } from '../testing/sample-records.js';
import { jaccard, selectMmr } from './mmr.js';

const hit = (document: number, score: number): RetrievalHit => ({
  document,
  id: `d${document}`,
  sessionId: `s${document}`,
  score,
  routes: { fused: { score, rank: document + 1 } },
});
const vector = (...values: number[]) => Float32Array.from(values);

describe('selectMmr on hand-made vectors', () => {
  it('skips a near-duplicate of a selected hit', () => {
    const hits = [hit(0, 1), hit(1, 0.9), hit(2, 0.5), hit(3, 0)];
    const vectors = [vector(1, 0, 0), vector(0.99, 0.01, 0), vector(0, 1, 0), vector(0, 0, 1)];
    const { hits: ordered, decisions } = selectMmr({ hits, vectors, k: 2 });
    expect(ordered.slice(0, 2).map((selected) => selected.id)).toEqual(['d0', 'd2']);
    expect(decisions[1]).toMatchObject({ id: 'd1', skippedAsDuplicateOf: 'd0' });
    expect(decisions[1]!.selectedAt).toBeUndefined();
    expect(decisions[1]!.redundancy).toBeGreaterThanOrEqual(0.94);
    // The rest follow in input order; the trace says who was selected where.
    expect(ordered.map((selected) => selected.id)).toEqual(['d0', 'd2', 'd1', 'd3']);
    expect(ordered.map((selected) => selected.routes['mmr']!.rank)).toEqual([1, 2, 0, 0]);
    expect(ordered[0]!.routes['fused']).toEqual({ score: 1, rank: 1 });
  });

  it('prefers a diverse hit to a similar (not duplicate) one with a higher score', () => {
    const hits = [hit(0, 1), hit(1, 0.9), hit(2, 0.8), hit(3, 0)];
    const similar = vector(0.9, Math.sqrt(1 - 0.81), 0); // cosine 0.9 with d0: below the duplicate line
    const vectors = [vector(1, 0, 0), similar, vector(0, 0, 1), vector(0, 1, 0)];
    const { hits: ordered, decisions } = selectMmr({ hits, vectors, k: 3 });
    expect(ordered.slice(0, 3).map((selected) => selected.id)).toEqual(['d0', 'd2', 'd1']);
    // d2: 0.78 × 0.8 − 0.22 × 0 = 0.624 beats d1: 0.78 × 0.9 − 0.22 × 0.9 = 0.504.
    expect(decisions[2]).toMatchObject({ selectedAt: 2, relevance: 0.8 });
    expect(decisions[2]!.mmrScore).toBeCloseTo(0.624, 6);
    expect(decisions[1]!.redundancy).toBeCloseTo(0.9, 6);
    expect(decisions[1]!.mmrScore).toBeCloseTo(0.504, 6);
    expect(decisions[1]!.skippedAsDuplicateOf).toBeUndefined();
  });

  it('follows pure relevance with lambda = 1', () => {
    const hits = [hit(0, 0.2), hit(1, 0.9), hit(2, 0.5), hit(3, 0.7)];
    const vectors = [vector(1, 0), vector(0.8, 0.6), vector(0.6, 0.8), vector(0.7, 0.7)];
    const { hits: ordered } = selectMmr({ hits, vectors, k: 4, lambda: 1, duplicateThreshold: 1.01 });
    expect(ordered.map((selected) => selected.id)).toEqual(['d1', 'd3', 'd2', 'd0']);
  });

  it('counts shared tags as redundancy (0.35 × Jaccard)', () => {
    const hits = [hit(0, 1), hit(1, 0.95), hit(2, 0.9), hit(3, 0)];
    const vectors = [vector(1, 0, 0, 0), vector(0, 1, 0, 0), vector(0, 0, 1, 0), vector(0, 0, 0, 1)];
    const tags = (document: number) => (document <= 1 ? ['session-a'] : ['session-b']);
    const { hits: ordered, decisions } = selectMmr({ hits, vectors, k: 3, tags });
    expect(ordered.slice(0, 3).map((selected) => selected.id)).toEqual(['d0', 'd2', 'd1']);
    expect(decisions[1]!.redundancy).toBeCloseTo(0.35, 6);
  });

  it('ranks by the query vector when the hits carry no scores', () => {
    const hits = [hit(0, 1), hit(1, 1), hit(2, 1)];
    const vectors = [vector(0, 1), vector(1, 0), vector(0.6, 0.8)];
    const { hits: ordered } = selectMmr({ hits, vectors, k: 1, queryVector: vector(1, 0) });
    expect(ordered[0]!.id).toBe('d1');
  });

  it('computes cosine and Jaccard', () => {
    expect(cosineSimilarity(vector(1, 1), vector(2, 2))).toBeCloseTo(1, 6);
    expect(cosineSimilarity(vector(0, 0), vector(1, 0))).toBe(0);
    expect(cosineSimilarity(undefined, vector(1, 0))).toBe(0);
    expect(jaccard(['a', 'b'], ['b', 'c'])).toBeCloseTo(1 / 3, 10);
    expect(jaccard([], [])).toBe(0);
  });
});

/** A deterministic stand-in embedder: hashed bag of stems, normalised (no model needed). */
function hashedVector(text: string): Float32Array {
  const result = new Float32Array(256);
  for (const term of wordsTokenizer.tokenize(text)) {
    let hash = 0;
    for (const char of term) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
    result[hash % 256]! += 1;
  }
  return result;
}

describe('selectMmr on a real haystack (0a995998)', () => {
  it('keeps one copy of a memory indexed twice and fills the selection with distinct turns', () => {
    const record = sampleRecord('0a995998');
    const turns: MemoryDocument[] = record.haystack_sessions.flatMap((session, index) =>
      session.flatMap((turn, turnIndex) =>
        turn.role === 'user'
          ? [
              {
                id: `${record.haystack_session_ids[index]}_${turnIndex + 1}`,
                text: turn.content,
                sessionId: record.haystack_session_ids[index]!,
                turnIndex,
              },
            ]
          : [],
      ),
    );
    // Every turn indexed a second time (as if from a second source): exact duplicates.
    const documents = [...turns, ...turns.map((turn) => ({ ...turn, id: `${turn.id}#copy` }))];
    const bm25 = createBm25Index(documents.map((document) => wordsTokenizer.tokenize(document.text)));
    const scores = bm25.scores(wordsTokenizer.tokenize(record.question));
    const hits: RetrievalHit[] = [...scores.keys()]
      .sort((left, right) => scores[right]! - scores[left]! || left - right)
      .slice(0, 30)
      .map((document) => ({
        document,
        id: documents[document]!.id,
        sessionId: documents[document]!.sessionId,
        score: scores[document]!,
        routes: {},
      }));
    expect(hits[0]!.score).toBe(hits[1]!.score); // a turn and its copy tie
    const vectors = documents.map((document) => hashedVector(document.text));
    const { hits: ordered, decisions } = selectMmr({ hits, vectors, k: 10 });
    const selected = ordered.slice(0, 10);
    const base = (id: string) => id.replace(/#copy$/, '');
    expect(new Set(selected.map((chosen) => base(chosen.id))).size).toBe(10);
    expect(selected[0]!.id).toBe(hits[0]!.id);
    const skipped = decisions.filter((decision) => decision.skippedAsDuplicateOf);
    expect(skipped.length).toBeGreaterThanOrEqual(10);
    for (const decision of skipped) expect(base(decision.skippedAsDuplicateOf!)).toBe(base(decision.id));
  });
});
