import { describe, expect, it } from 'vitest';
import type { MemoryDocument } from '../core/retriever.js';
import { wordsTokenizer } from '../lexical/tokenizer.js';
import { createBm25DenseRetriever } from './bm25-dense-retriever.js';
import { createSessionAwareRetriever } from './session-aware-retriever.js';
import { boostInScope, datesInScope, parseDates } from './time-boost.js';

const april1 = '2023/04/01 (Sat) 08:30';
const dates = parseDates(['2023/03/04 (Sat) 13:12', '2023/03/20 (Mon) 09:00', undefined, 'not a date']);

describe('datesInScope', () => {
  it('marks the dates inside the span the question names ("four weeks ago": 28 days back ± 3)', () => {
    expect([...datesInScope('What did I buy four weeks ago?', april1, dates)!]).toEqual([1, 0, 0, 0]);
    expect([...datesInScope('What did I buy two weeks ago?', april1, dates)!]).toEqual([0, 1, 0, 0]);
  });

  it('is undefined without a span or without a readable question date', () => {
    expect(datesInScope('What did I buy?', april1, dates)).toBeUndefined();
    expect(datesInScope('How many weeks ago did I buy it?', april1, dates)).toBeUndefined();
    expect(datesInScope('What did I buy four weeks ago?', undefined, dates)).toBeUndefined();
    expect(datesInScope('What did I buy four weeks ago?', 'April 1', dates)).toBeUndefined();
  });
});

describe('boostInScope', () => {
  it('adds the weight times the score spread to the items in scope', () => {
    expect(Array.from(boostInScope([4, 2, 0], Uint8Array.from([0, 0, 1]), 0.25))).toEqual([4, 2, 1]);
    expect(Array.from(boostInScope([0.9, 0.5, 0.1], Uint8Array.from([0, 1, 0]), 0.5))).toEqual([
      0.9, 0.9, 0.1,
    ]);
  });

  it('leaves the scores alone with no span or no weight, and the order alone when all are in scope', () => {
    const scores = [3, 1, 2];
    expect(boostInScope(scores, undefined, 0.3)).toBe(scores);
    expect(boostInScope(scores, Uint8Array.from([1, 0, 0]), 0)).toBe(scores);
    expect(Array.from(boostInScope(scores, Uint8Array.from([1, 1, 1]), 0.5))).toEqual([4, 2, 3]);
  });
});

// Three sessions about the same hobby, only the second four weeks before the question, and two unrelated ones.
const sessions = [
  {
    id: 's1',
    date: '2023/03/25 (Sat) 10:00',
    text: 'I bought new sculpting clay and a sculpting mat for the sculpting competition.',
  },
  {
    id: 's2',
    date: '2023/03/04 (Sat) 13:12',
    text: 'For the competition I bought my own set of sculpting tools today.',
  },
  {
    id: 's3',
    date: '2023/02/11 (Sat) 18:30',
    text: 'Sculpting class was fun, the competition sculpting theme is animals.',
  },
  { id: 's4', date: '2023/03/29 (Wed) 08:00', text: 'Can you suggest a pasta recipe with spinach?' },
  { id: 's5', date: '2023/01/02 (Mon) 21:40', text: 'What is the weather like in Lisbon in spring?' },
];
const sessionDocuments: MemoryDocument[] = sessions.map(({ id, date, text }) => ({
  id,
  sessionId: id,
  date,
  text,
}));
const query = 'I mentioned an investment for a competition four weeks ago? What did I buy for sculpting?';

describe('the time boost in the retrievers', () => {
  it('moves the session inside the span up in BM25 and marks it on its hit', async () => {
    const ranked = async (timeBoost?: number) => {
      const retriever = createBm25DenseRetriever({
        routes: ['bm25'],
        tokenizer: wordsTokenizer,
        fusion: { kind: 'weighted', weights: { bm25: 1 } },
        namespace: 'time',
        ...(timeBoost ? { timeBoost } : {}),
      });
      await retriever.index({ documents: sessionDocuments });
      return retriever.search({ query, queryDate: april1, limit: 5 });
    };
    const plain = await ranked();
    expect(plain[0]!.id).not.toBe('s2');
    expect(plain[0]!.routes.time).toBeUndefined();
    const boosted = await ranked(0.3);
    expect(boosted[0]!.id).toBe('s2');
    expect(boosted.map((hit) => hit.routes.time!.score)).toEqual([1, 0, 0, 0, 0]);
  });

  it('moves the session inside the span up in session-aware stage 1', async () => {
    const turns: MemoryDocument[] = sessions.flatMap(({ id, date, text }) =>
      text.split(/(?<=[.!?])\s+/).map((sentence, turnIndex) => ({
        id: `${id}_${turnIndex}`,
        sessionId: id,
        date,
        text: sentence,
        turnIndex,
        role: 'user' as const,
      })),
    );
    const order = async (timeBoost?: number) => {
      const retriever = createSessionAwareRetriever({
        tokenizer: wordsTokenizer,
        sessionIndex: 'text',
        topSessions: 1,
        turnsPerSession: 1,
        finalTopK: 1,
        fusion: { kind: 'weighted', weights: { bm25: 1 } },
        namespace: 'time',
        ...(timeBoost ? { timeBoost } : {}),
      });
      await retriever.index({ documents: turns });
      return retriever.searchSessions({ query, queryDate: april1, limit: 1 });
    };
    expect((await order()).sessionOrder[0]).not.toBe('s2');
    const boosted = await order(0.3);
    expect(boosted.sessionOrder[0]).toBe('s2');
    expect(boosted.hits[0]!.routes.session_time).toEqual({ score: 1, rank: 0 });
  });
});
