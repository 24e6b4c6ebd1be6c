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

/**
 * What the weighted and CombMNZ fusions share: `weights` by route name (missing routes weigh 0);
 * `normalization` defaults to min-max; `adaptive` scales the weights per query by each route's
 * confidence (score-normalization.ts).
 */
type WeightedScores = {
  weights: Readonly<Record<string, number>>;
  normalization?: ScoreNormalization;
  adaptive?: boolean;
  /** Exponent of the confidence ratio in the adaptive weights (default 1). */
  adaptivePower?: number;
  /** Per route: the score gap at which it keeps its full weight (see `gapScaledWeights`). */
  gapReference?: Readonly<Record<string, number>>;
};

export type Fusion =
  | { kind: 'rrf'; k: number }
  /** Weighted sum of normalised scores. */
  | ({ kind: 'weighted' } & WeightedScores)
  /**
   * CombMNZ: the weighted sum times the number of routes that rank the document within their top
   * `depth` (default 20), so documents both routes agree on move up.
   */
  | ({ kind: 'combmnz'; depth?: number } & WeightedScores);

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

/**
 * The route weights a weighted or CombMNZ fusion uses for these scores: adapted per query to each
 * route's confidence when asked, then scaled by each route's score gap when it has a reference.
 */
export function fusionWeights(
  routes: readonly RouteScores[],
  fusion: Extract<Fusion, { weights: unknown }>,
): Readonly<Record<string, number>> {
  let weights = fusion.weights;
  if (fusion.adaptive) {
    const confidence: Record<string, number> = {};
    for (const { route, scores } of routes) confidence[route] = routeConfidence(scores);
    weights = adaptWeights(weights, confidence, fusion.adaptivePower ?? 1);
  }
  return fusion.gapReference ? gapScaledWeights(routes, weights, fusion.gapReference) : weights;
}

/**
 * Weights scaled by how far each route's best score stands above its median score (the gap), in
 * the route's own units: a route whose gap reaches its reference keeps its weight, one whose gap
 * is half the reference or less loses it, and in between the weight falls linearly; what a route
 * gives up goes to the other routes in proportion to their weights. Min-max normalisation
 * stretches any spread to [0, 1], so without this a dense route whose cosines sit in a narrow
 * band (a haystack where every session is about the same two people, as in LoCoMo) votes as
 * loudly as one that separates a few documents from the rest (LongMemEval's unrelated
 * distractors). Routes without a reference are not scaled.
 */
export function gapScaledWeights(
  routes: readonly RouteScores[],
  weights: Readonly<Record<string, number>>,
  reference: Readonly<Record<string, number>>,
): Record<string, number> {
  const scaled: Record<string, number> = { ...weights };
  let released = 0;
  for (const { route, scores } of routes) {
    const full = reference[route];
    if (full === undefined || full <= 0 || !(route in scaled)) continue;
    const factor = Math.min(1, Math.max(0, (2 * scoreGap(scores)) / full - 1));
    released += scaled[route]! * (1 - factor);
    scaled[route]! *= factor;
  }
  const receivers = routes.filter(({ route }) => reference[route] === undefined && (scaled[route] ?? 0) > 0);
  const receiving = receivers.reduce((sum, { route }) => sum + scaled[route]!, 0);
  // With no other route to take the weight over, scaling would only zero the scores.
  if (released === 0 || receiving === 0) return { ...weights };
  for (const { route } of receivers) scaled[route]! += (released * scaled[route]!) / receiving;
  return scaled;
}

/** Best score minus the median score; 0 for no scores. */
export function scoreGap(scores: ArrayLike<number>): number {
  if (scores.length === 0) return 0;
  const sorted = Float64Array.from(scores as ArrayLike<number>).sort();
  const middle = sorted.length >> 1;
  const median = sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
  return sorted[sorted.length - 1]! - median;
}
