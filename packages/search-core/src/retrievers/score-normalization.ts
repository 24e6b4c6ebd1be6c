import { rankByScore } from '../core/rank-by-score.js';

/**
 * How the weighted and CombMNZ fusions put routes on one scale (issue 19):
 * - `min-max`: (s − min) / (max − min); one outlier at either end squeezes everything else;
 * - `z-score`: (s − mean) / std, then shifted so the route's lowest score is 0; robust to a
 *   route whose scores sit in a narrow band (cosines) next to one with a long tail (BM25);
 * - `rank`: 1 − (rank − 1) / n, the score distribution ignored, only the order kept.
 */
export const SCORE_NORMALIZATIONS = ['min-max', 'z-score', 'rank'] as const;
export type ScoreNormalization = (typeof SCORE_NORMALIZATIONS)[number];

/** The lowest and highest score (±Infinity for no scores). */
export function scoreRange(scores: ArrayLike<number>): { min: number; max: number } {
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  for (let index = 0; index < scores.length; index++) {
    min = Math.min(min, scores[index]!);
    max = Math.max(max, scores[index]!);
  }
  return { min, max };
}

/** Scales scores to [0, 1] by min and max; all-equal scores become 0. */
export function minMaxNormalize(scores: ArrayLike<number>): Float64Array {
  const { min, max } = scoreRange(scores);
  const range = max - min;
  const normalized = new Float64Array(scores.length);
  if (range > 0)
    for (let index = 0; index < scores.length; index++) normalized[index] = (scores[index]! - min) / range;
  return normalized;
}

/** Mean and population standard deviation. */
export function meanAndDeviation(scores: ArrayLike<number>): { mean: number; deviation: number } {
  const size = scores.length;
  if (size === 0) return { mean: 0, deviation: 0 };
  let sum = 0;
  for (let index = 0; index < size; index++) sum += scores[index]!;
  const mean = sum / size;
  let squares = 0;
  for (let index = 0; index < size; index++) squares += (scores[index]! - mean) ** 2;
  return { mean, deviation: Math.sqrt(squares / size) };
}

/** (s − mean) / std, shifted so the lowest is 0; all-equal scores become 0. */
export function zScoreNormalize(scores: ArrayLike<number>): Float64Array {
  const { mean, deviation } = meanAndDeviation(scores);
  const normalized = new Float64Array(scores.length);
  if (deviation === 0) return normalized;
  let min = Number.POSITIVE_INFINITY;
  for (let index = 0; index < scores.length; index++) {
    normalized[index] = (scores[index]! - mean) / deviation;
    min = Math.min(min, normalized[index]!);
  }
  for (let index = 0; index < scores.length; index++) normalized[index]! -= min;
  return normalized;
}

/** 1 − (rank − 1) / n (ties in corpus order); all-equal scores become 0. */
export function rankNormalize(scores: ArrayLike<number>): Float64Array {
  const normalized = new Float64Array(scores.length);
  if (!hasSpread(scores)) return normalized;
  rankByScore(scores).forEach((document, index) => {
    normalized[document] = 1 - index / scores.length;
  });
  return normalized;
}

function hasSpread(scores: ArrayLike<number>): boolean {
  for (let index = 1; index < scores.length; index++) if (scores[index] !== scores[0]) return true;
  return false;
}

export function normalizeScores(scores: ArrayLike<number>, normalization: ScoreNormalization): Float64Array {
  if (normalization === 'z-score') return zScoreNormalize(scores);
  if (normalization === 'rank') return rankNormalize(scores);
  return minMaxNormalize(scores);
}

/**
 * How sure a route is of its best document: the z-score of its top score, (max − mean) / std,
 * 0 when the route scores every document the same (a BM25 query sharing no word with the
 * haystack). A rare name matched once stands far above the rest; a paraphrase's cosines do not.
 */
export function routeConfidence(scores: ArrayLike<number>): number {
  const { mean, deviation } = meanAndDeviation(scores);
  if (deviation === 0) return 0;
  let max = Number.NEGATIVE_INFINITY;
  for (let index = 0; index < scores.length; index++) max = Math.max(max, scores[index]!);
  return (max - mean) / deviation;
}

/**
 * Query-dependent route weights: each base weight is scaled by the route's confidence relative to
 * the mean confidence of the routes, raised to `power` (1: proportional; higher: the surer route
 * takes more), and the result rescaled to the base weights' sum. A route with no signal
 * (confidence 0) drops out; with equal confidences the base weights stand.
 */
export function adaptWeights(
  base: Readonly<Record<string, number>>,
  confidence: Readonly<Record<string, number>>,
  power = 1,
): Record<string, number> {
  const routes = Object.keys(base).filter((route) => route in confidence);
  const meanConfidence =
    routes.reduce((sum, route) => sum + confidence[route]!, 0) / Math.max(routes.length, 1);
  if (meanConfidence <= 0) return { ...base };
  const scaled: Record<string, number> = { ...base };
  for (const route of routes) scaled[route] = base[route]! * (confidence[route]! / meanConfidence) ** power;
  const baseSum = routes.reduce((sum, route) => sum + base[route]!, 0);
  const scaledSum = routes.reduce((sum, route) => sum + scaled[route]!, 0);
  if (scaledSum > 0) for (const route of routes) scaled[route] = (scaled[route]! * baseSum) / scaledSum;
  return scaled;
}
