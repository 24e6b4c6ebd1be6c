import { describe, expect, it } from 'vitest';
import {
  adaptWeights,
  normalizeScores,
  rankNormalize,
  routeConfidence,
  zScoreNormalize,
} from './score-normalization.js';

describe('score normalisations', () => {
  it('z-score keeps the order, starts at 0 and is not squeezed by one outlier', () => {
    const scores = [0, 1, 2, 100];
    const z = zScoreNormalize(scores);
    expect(z[0]).toBe(0);
    expect([...z].every((value, index) => index === 0 || value > z[index - 1]!)).toBe(true);
    // Min-max puts 1 and 2 within 0.01 of each other; z-score spreads them in standard deviations.
    const minMax = normalizeScores(scores, 'min-max');
    expect((z[2]! - z[1]!) / z[3]!).toBeCloseTo((minMax[2]! - minMax[1]!) / minMax[3]!, 10);
    expect(z[3]).toBeGreaterThan(1);
  });

  it('rank normalisation ignores the distribution', () => {
    expect([...rankNormalize([5, 100, 7])]).toEqual([1 - 2 / 3, 1, 1 - 1 / 3]);
    expect([...rankNormalize([3, 3, 3])]).toEqual([0, 0, 0]);
    expect([...zScoreNormalize([3, 3])]).toEqual([0, 0]);
  });
});

describe('query-dependent route weights', () => {
  it('gives no weight to a route that scores every document alike', () => {
    expect(routeConfidence([0, 0, 0])).toBe(0);
    const weights = adaptWeights({ bm25: 0.3, dense: 0.7 }, { bm25: 0, dense: 2 });
    expect(weights.bm25).toBe(0);
    expect(weights.dense).toBeCloseTo(1, 12);
  });

  it('moves weight to the route whose best document stands out', () => {
    const rareName = routeConfidence([0, 0, 0, 0, 0, 0, 0, 0, 0, 9]);
    const paraphrase = routeConfidence([0.3, 0.31, 0.32, 0.33, 0.34, 0.35, 0.36, 0.37, 0.38, 0.39]);
    expect(rareName).toBeGreaterThan(paraphrase);
    const weights = adaptWeights({ bm25: 0.3, dense: 0.7 }, { bm25: rareName, dense: paraphrase });
    expect(weights.bm25).toBeGreaterThan(0.3);
    expect(weights.bm25! + weights.dense!).toBeCloseTo(1, 12);
  });

  it('keeps the base weights when the routes are equally sure', () => {
    expect(adaptWeights({ bm25: 0.3, dense: 0.7 }, { bm25: 2, dense: 2 })).toEqual({ bm25: 0.3, dense: 0.7 });
  });
});

describe('adaptive power', () => {
  it('hands the surer route more weight as the power grows', () => {
    const linear = adaptWeights({ bm25: 0.5, dense: 0.5 }, { bm25: 3, dense: 1 }, 1);
    const squared = adaptWeights({ bm25: 0.5, dense: 0.5 }, { bm25: 3, dense: 1 }, 2);
    expect(linear.bm25).toBeCloseTo(0.75, 12);
    expect(squared.bm25).toBeCloseTo(0.9, 12);
    expect(adaptWeights({ bm25: 0.5, dense: 0.5 }, { bm25: 3, dense: 1 }, 0)).toEqual({
      bm25: 0.5,
      dense: 0.5,
    });
  });
});
