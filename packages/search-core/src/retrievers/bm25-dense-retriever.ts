import type { MemoryDocument, RetrievalHit, Retriever } from '../core/retriever.js';
import type { Bm25Feedback } from '../lexical/bm25-feedback.js';
import type { Bm25Options } from '../lexical/bm25-index.js';
import { createBm25Retriever } from '../lexical/bm25-retriever.js';
import type { Tokenizer } from '../lexical/tokenizer.js';
import { rankWithBm25Feedback } from './bm25-feedback-pass.js';
import type { DenseScorer } from './dense-scorer.js';
import { type Fusion, fuseScores, type RouteScores, ranksOf } from './fusion.js';
import { smoothWithNeighbours } from './neighbour-turns.js';
import { boostInScope, datesInScope, parseDates } from './time-boost.js';

export type Bm25DenseRetrieverOptions = {
  /** Which routes to run: `bm25`, `dense`, or both (fused). */
  routes: readonly ('bm25' | 'dense')[];
  tokenizer: Tokenizer;
  dense?: DenseScorer;
  fusion: Fusion;
  /** Keeps haystacks apart in a shared vector store (e.g. the question id). */
  namespace: string;
  /** Dense route only: weight of a turn's neighbour turns in its score (neighbour-turns.ts); 0 or unset: off. */
  denseNeighbours?: number;
  /** Documents dated inside the span the question names gain this share of the score spread (time-boost.ts); 0 or unset: off. */
  timeBoost?: number;
  /** BM25's k1 and b; unset: rank_bm25's 1.5 and 0.75. */
  bm25?: Bm25Options;
  /** BM25 route: the query expanded by the terms of the first ranking's top documents (bm25-feedback.ts); unset: off. */
  bm25Feedback?: Bm25Feedback;
};

/**
 * BM25, dense, or both fused, over one haystack. Every document gets a score from each route;
 * the final score is the route's own (one route) or the fusion of all. Each hit carries every
 * route's score and rank for `explain`.
 */
export function createBm25DenseRetriever(options: Bm25DenseRetrieverOptions): Retriever & {
  /** Route scores of every document (for callers that fuse further). */
  routeScores(query: string, signal?: AbortSignal): Promise<RouteScores[]>;
} {
  const { routes, fusion, namespace } = options;
  if (routes.includes('dense') && !options.dense)
    throw new Error('hybrid retriever: the dense route needs a dense scorer');
  const bm25 = createBm25Retriever({ ...options.bm25, tokenizer: options.tokenizer });
  let documents: readonly MemoryDocument[] = [];
  let dates: (Date | undefined)[] = [];

  const routeScores = async (query: string, signal?: AbortSignal): Promise<RouteScores[]> => {
    const scored: RouteScores[] = [];
    if (routes.includes('bm25')) scored.push({ route: 'bm25', scores: bm25.scoreAll(query) });
    if (routes.includes('dense'))
      scored.push({
        route: 'dense',
        scores: smoothWithNeighbours(
          await options.dense!.scoreAll({ query, signal }),
          documents,
          options.denseNeighbours ?? 0,
        ),
      });
    return scored;
  };

  return {
    id: routes.length === 1 ? routes[0]! : `hybrid:${fusion.kind}`,
    async index({ documents: indexed, signal }) {
      documents = indexed;
      dates = options.timeBoost ? parseDates(documents.map((document) => document.date)) : [];
      // Dense first: a remote vector store stores the vectors while BM25 indexes.
      if (routes.includes('dense')) await options.dense!.index({ documents, namespace, signal });
      if (routes.includes('bm25')) await bm25.index({ documents });
    },
    async search({ query, limit, queryDate, signal }) {
      const scored = await routeScores(query, signal);
      const inScope = options.timeBoost ? datesInScope(query, queryDate, dates) : undefined;
      const { scores: final, order } = rankWithBm25Feedback({
        routes: scored,
        route: 'bm25',
        feedback: options.bm25Feedback,
        rescore: (ranking, feedback) => bm25.scoreWithFeedback(query, ranking, feedback),
        fuse: () =>
          boostInScope(
            scored.length === 1 ? scored[0]!.scores : fuseScores(scored, fusion),
            inScope,
            options.timeBoost ?? 0,
          ),
      });
      const ranks = scored.map(({ route, scores }) => ({ route, scores, ranks: ranksOf(scores) }));
      const hits: RetrievalHit[] = [];
      for (let rank = 0; rank < Math.min(limit, order.length); rank++) {
        const index = order[rank]!;
        const document = documents[index]!;
        const traces: RetrievalHit['routes'] = {};
        for (const route of ranks)
          traces[route.route] = { score: route.scores[index]!, rank: route.ranks[index]! };
        if (inScope) traces.time = { score: inScope[index]!, rank: 0 };
        hits.push({
          document: index,
          id: document.id,
          sessionId: document.sessionId,
          score: final[index]!,
          routes: traces,
        });
      }
      return hits;
    },
    routeScores,
    close: async () => options.dense?.drop(),
  };
}
