import type { RouteSettings } from '../../components/retrievers/retriever-descriptor.js';
import { BM25_FEEDBACK_WEIGHT } from '../../config/run-config.js';
import type { RoutesSection } from '../../config/sections/routes-section.js';

/**
 * The route settings the pipeline hands every base retriever (those it reads are its
 * descriptor's capabilities): the dense neighbours, the time boost, BM25's k1 and b and its
 * feedback; a setting left unset is absent.
 */
export function routeSettingsOf(
  routes: Pick<
    RoutesSection,
    | 'denseNeighbours'
    | 'timeBoost'
    | 'bm25K1'
    | 'bm25B'
    | 'bm25FeedbackDocs'
    | 'bm25FeedbackWeight'
    | 'bm25FeedbackKeep'
  >,
): RouteSettings {
  return {
    ...(routes.denseNeighbours ? { denseNeighbours: routes.denseNeighbours } : {}),
    ...(routes.timeBoost ? { timeBoost: routes.timeBoost } : {}),
    ...(routes.bm25K1 !== undefined || routes.bm25B !== undefined
      ? {
          bm25: {
            ...(routes.bm25K1 !== undefined ? { k1: routes.bm25K1 } : {}),
            ...(routes.bm25B !== undefined ? { b: routes.bm25B } : {}),
          },
        }
      : {}),
    ...(routes.bm25FeedbackDocs
      ? {
          bm25Feedback: {
            documents: routes.bm25FeedbackDocs,
            weight: routes.bm25FeedbackWeight ?? BM25_FEEDBACK_WEIGHT,
            ...(routes.bm25FeedbackKeep ? { keep: true } : {}),
          },
        }
      : {}),
  };
}
