import type { MemoryDocument, RetrievalHit } from '../core/retriever.js';
import { type CandidateReranker, emptyRerankUsage, type RerankUsage } from './reranker.js';

/** How one hit moved in the rerank stage. */
export type RerankChange = {
  id: string;
  rank_before: number;
  rank_after: number;
  score_before: number;
  score_after: number;
};

/** What the rerank stage did for one question (explain.jsonl `rerank`). */
export type RerankTrace = {
  reranker: string;
  /** `--rerank-depth`: candidates asked for. */
  depth: number;
  /** Candidates actually reranked (fewer when the base returned fewer). */
  candidates: number;
  /** Why the incoming order was kept (the reranker's error), when it was. */
  fallback?: string;
  /** Ids the reranker's reply left out (kept after the ones it ranked, in incoming order). */
  missing: string[];
  usage: RerankUsage;
  ms: number;
  /** One entry per reranked hit, in the new order. */
  changes: RerankChange[];
};

export type RerankHitsOptions = {
  reranker: CandidateReranker;
  query: string;
  /** The base ranking, best first. */
  hits: readonly RetrievalHit[];
  /** The indexed documents (`hit.document` indexes them): the text the reranker reads. */
  documents: readonly MemoryDocument[];
  depth: number;
  signal?: AbortSignal;
};

/**
 * The rerank stage: the top `depth` hits go to the reranker and come back in its order with its
 * score (the incoming score and rank stay in the `rerank_input` route); hits below the depth keep
 * their order after them. A reranker error never loses the question: the incoming order is kept
 * and the error recorded in the trace. An abort is not a reranker error and propagates.
 */
export async function rerankHits(
  options: RerankHitsOptions,
): Promise<{ hits: RetrievalHit[]; trace: RerankTrace }> {
  const { reranker, hits, documents, signal } = options;
  const started = performance.now();
  const head = hits.slice(0, Math.max(0, options.depth));
  const tail = hits.slice(head.length);
  const trace: RerankTrace = {
    reranker: reranker.id,
    depth: options.depth,
    candidates: head.length,
    missing: [],
    usage: emptyRerankUsage(),
    ms: 0,
    changes: [],
  };
  let order = head.map((_, position) => position);
  let scores = head.map((hit) => hit.score);
  if (head.length > 1) {
    try {
      const result = await reranker.rerank({
        query: options.query,
        candidates: head.map((hit) => ({
          id: hit.id,
          sessionId: hit.sessionId,
          text: documents[hit.document]?.text ?? '',
          score: hit.score,
          routes: hit.routes,
        })),
        ...(signal ? { signal } : {}),
      });
      if (!isPermutation(result.order, head.length))
        throw new Error(
          `reranker ${reranker.id} returned an order that is not a permutation of ${head.length} candidates`,
        );
      order = result.order;
      scores = result.scores;
      trace.usage = result.usage;
      trace.missing = result.missing.map((position) => head[position]!.id);
    } catch (error) {
      if (signal?.aborted) throw signal.reason ?? error;
      trace.fallback = error instanceof Error ? error.message : String(error);
    }
  }
  const reranked = order.map((position, rank) => {
    const hit = head[position]!;
    const score = scores[position]!;
    trace.changes.push({
      id: hit.id,
      rank_before: position + 1,
      rank_after: rank + 1,
      score_before: hit.score,
      score_after: score,
    });
    return {
      ...hit,
      score,
      routes: { ...hit.routes, rerank_input: { score: hit.score, rank: position + 1 } },
    };
  });
  trace.ms = performance.now() - started;
  return { hits: [...reranked, ...tail], trace };
}

function isPermutation(order: readonly number[], size: number): boolean {
  if (order.length !== size) return false;
  const seen = new Set(order);
  return (
    seen.size === size &&
    order.every((position) => Number.isInteger(position) && position >= 0 && position < size)
  );
}
