import { rankByScore } from '../core/rank-by-score.js';
import { type Bm25Feedback, bm25FeedbackOn, orderAfterFeedback } from '../lexical/bm25-feedback.js';
import type { RouteScores } from './fusion.js';

/**
 * A fused ranking, refined by BM25 feedback when it is on and `route` is among the routes: the
 * first ranking's top documents feed `rescore`, whose scores replace that route's, the routes are
 * fused again, and the feedback documents keep their places if asked (orderAfterFeedback). The
 * hybrid retriever and session-aware stage 1 share it.
 */
export function rankWithBm25Feedback(options: {
  routes: RouteScores[];
  route: string;
  feedback: Bm25Feedback | undefined;
  /** The route's scores with the query expanded by the given ranking's top documents. */
  rescore: (ranking: readonly number[], feedback: Bm25Feedback) => ArrayLike<number>;
  /** The final scores from the routes as they stand (fusion, time boost). */
  fuse: () => ArrayLike<number>;
}): { scores: ArrayLike<number>; order: number[] } {
  const { routes, route, feedback } = options;
  const scores = options.fuse();
  const order = rankByScore(scores);
  const position = routes.findIndex((scored) => scored.route === route);
  if (position < 0 || !bm25FeedbackOn(feedback)) return { scores, order };
  routes[position] = { route, scores: options.rescore(order, feedback) };
  const second = options.fuse();
  return { scores: second, order: orderAfterFeedback(order, rankByScore(second), feedback) };
}
