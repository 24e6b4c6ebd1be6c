import type { Bm25Index } from './bm25-index.js';

/**
 * Pseudo-relevance feedback for BM25 (in the manner of RM3): the query is searched once, the
 * `terms` best terms of its top `documents` documents (feedbackTerms in bm25-index.ts) join it,
 * their weights scaled so that together they weigh `weight` times the query's own terms, and the
 * haystack is scored again. Feedback documents come from the caller's first ranking (in a hybrid,
 * the fused one), so BM25 learns the words of what dense found too.
 */
export type Bm25Feedback = {
  documents: number;
  weight: number;
  terms?: number;
  /** The feedback documents keep their first places; the second pass orders the rest. */
  keep?: boolean;
};

/** Expansion terms per query when `terms` is unset. */
export const BM25_FEEDBACK_TERMS = 10;

/** BM25 scores of the query expanded by the terms of `ranking`'s top documents. */
export function bm25FeedbackScores(
  index: Bm25Index,
  queryTerms: readonly string[],
  ranking: readonly number[],
  feedback: Bm25Feedback,
): Float64Array {
  const expansion = index.feedbackTerms(
    ranking.slice(0, feedback.documents),
    feedback.terms ?? BM25_FEEDBACK_TERMS,
    new Set(queryTerms),
  );
  const total = expansion.reduce((sum, { weight }) => sum + weight, 0);
  if (total === 0 || queryTerms.length === 0) return index.scores(queryTerms);
  const scale = (feedback.weight * queryTerms.length) / total;
  return index.scores(
    [...queryTerms, ...expansion.map(({ term }) => term)],
    [...queryTerms.map(() => 1), ...expansion.map(({ weight }) => weight * scale)],
  );
}

/** Feedback that changes nothing (no documents or no weight) is off. */
export const bm25FeedbackOn = (feedback: Bm25Feedback | undefined): feedback is Bm25Feedback =>
  feedback !== undefined && feedback.documents > 0 && feedback.weight > 0;

/**
 * The order after the feedback pass: with `keep`, the feedback documents first, in their first
 * order, then the others in the second pass's order; without it, the second pass's order.
 */
export function orderAfterFeedback(
  firstRanking: readonly number[],
  secondRanking: number[],
  feedback: Bm25Feedback,
): number[] {
  if (!feedback.keep) return secondRanking;
  const kept = firstRanking.slice(0, feedback.documents);
  const isKept = new Set(kept);
  return [...kept, ...secondRanking.filter((document) => !isKept.has(document))];
}
