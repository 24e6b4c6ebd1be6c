import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { MemoryDocument } from '../core/retriever.js';
import type { Embedder } from '../embedding/embedder.js';
import { wordsTokenizer } from '../lexical/tokenizer.js';
import { createExtractiveSummarizer } from '../summarize/extractive-summarizer.js';
import { createMemoryVectorIndex } from '../vector-index/memory-vector-index.js';
import { createDenseScorer } from './dense-scorer.js';
import { createSessionAwareRetriever } from './session-aware-retriever.js';

type Record = {
  question_id: string;
  question: string;
  haystack_session_ids: string[];
  haystack_dates: string[];
  haystack_sessions: { role: 'user' | 'assistant'; content: string }[][];
  answer_session_ids: string[];
};
const records: Record[] = JSON.parse(
  gunzipSync(
    readFileSync(resolve(import.meta.dirname, '../../../../datasets/sample/longmemeval_s_sample.json.gz')),
  ).toString(),
);

function turnDocuments(record: Record): MemoryDocument[] {
  return record.haystack_sessions.flatMap((turns, session) =>
    turns.flatMap((turn, turnIndex) =>
      turn.role === 'user'
        ? [
            {
              id: `${record.haystack_session_ids[session]}_${turnIndex + 1}`,
              text: turn.content,
              sessionId: record.haystack_session_ids[session]!,
              date: record.haystack_dates[session]!,
              turnIndex,
              role: 'user' as const,
            },
          ]
        : [],
    ),
  );
}

/** A deterministic stand-in embedder: hashed bag of stems, normalised (no model needed). */
const hashingEmbedder: Embedder = {
  id: 'test:hashing',
  dimensions: 64,
  async embedDocuments({ texts }) {
    return texts.map(vectorOf);
  },
  async embedQuery({ text }) {
    return vectorOf(text);
  },
};
function vectorOf(text: string): Float32Array {
  const vector = new Float32Array(64);
  for (const term of wordsTokenizer.tokenize(text)) {
    let hash = 0;
    for (const char of term) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
    vector[hash % 64]! += 1;
  }
  const norm = Math.hypot(...vector) || 1;
  return vector.map((value) => value / norm);
}

describe('createSessionAwareRetriever on real sample questions', () => {
  for (const record of records.slice(4, 8)) {
    it(`returns turns only from the top sessions of stage 1 (${record.question_id})`, async () => {
      const documents = turnDocuments(record);
      const retriever = createSessionAwareRetriever({
        tokenizer: wordsTokenizer,
        dense: createDenseScorer({
          embedder: hashingEmbedder,
          createIndex: ({ dimensions }) => createMemoryVectorIndex({ dimensions }),
        }),
        summarizer: createExtractiveSummarizer(),
        sessionIndex: 'both',
        topSessions: 3,
        turnsPerSession: 2,
        finalTopK: 5,
        fusion: { kind: 'weighted', weights: { bm25: 0.4, dense: 0.6 } },
        namespace: record.question_id,
      });
      await retriever.index({ documents });
      const result = await retriever.searchSessions({ query: record.question, limit: 5 });
      const topSessions = new Set(result.sessionOrder.slice(0, 3));
      expect(result.hits.length).toBeLessThanOrEqual(5);
      expect(result.hits.length).toBeGreaterThan(0);
      for (const hit of result.hits) {
        expect(topSessions.has(hit.sessionId)).toBe(true);
        expect(hit.routes.session!.rank).toBeLessThanOrEqual(3);
        expect(hit.routes.bm25).toBeDefined();
        expect(hit.routes.dense).toBeDefined();
      }
      const perSession = new Map<string, number>();
      for (const hit of result.hits) perSession.set(hit.sessionId, (perSession.get(hit.sessionId) ?? 0) + 1);
      expect(Math.max(...perSession.values())).toBeLessThanOrEqual(2);
      // Every session keeps a rank, with or without a surviving turn.
      expect(new Set(result.sessionOrder)).toEqual(new Set(record.haystack_session_ids));
      const scores = result.hits.map((hit) => hit.score);
      expect(scores).toEqual([...scores].sort((left, right) => right - left));
    });
  }
});

describe('createExtractiveSummarizer on real sessions', () => {
  it('fills every field, with the session date as start and end', async () => {
    const record = records[0]!;
    const sessions = record.haystack_sessions.map((turns, index) => ({
      sessionId: record.haystack_session_ids[index]!,
      date: record.haystack_dates[index]!,
      turns,
    }));
    const summaries = await createExtractiveSummarizer().summarize({ sessions });
    expect(summaries).toHaveLength(sessions.length);
    for (const [index, summary] of summaries.entries()) {
      expect(summary.sessionId).toBe(sessions[index]!.sessionId);
      expect(summary.start).toBe(record.haystack_dates[index]);
      expect(summary.end).toBe(record.haystack_dates[index]);
      expect(summary.turnCount).toBe(sessions[index]!.turns.length);
      expect(summary.userTurnCount).toBe(
        sessions[index]!.turns.filter((turn) => turn.role === 'user').length,
      );
      expect(summary.topics.length).toBeGreaterThan(0);
      expect(summary.text.length).toBeGreaterThan(0);
    }
    // The evidence session of "What degree did I graduate with?" mentions the degree.
    const evidence = summaries.find((summary) => summary.sessionId === record.answer_session_ids[0]);
    expect(evidence).toBeDefined();
    const people = summaries.flatMap((summary) => summary.entities);
    expect(people).toContain('Neil McCauley');
  });
});
