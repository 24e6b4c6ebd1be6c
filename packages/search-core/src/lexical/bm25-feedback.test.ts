import { describe, expect, it } from 'vitest';
import { rankByScore } from '../core/rank-by-score.js';
import { bm25FeedbackScores, orderAfterFeedback } from './bm25-feedback.js';
import { createBm25Index } from './bm25-index.js';

// Two sessions about one cocktail habit; only the first names it as the question does.
const corpus = [
  ['cocktail', 'party', 'gin', 'lime', 'mojito', 'mint'],
  ['gin', 'lime', 'mojito', 'mint', 'muddled', 'tonight'],
  ['garden', 'tomato', 'planting', 'soil', 'water', 'sun'],
  ['car', 'engine', 'repair', 'oil', 'garage', 'brake'],
  ['party', 'birthday', 'cake', 'candles', 'friends', 'gift'],
  ['book', 'novel', 'reading', 'chapter', 'author', 'library'],
];

describe('createBm25Index weights and feedback terms', () => {
  it('scores with weights of one exactly as without weights, and a doubled weight doubles a term', () => {
    const index = createBm25Index(corpus);
    const query = ['cocktail', 'party', 'gin'];
    expect([...index.scores(query, [1, 1, 1])]).toEqual([...index.scores(query)]);
    const doubled = index.scores(['gin'], [2]);
    const single = index.scores(['gin']);
    for (const [doc, value] of single.entries()) expect(doubled[doc]).toBeCloseTo(2 * value, 14);
  });

  it("takes the feedback documents' terms by share times idf, without the query's own terms", () => {
    const index = createBm25Index(corpus);
    const terms = index.feedbackTerms([0], 3, new Set(['cocktail']));
    expect(terms).toHaveLength(3);
    expect(terms.map(({ term }) => term)).not.toContain('cocktail');
    for (const { term } of terms) expect(corpus[0]).toContain(term);
    // party is in two documents, gin, lime and mint in two too: equal weights keep first-seen order.
    expect(terms.map(({ term }) => term)).toEqual(['party', 'gin', 'lime']);
  });
});

describe('bm25FeedbackScores', () => {
  it("lifts a document that shares the top document's words but not the query's", () => {
    const index = createBm25Index(corpus);
    const query = ['cocktail', 'party'];
    const plain = index.scores(query);
    expect(plain[1]).toBe(0);
    const expanded = bm25FeedbackScores(index, query, rankByScore(plain), { documents: 1, weight: 1 });
    expect(rankByScore(expanded).slice(0, 2)).toEqual([0, 1]);
    expect(expanded[1]).toBeGreaterThan(expanded[4]!);
  });

  it('gives the plain scores when the feedback documents add no term', () => {
    const query = ['cocktail'];
    const emptyCorpus = createBm25Index([['cocktail'], ['x']]);
    expect([...bm25FeedbackScores(emptyCorpus, query, [0], { documents: 1, weight: 1 })]).toEqual([
      ...emptyCorpus.scores(query),
    ]);
  });
});

describe('orderAfterFeedback', () => {
  it('keeps the feedback documents first in their first order only when asked', () => {
    const first = [3, 1, 0, 2];
    const second = [0, 2, 1, 3];
    expect(orderAfterFeedback(first, second, { documents: 2, weight: 1 })).toEqual(second);
    expect(orderAfterFeedback(first, second, { documents: 2, weight: 1, keep: true })).toEqual([3, 1, 0, 2]);
    expect(orderAfterFeedback(first, [2, 0, 1, 3], { documents: 1, weight: 1, keep: true })).toEqual([
      3, 2, 0, 1,
    ]);
  });
});
