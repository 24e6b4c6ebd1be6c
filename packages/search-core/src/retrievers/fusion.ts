import { rankByScore } from '../core/rank-by-score.js';
import {
  adaptWeights,
  minMaxNormalize,
  normalizeScores,
  routeConfidence,
  type ScoreNormalization,
} from './score-normalization.js';

/** Scores of every document by one route (bm25, dense, …), in corpus order. */
export type RouteScores = { route: string; scores: ArrayLike<number> };

export type Fusion =
  | { kind: 'rrf'; k: number }
  /**
   * Weighted sum of normalised scores; `weights` by route name (missing routes weigh 0).
   * `normalization` defaults to min-max; `adaptive` scales the weights per query by each route's
   * confidence (score-normalization.ts).
   */
  | {
      kind: 'weighted';
      weights: Readonly<Record<string, number>>;
      normalization?: ScoreNormalization;
      adaptive?: boolean;
      /** Exponent of the confidence ratio in the adaptive weights (default 1). */
      adaptivePower?: number;
    }
  /**
   * CombMNZ: the weighted sum times the number of routes that rank the document within their top
   * `depth` (default 20), so documents both routes agree on move up.
   */
  | {
      kind: 'combmnz';
      weights: Readonly<Record<string, number>>;
      normalization?: ScoreNormalization;
      adaptive?: boolean;
      adaptivePower?: number;
      depth?: number;
    };

export { minMaxNormalize };

/** 1-based rank of every document within one route (ties in corpus order). */
export function ranksOf(scores: ArrayLike<number>): Int32Array {
  const ranks = new Int32Array(scores.length);
  rankByScore(scores).forEach((document, index) => {
    ranks[document] = index + 1;
  });
  return ranks;
}

/**
 * Fuses routes into one score per document: reciprocal rank fusion (sum of 1 / (k + rank)), a
 * weighted sum of normalised scores, or CombMNZ. RRF lets a badly wrong route vote as much as a
 * good one; the weighted sum keeps score gaps.
 */
export function fuseScores(routes: readonly RouteScores[], fusion: Fusion): Float64Array {
  const size = routes[0]?.scores.length ?? 0;
  const fused = new Float64Array(size);
  for (const { route, scores } of routes)
    if (scores.length !== size)
      throw new Error(`fusion: route ${route} scored ${scores.length} documents, expected ${size}`);
  if (fusion.kind === 'rrf') {
    for (const { scores } of routes) {
      const ranks = ranksOf(scores);
      for (let document = 0; document < size; document++)
        fused[document]! += 1 / (fusion.k + ranks[document]!);
    }
    return fused;
  }
  const weights = fusionWeights(routes, fusion);
  const votes = fusion.kind === 'combmnz' ? new Int32Array(size) : undefined;
  for (const { route, scores } of routes) {
    const weight = weights[route] ?? 0;
    if (weight === 0) continue;
    const normalized = normalizeScores(scores, fusion.normalization ?? 'min-max');
    for (let document = 0; document < size; document++) fused[document]! += weight * normalized[document]!;
    if (votes) {
      const ranks = ranksOf(scores);
      const depth = (fusion.kind === 'combmnz' ? fusion.depth : undefined) ?? 20;
      for (let document = 0; document < size; document++) if (ranks[document]! <= depth) votes[document]!++;
    }
  }
  if (votes)
    for (let document = 0; document < size; document++) fused[document]! *= Math.max(votes[document]!, 1);
  return fused;
}

/** The route weights a weighted or CombMNZ fusion uses for these scores (adapted per query when asked). */
export function fusionWeights(
  routes: readonly RouteScores[],
  fusion: Extract<Fusion, { weights: unknown }>,
): Readonly<Record<string, number>> {
  if (!fusion.adaptive) return fusion.weights;
  const confidence: Record<string, number> = {};
  for (const { route, scores } of routes) confidence[route] = routeConfidence(scores);
  return adaptWeights(fusion.weights, confidence, fusion.adaptivePower ?? 1);
}
