import { selectMmr } from './mmr.js';
import type { Stage } from './stage.js';

/**
 * Maximal marginal relevance (`selectMmr`; lambda default 0.78, duplicate threshold 0.94): selects
 * K for relevance against redundancy; a document's tag is its session id, so same-session turns
 * count as partly redundant.
 */
export function mmrStage(options: { lambda?: number; duplicateThreshold?: number } = {}): Stage {
  const { lambda, duplicateThreshold } = options;
  return {
    name: 'mmr',
    needsVectors: true,
    async apply(pool, { search, documents, finalK, dense, trace }) {
      // The query vector only matters when the scores carry no order; embed it only then.
      const flat = pool.length > 1 && pool.every((hit) => hit.score === pool[0]!.score);
      const queryVector = flat ? await dense!.queryVector(search.query, search.signal) : undefined;
      const selection = selectMmr({
        hits: pool,
        vectors: dense!.vectors(),
        k: finalK,
        tags: (document) => [documents[document]?.sessionId ?? ''],
        ...(queryVector ? { queryVector } : {}),
        ...(lambda === undefined ? {} : { lambda }),
        ...(duplicateThreshold === undefined ? {} : { duplicateThreshold }),
      });
      trace.mmr = selection.decisions.map((decision, position) => ({
        ...decision,
        document: pool[position]!.document,
      }));
      return selection.hits;
    },
  };
}
