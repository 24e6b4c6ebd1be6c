import { describe, expect, it } from 'vitest';
import { fuseScores, fusionWeights, gapScaledWeights, minMaxNormalize, ranksOf, scoreGap } from './fusion.js';

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

describe('fuseScores variants', () => {
  const routes = [
    { route: 'bm25', scores: [0, 0, 5, 1] },
    { route: 'dense', scores: [0.9, 0.1, 0.8, 0.2] },
  ];

  it('multiplies the weighted sum by the routes ranking a document within their top depth (CombMNZ)', () => {
    const weighted = fuseScores(routes, { kind: 'weighted', weights: { bm25: 0.5, dense: 0.5 } });
    const mnz = fuseScores(routes, { kind: 'combmnz', weights: { bm25: 0.5, dense: 0.5 }, depth: 2 });
    // Document 2 is top 2 in both routes; document 0 only in dense; document 1 in neither.
    expect(mnz[2]).toBeCloseTo(2 * weighted[2]!, 12);
    expect(mnz[0]).toBeCloseTo(weighted[0]!, 12);
    expect(mnz[1]).toBeCloseTo(weighted[1]!, 12);
  });

  it('normalises by rank when asked', () => {
    const fused = fuseScores(routes, {
      kind: 'weighted',
      weights: { bm25: 1, dense: 0 },
      normalization: 'rank',
    });
    expect([...fused]).toEqual([0.5, 0.25, 1, 0.75]);
  });

  it('drops a route with no signal when the weights adapt to the query', () => {
    const flat = [
      { route: 'bm25', scores: [0, 0, 0, 0] },
      { route: 'dense', scores: [0.9, 0.1, 0.8, 0.2] },
    ];
    const fused = fuseScores(flat, { kind: 'weighted', weights: { bm25: 0.3, dense: 0.7 }, adaptive: true });
    expect(fused[0]).toBeCloseTo(1, 12);
    expect(
      fusionWeights(flat, { kind: 'weighted', weights: { bm25: 0.3, dense: 0.7 }, adaptive: true }),
    ).toEqual({
      bm25: 0,
      dense: 1,
    });
  });
});

describe('gap-scaled weights', () => {
  const fusion = {
    kind: 'weighted',
    weights: { bm25: 0.3, dense: 0.7 },
    gapReference: { dense: 0.5 },
  } as const;
  // Cosines bunched together (a haystack about the same two people) against spread-out ones.
  const bunched = [
    { route: 'bm25', scores: [4, 0, 1, 2, 0] },
    { route: 'dense', scores: [0.6, 0.72, 0.62, 0.65, 0.6] },
  ];
  const spread = [
    { route: 'bm25', scores: [4, 0, 1, 2, 0] },
    { route: 'dense', scores: [0.1, 0.9, 0.2, 0.3, 0.15] },
  ];

  it('measures the best score above the median', () => {
    expect(scoreGap([0.6, 0.72, 0.62, 0.65, 0.6])).toBeCloseTo(0.1, 12);
    expect(scoreGap([1, 2, 3, 10])).toBeCloseTo(7.5, 12);
    expect(scoreGap([])).toBe(0);
  });

  it('hands the dense weight to BM25 when its gap is half the reference or less, part of it in between', () => {
    const weights = fusionWeights(bunched, fusion);
    expect(weights).toEqual({ bm25: 1, dense: 0 });
    const between = fusionWeights(bunched, { ...fusion, gapReference: { dense: 0.16 } });
    // Gap 0.1 of reference 0.16: 2 × 0.1 / 0.16 − 1 = 0.25 of the weight kept.
    expect(between.dense).toBeCloseTo(0.7 * 0.25, 12);
    expect(between.bm25).toBeCloseTo(1 - 0.7 * 0.25, 12);
    // Document 0 (BM25's best) now beats document 1 (dense's best), which won with fixed weights.
    const fixed = fuseScores(bunched, { kind: 'weighted', weights: fusion.weights });
    expect(fixed[1]).toBeGreaterThan(fixed[0]!);
    const scaled = fuseScores(bunched, fusion);
    expect(scaled[0]).toBeGreaterThan(scaled[1]!);
  });

  it('leaves a route alone when no other route could take its weight over', () => {
    const dense = [bunched[1]!];
    expect(gapScaledWeights(dense, { dense: 0.7 }, { dense: 0.5 })).toEqual({ dense: 0.7 });
    const fused = fuseScores(dense, { ...fusion, weights: { dense: 1 } });
    for (const [index, expected] of [0, 1, 1 / 6, 5 / 12, 0].entries())
      expect(fused[index]).toBeCloseTo(expected, 12);
  });

  it('keeps the weights when the gap reaches the reference, and scales only routes that have one', () => {
    expect(fusionWeights(spread, fusion)).toEqual({ bm25: 0.3, dense: 0.7 });
    // BM25's gap: best 4 above the median 1, of reference 4: 2 × 3 / 4 − 1 = 0.5 kept.
    const lexical = gapScaledWeights(bunched, { bm25: 0.3, dense: 0.7 }, { bm25: 4 });
    expect(lexical.bm25).toBeCloseTo(0.3 * 0.5, 12);
    expect(lexical.dense).toBeCloseTo(0.7 + 0.3 * 0.5, 12);
  });
});
