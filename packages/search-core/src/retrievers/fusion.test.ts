import { describe, expect, it } from 'vitest';
import { fuseScores, minMaxNormalize, ranksOf } from './fusion.js';

describe('fuseScores', () => {
  const bm25 = [3, 1, 0, 2];
  const dense = [0.1, 0.9, 0.5, 0.2];

  it('sums 1 / (k + rank) over routes for reciprocal rank fusion', () => {
    const fused = fuseScores(
      [
        { route: 'bm25', scores: bm25 },
        { route: 'dense', scores: dense },
      ],
      { kind: 'rrf', k: 60 },
    );
    // Document 1: bm25 rank 3, dense rank 1.
    expect(fused[1]).toBeCloseTo(1 / 63 + 1 / 61, 15);
    expect(fused[0]).toBeCloseTo(1 / 61 + 1 / 64, 15);
  });

  it('weighs min-max normalised scores, so score gaps count', () => {
    const fused = fuseScores(
      [
        { route: 'bm25', scores: bm25 },
        { route: 'dense', scores: dense },
      ],
      { kind: 'weighted', weights: { bm25: 0.3, dense: 0.7 } },
    );
    expect(fused[0]).toBeCloseTo(0.3 * 1 + 0.7 * 0, 15);
    expect(fused[1]).toBeCloseTo(0.3 * (1 / 3) + 0.7 * 1, 15);
  });

  it('rejects routes of different lengths', () => {
    expect(() =>
      fuseScores(
        [
          { route: 'a', scores: [1, 2] },
          { route: 'b', scores: [1] },
        ],
        { kind: 'rrf', k: 60 },
      ),
    ).toThrow(/route b scored 1 documents, expected 2/);
  });
});

describe('helpers', () => {
  it('normalises equal scores to zero and ranks ties in corpus order', () => {
    expect([...minMaxNormalize([2, 2, 2])]).toEqual([0, 0, 0]);
    expect([...ranksOf([1, 5, 5, 0])]).toEqual([3, 1, 2, 4]);
  });
});
