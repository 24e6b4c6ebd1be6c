import { describe, expect, it } from 'vitest';
import { wordsTokenizer } from '../lexical/tokenizer.js';
import { createExtractiveSummarizer } from '../summarize/extractive-summarizer.js';
import { createHashingEmbedder } from '../testing/hashing-embedder.js';
import { sampleRecords, sampleTurnDocuments } from '../testing/sample-records.js';
import { createMemoryVectorIndex } from '../vector-index/memory-vector-index.js';
import { createDenseScorer } from './dense-scorer.js';
import { createSessionAwareRetriever } from './session-aware-retriever.js';

const records = sampleRecords();
const hashingEmbedder = createHashingEmbedder({ dimensions: 64 });

describe('createSessionAwareRetriever on real sample questions', () => {
  for (const record of records.slice(4, 8)) {
    it(`returns turns only from the top sessions of stage 1 (${record.question_id})`, async () => {
      const documents = sampleTurnDocuments(record);
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
    // The evidence session of "What degree did I graduate with?" is about expense tracking and
    // names the degree (Business Administration) in passing: the extractive summary keeps the
    // session's subject, not the degree, which is why stage 1 also ranks sessions by their text.
    const evidence = summaries.find((summary) => summary.sessionId === record.answer_session_ids[0]);
    expect(evidence?.topics).toContain('expenses');
    expect(evidence?.text).not.toMatch(/business administration/i);
    const evidenceTurns =
      record.haystack_sessions[record.haystack_session_ids.indexOf(record.answer_session_ids[0]!)]!;
    expect(evidenceTurns.some((turn) => /business administration/i.test(turn.content))).toBe(true);
    const people = summaries.flatMap((summary) => summary.entities);
    expect(people).toContain('Neil McCauley');
  });
});
