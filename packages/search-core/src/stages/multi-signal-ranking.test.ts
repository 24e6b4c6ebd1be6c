import { describe, expect, it } from 'vitest';
import type { RetrievalHit } from '../core/retriever.js';
import { createBm25Index } from '../lexical/bm25-index.js';
import { wordsTokenizer } from '../lexical/tokenizer.js';
import { parseLongMemEvalDate } from '../query/temporal-scope.js';
import { understandQuery } from '../query/understand-query.js';
import { sampleRecord, sampleTurnDocuments } from '../testing/sample-records.js';
import {
  DEFAULT_SIGNAL_WEIGHTS,
  entityOverlap,
  rankMultiSignal,
  temporalRelevance,
} from './multi-signal-ranking.js';

const record = sampleRecord('71017276');
const documents = sampleTurnDocuments(record);

/** BM25 hits of the question over the user turns: a real incoming ranking. */
function bm25Hits(question: string, limit: number): RetrievalHit[] {
  const index = createBm25Index(documents.map((document) => wordsTokenizer.tokenize(document.text)));
  const scores = index.scores(wordsTokenizer.tokenize(question));
  return [...scores.keys()]
    .sort((left, right) => scores[right]! - scores[left]! || left - right)
    .slice(0, limit)
    .map((document, rank) => ({
      document,
      id: documents[document]!.id,
      sessionId: documents[document]!.sessionId,
      score: scores[document]!,
      routes: { bm25: { score: scores[document]!, rank: rank + 1 } },
    }));
}
const allHits = (score: (document: number) => number): RetrievalHit[] =>
  documents.map((document, index) => ({
    document: index,
    id: document.id,
    sessionId: document.sessionId,
    score: score(index),
    routes: {},
  }));

describe('rankMultiSignal on a real haystack (71017276, asked 2023/04/01)', () => {
  it('adds the four signals to every hit, with ranks, and sorts by the weighted sum', () => {
    const understanding = understandQuery({ question: record.question, questionDate: record.question_date });
    const hits = bm25Hits(record.question, 20);
    const ranked = rankMultiSignal({ hits, documents, understanding });
    expect(ranked).toHaveLength(20);
    for (const hit of ranked) {
      for (const signal of ['signal_semantic', 'signal_entity', 'signal_temporal', 'signal_recency']) {
        expect(hit.routes[signal]!.score).toBeGreaterThanOrEqual(0);
        expect(hit.routes[signal]!.score).toBeLessThanOrEqual(1);
        expect(hit.routes[signal]!.rank).toBeGreaterThanOrEqual(1);
      }
      expect(hit.routes['bm25']).toBeDefined();
      const weights = DEFAULT_SIGNAL_WEIGHTS.analytical;
      const expected =
        weights.semantic * hit.routes['signal_semantic']!.score +
        weights.entity * hit.routes['signal_entity']!.score +
        weights.temporal * hit.routes['signal_temporal']!.score +
        weights.recency * hit.routes['signal_recency']!.score;
      expect(hit.score).toBeCloseTo(expected, 12);
    }
    expect(ranked.map((hit) => hit.score)).toEqual([...ranked.map((hit) => hit.score)].sort((a, b) => b - a));
    // The best BM25 hit has semantic 1, the worst of the pool 0; no scope: temporal is neutral.
    expect(ranked.find((hit) => hit.id === hits[0]!.id)!.routes['signal_semantic']!.score).toBe(1);
    expect(ranked.find((hit) => hit.id === hits[19]!.id)!.routes['signal_semantic']!.score).toBe(0);
    expect(new Set(ranked.map((hit) => hit.routes['signal_temporal']!.score))).toEqual(new Set([0.5]));
  });

  it('scores entity overlap by the share of query entities in the turn', () => {
    const understanding = understandQuery({ question: record.question, questionDate: record.question_date });
    expect(understanding.entities).toEqual(['aunt', 'crystal chandelier']);
    const ranked = rankMultiSignal({ hits: allHits(() => 1), documents, understanding });
    // "...my great-grandmother's crystal chandelier..." names one of the two entities.
    const chandelier = ranked.find((hit) => hit.id === 'answer_0b4a8adc_1_3')!;
    expect(documents[chandelier.document]!.text).toMatch(/crystal chandelier/);
    expect(chandelier.routes['signal_entity']!.score).toBe(0.5);
    const atLeastAsGood = ranked.filter((hit) => hit.routes['signal_entity']!.score >= 0.5).length;
    expect(chandelier.routes['signal_entity']!.rank).toBeLessThanOrEqual(atLeastAsGood);
    const unrelated = ranked.filter((hit) => !/aunt|chandelier/i.test(documents[hit.document]!.text));
    expect(unrelated.length).toBeGreaterThan(0);
    for (const hit of unrelated) expect(hit.routes['signal_entity']!.score).toBe(0);
  });

  it('scores 1 inside the temporal scope and decays outside it', () => {
    const understanding = understandQuery({
      question: 'What did I tell you about my antique furniture last month?',
      questionDate: record.question_date,
    });
    const scope = understanding.temporalScope!;
    expect(scope.rule).toBe('month'); // March 2023
    const ranked = rankMultiSignal({ hits: allHits(() => 1), documents, understanding });
    for (const hit of ranked) {
      const date = parseLongMemEvalDate(documents[hit.document]!.date!)!;
      const temporal = hit.routes['signal_temporal']!.score;
      if (date >= scope.start && date <= scope.end) expect(temporal).toBe(1);
      else {
        const daysOutside = (scope.start.getTime() - date.getTime()) / 86_400_000;
        expect(temporal).toBeCloseTo(Math.exp(-daysOutside / 30), 10);
      }
    }
    // The answer session (2023/03/04) is inside March; its turns outrank February's.
    const answer = ranked.findIndex((hit) => hit.sessionId === 'answer_0b4a8adc_1');
    const february = ranked.findIndex((hit) => documents[hit.document]!.date!.startsWith('2023/02'));
    expect(answer).toBeLessThan(february);
  });

  it('gives newer memories more recency: exp(-age / 90 days)', () => {
    const understanding = understandQuery({ question: record.question, questionDate: record.question_date });
    const ranked = rankMultiSignal({ hits: allHits(() => 1), documents, understanding });
    for (const hit of ranked) {
      const age =
        (understanding.referenceDate.getTime() -
          parseLongMemEvalDate(documents[hit.document]!.date!)!.getTime()) /
        86_400_000;
      expect(hit.routes['signal_recency']!.score).toBeCloseTo(Math.exp(-Math.max(0, age) / 90), 10);
    }
  });

  it('takes weights per class and external semantic scores', () => {
    const understanding = understandQuery({ question: record.question, questionDate: record.question_date });
    const hits = bm25Hits(record.question, 10);
    const pureSemantic = rankMultiSignal({
      hits,
      documents,
      understanding,
      weightsByClass: { analytical: { semantic: 1, entity: 0, temporal: 0, recency: 0 } },
    });
    expect(pureSemantic.map((hit) => hit.id)).toEqual(hits.map((hit) => hit.id));
    const reversed = new Float64Array(documents.length);
    hits.forEach((hit, rank) => {
      reversed[hit.document] = rank;
    });
    const external = rankMultiSignal({
      hits,
      documents,
      understanding,
      semanticScores: reversed,
      weightsByClass: { analytical: { semantic: 1, entity: 0, temporal: 0, recency: 0 } },
    });
    expect(external.map((hit) => hit.id)).toEqual([...hits].reverse().map((hit) => hit.id));
  });
});

describe('signal helpers', () => {
  it('matches entities by contiguous stems, so plurals and case meet', () => {
    const stems = wordsTokenizer.tokenize('I tried a new Korean restaurant downtown');
    expect(entityOverlap([wordsTokenizer.tokenize('korean restaurants')], stems)).toBe(1);
    expect(entityOverlap([wordsTokenizer.tokenize('restaurant korean')], stems)).toBe(0);
    expect(entityOverlap([], stems)).toBe(0);
  });

  it('decays temporal relevance by 30 days', () => {
    const scope = { start: new Date(2023, 3, 1), end: new Date(2023, 3, 30, 23, 59, 59, 999) };
    expect(temporalRelevance(new Date(2023, 3, 15), scope)).toBe(1);
    expect(temporalRelevance(new Date(2023, 2, 2), scope)).toBeCloseTo(Math.exp(-1), 2);
  });
});
