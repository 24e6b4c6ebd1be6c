import { Tiktoken } from 'js-tiktoken/lite';
import o200kBase from 'js-tiktoken/ranks/o200k_base';
import { beforeAll, describe, expect, it } from 'vitest';
import type { MemoryDocument, RetrievalHit } from '../core/retriever.js';
import { createBm25Index } from '../lexical/bm25-index.js';
import { wordsTokenizer } from '../lexical/tokenizer.js';
import { parseLongMemEvalDate } from '../query/temporal-scope.js';
import { sampleRecord } from '../testing/sample-records.js';
import { contextEvidenceRecall, packContext } from './pack-context.js';

// The reader's tokenizer (o200k_base), from the ranks shipped inside js-tiktoken: no network.
let encoder: Tiktoken;
const countTokens = (text: string) => encoder.encode(text, 'all').length;
beforeAll(() => {
  encoder = new Tiktoken(o200kBase);
});

const hitsOf = (documents: readonly MemoryDocument[], order: readonly number[]): RetrievalHit[] =>
  order.map((document, rank) => ({
    document,
    id: documents[document]!.id,
    sessionId: documents[document]!.sessionId,
    score: order.length - rank,
    routes: {},
  }));

describe('packContext', () => {
  it('skips a memory that does not fit and still packs smaller ones after it', () => {
    const documents: MemoryDocument[] = [
      {
        id: 'a',
        text: 'I adopted a beagle named Max.',
        sessionId: 's2',
        date: '2023/05/02 (Tue) 09:15',
        turnIndex: 4,
      },
      { id: 'b', text: 'word '.repeat(400), sessionId: 's1', date: '2023/04/10 (Mon) 17:50', turnIndex: 0 },
      {
        id: 'c',
        text: 'My sister lives in Lisbon.',
        sessionId: 's1',
        date: '2023/04/10 (Mon) 17:50',
        turnIndex: 2,
      },
      {
        id: 'd',
        text: 'I started a pottery class.',
        sessionId: 's2',
        date: '2023/05/02 (Tue) 09:15',
        turnIndex: 0,
      },
    ];
    const tokens = documents.map((document) => countTokens(document.text));
    expect(tokens[1]).toBeGreaterThan(300);
    const budget = tokens[0]! + tokens[2]! + tokens[3]! + 5;
    const result = packContext({
      hits: hitsOf(documents, [0, 1, 2, 3]),
      documents,
      budgetTokens: budget,
      countTokens,
    });
    expect(result.skipped).toEqual([{ id: 'b', tokens: tokens[1], rank: 2 }]);
    // Chronological: the April session first, then May by turn index.
    expect(result.packed.map((memory) => memory.document.id)).toEqual(['c', 'd', 'a']);
    expect(result.packed.map((memory) => memory.rank)).toEqual([3, 4, 1]);
    expect(result.usedTokens).toBe(tokens[0]! + tokens[2]! + tokens[3]!);
  });

  it('asks each count with what is left of the budget, so a text that cannot fit need not be counted whole', () => {
    const documents: MemoryDocument[] = ['a', 'b', 'c'].map((id, turnIndex) => ({
      id,
      text: `Turn ${id} of the session.`,
      sessionId: 's',
      turnIndex,
    }));
    const rooms: number[] = [];
    const result = packContext({
      hits: hitsOf(documents, [0, 1, 2]),
      documents,
      budgetTokens: 20,
      countTokens: (text, room) => {
        rooms.push(room);
        return text.includes('Turn b') ? room + 1 : 7;
      },
    });
    expect(rooms).toEqual([20, 13, 13]);
    expect(result.skipped).toEqual([{ id: 'b', tokens: 14, rank: 2 }]);
    expect(result.usedTokens).toBe(14);
  });

  it('counts the rendered memory and each document once', () => {
    const documents: MemoryDocument[] = [
      { id: 'a', text: 'I moved to Denver.', sessionId: 's', turnIndex: 0 },
    ];
    const render = (document: MemoryDocument) => `[${document.sessionId}] user: ${document.text}`;
    const result = packContext({
      hits: hitsOf(documents, [0, 0]),
      documents,
      budgetTokens: 100,
      countTokens,
      render,
    });
    expect(result.packed).toHaveLength(1);
    expect(result.usedTokens).toBe(countTokens('[s] user: I moved to Denver.'));
  });

  it('packs a real BM25 ranking within budget in date and turn order (0a995998)', () => {
    const record = sampleRecord('0a995998');
    const documents: MemoryDocument[] = [];
    const evidence: string[] = [];
    record.haystack_sessions.forEach((turns, session) => {
      turns.forEach((turn, turnIndex) => {
        if (turn.role !== 'user') return;
        const id = `${record.haystack_session_ids[session]}_${turnIndex + 1}`;
        if (turn.has_answer) evidence.push(id);
        documents.push({
          id,
          text: turn.content,
          sessionId: record.haystack_session_ids[session]!,
          date: record.haystack_dates[session]!,
          turnIndex,
        });
      });
    });
    const bm25 = createBm25Index(documents.map((document) => wordsTokenizer.tokenize(document.text)));
    const scores = bm25.scores(wordsTokenizer.tokenize(record.question));
    const order = [...scores.keys()].sort((left, right) => scores[right]! - scores[left]! || left - right);
    const budgetTokens = 2000;
    const result = packContext({
      hits: hitsOf(documents, order.slice(0, 50)),
      documents,
      budgetTokens,
      countTokens,
    });

    expect(result.usedTokens).toBeLessThanOrEqual(budgetTokens);
    expect(result.usedTokens).toBeGreaterThan(budgetTokens * 0.8);
    expect(result.usedTokens).toBe(result.packed.reduce((sum, memory) => sum + memory.tokens, 0));
    expect(result.packed.length + result.skipped.length).toBe(50);
    for (const skipped of result.skipped) expect(skipped.tokens).toBeGreaterThan(0);
    for (let index = 1; index < result.packed.length; index++) {
      const previous = result.packed[index - 1]!.document;
      const current = result.packed[index]!.document;
      const previousTime = parseLongMemEvalDate(previous.date!)!.getTime();
      const currentTime = parseLongMemEvalDate(current.date!)!.getTime();
      expect(previousTime).toBeLessThanOrEqual(currentTime);
      if (previous.sessionId === current.sessionId)
        expect(previous.turnIndex!).toBeLessThan(current.turnIndex!);
    }
    const recall = contextEvidenceRecall(
      result.packed.map((memory) => memory.document.id),
      evidence,
    );
    // The three evidence turns of "How many items of clothing do I need to pick up or return from a
    // store?" rank within the top 50 and fit in the budget (34 of the 50 hits are packed).
    expect(evidence.sort()).toEqual(['answer_afa9873b_1_5', 'answer_afa9873b_2_11', 'answer_afa9873b_3_7']);
    expect(result.packed).toHaveLength(34);
    expect(recall).toBe(1);
  });
});

describe('contextEvidenceRecall', () => {
  it('is the share of evidence turns present, 1 with no evidence', () => {
    expect(contextEvidenceRecall(['a', 'b', 'c'], ['b', 'd'])).toBe(0.5);
    expect(contextEvidenceRecall(['a'], ['a', 'a'])).toBe(1);
    expect(contextEvidenceRecall([], [])).toBe(1);
  });
});
