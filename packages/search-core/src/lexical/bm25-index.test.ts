import { describe, expect, it } from 'vitest';
import { createBm25Index } from './bm25-index.js';

// Expected values computed independently from rank_bm25's BM25Okapi formulas (k1 1.5, b 0.75,
// epsilon 0.25) in Python for this corpus.
const corpus = [
  ['the', 'cat', 'sat'],
  ['the', 'dog', 'sat', 'down'],
  ['the', 'cat', 'the', 'mat'],
  ['a', 'bird'],
];

describe('createBm25Index', () => {
  it('floors a negative idf at epsilon times the mean idf, as BM25Okapi does', () => {
    const index = createBm25Index(corpus);
    // ln(4 - 3 + 0.5) - ln(3 + 0.5) < 0, replaced by 0.25 * mean idf.
    expect(index.idf('the')).toBeCloseTo(0.10591223254840046, 15);
    expect(index.idf('cat')).toBe(0);
    expect(index.idf('dog')).toBeCloseTo(0.8472978603872037, 15);
    expect(index.idf('unseen')).toBe(0);
  });

  it('scores a repeated query term once per occurrence', () => {
    const scores = createBm25Index(corpus).scores(['cat', 'the', 'cat']);
    const expected = [0.10970988232105226, 0.09594836398112934, 0.14085514303112082, 0];
    for (const [doc, value] of expected.entries()) expect(scores[doc]).toBeCloseTo(value, 14);
  });

  it('gives zero to documents without any query term', () => {
    expect([...createBm25Index(corpus).scores(['zebra'])]).toEqual([0, 0, 0, 0]);
  });

  it('ranks an exact rare-term match first', () => {
    const scores = createBm25Index(corpus).scores(['mat']);
    expect(scores.indexOf(Math.max(...scores))).toBe(2);
  });
});
