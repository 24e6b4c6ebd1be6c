import { rankByScore } from '../core/rank-by-score.js';

/** Scores of every document by one route (bm25, dense, …), in corpus order. */
export type RouteScores = { route: string; scores: ArrayLike<number> };

export type Fusion =
  | { kind: 'rrf'; k: number }
  /** Min-max normalised weighted sum; `weights` by route name (missing routes weigh 0). */
  | { kind: 'weighted'; weights: Readonly<Record<string, number>> };

/** Scales scores to [0, 1] by min and max; all-equal scores become 0. */
export function minMaxNormalize(scores: ArrayLike<number>): Float64Array {
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  for (let index = 0; index < scores.length; index++) {
    min = Math.min(min, scores[index]!);
    max = Math.max(max, scores[index]!);
  }
  const range = max - min;
  const normalized = new Float64Array(scores.length);
  if (range > 0)
    for (let index = 0; index < scores.length; index++) normalized[index] = (scores[index]! - min) / range;
  return normalized;
}

/** 1-based rank of every document within one route (ties in corpus order). */
export function ranksOf(scores: ArrayLike<number>): Int32Array {
  const ranks = new Int32Array(scores.length);
  rankByScore(scores).forEach((document, index) => {
    ranks[document] = index + 1;
  });
  return ranks;
}

/**
 * Fuses routes into one score per document: reciprocal rank fusion (sum of 1 / (k + rank)) or a
 * weighted sum of min-max normalised scores. RRF lets a badly wrong route vote as much as a good
 * one; the weighted sum keeps score gaps.
 */
export function fuseScores(routes: readonly RouteScores[], fusion: Fusion): Float64Array {
  const size = routes[0]?.scores.length ?? 0;
  const fused = new Float64Array(size);
  for (const { route, scores } of routes) {
    if (scores.length !== size)
      throw new Error(`fusion: route ${route} scored ${scores.length} documents, expected ${size}`);
    if (fusion.kind === 'rrf') {
      const ranks = ranksOf(scores);
      for (let document = 0; document < size; document++)
        fused[document]! += 1 / (fusion.k + ranks[document]!);
    } else {
      const weight = fusion.weights[route] ?? 0;
      if (weight === 0) continue;
      const normalized = minMaxNormalize(scores);
      for (let document = 0; document < size; document++) fused[document]! += weight * normalized[document]!;
    }
  }
  return fused;
}
