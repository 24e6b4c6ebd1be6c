import type { MemoryDocument, RetrievalHit, Retriever } from '../../core/retriever.js';
import type { DenseScorer } from '../dense-scorer.js';
import { extractKeywords, keywordOverlap } from './keyword-overlap.js';
import { namesPredicatesDistance, namesPredicatesQuery } from './names-predicates.js';

export type SessionDocumentRetrieverOptions = {
  dense: DenseScorer;
  namespace: string;
  /** How many documents the vector search returns (their `n_results`, 50); none beyond. */
  results: number;
  /**
   * `keyword-overlap`: MemPalace's hybrid v1 rerank of those results, each distance times
   * `1 - weight * overlap` (their `hybrid_weight`, 0.30). `names-predicates`: their LoCoMo hybrid
   * v5 (names-predicates.ts), with its own weights.
   */
  boost?: { kind: 'keyword-overlap'; weight: number } | { kind: 'names-predicates' };
};

/**
 * MemPalace's raw benchmark mode (`build_palace_and_retrieve` in `benchmarks/longmemeval_bench.py`
 * at 9b7cfc99): one vector per document, a session's being its indexed turns joined by "\n" (a
 * session without any is left out, as they leave it out), the question embedded as it is, and the
 * documents ranked by squared L2 distance between the vectors (Chroma's default space), nearest
 * first, ties in corpus order. A hit's score is minus its distance (after the boost, if any); its
 * dense route's, minus the distance the vector search saw.
 */
export function createSessionDocumentRetriever(options: SessionDocumentRetrieverOptions): Retriever {
  const { dense, namespace, results, boost } = options;
  let positions: number[] = [];
  let kept: MemoryDocument[] = [];

  return {
    id: boost ? `session-document+${boost.kind}` : 'session-document',
    async index({ documents, signal }) {
      positions = [];
      kept = [];
      documents.forEach((document, position) => {
        if (document.parts?.length === 0) return;
        positions.push(position);
        const { parts, ...rest } = document;
        kept.push(parts ? { ...rest, text: parts.join('\n') } : rest);
      });
      await dense.index({ documents: kept, namespace, signal });
    },
    async search({ query, limit, signal }) {
      if (kept.length === 0) return [];
      const queryVector = await dense.queryVector(query, signal);
      const distances = dense.vectors().map((vector) => squaredDistance(queryVector, vector));
      let ranked = distances
        .map((distance, index) => ({ index, distance }))
        .sort((a, b) => a.distance - b.distance || a.index - b.index)
        .slice(0, results)
        .map((entry, rank) => ({ ...entry, rank: rank + 1, fused: entry.distance }));
      if (boost) {
        const fuse = boostOf(boost, query);
        // Their stable sort keeps the vector search's order between equal fused distances.
        ranked = ranked
          .map((entry) => ({ ...entry, fused: fuse(entry.distance, kept[entry.index]!.text) }))
          .sort((a, b) => a.fused - b.fused);
      }
      return ranked.slice(0, limit).map(({ index, distance, rank, fused }): RetrievalHit => {
        const document = kept[index]!;
        return {
          document: positions[index]!,
          id: document.id,
          sessionId: document.sessionId,
          score: -fused,
          routes: { dense: { score: -distance, rank } },
        };
      });
    },
    close: () => dense.drop(),
  };
}

/** A boost's fused distance of one result, for one question. */
function boostOf(
  boost: NonNullable<SessionDocumentRetrieverOptions['boost']>,
  query: string,
): (distance: number, text: string) => number {
  if (boost.kind === 'names-predicates') {
    const parsed = namesPredicatesQuery(query);
    return (distance, text) => namesPredicatesDistance(distance, parsed, text);
  }
  const keywords = extractKeywords(query);
  return (distance, text) => distance * (1 - boost.weight * keywordOverlap(keywords, text));
}

function squaredDistance(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += (a[i]! - b[i]!) ** 2;
  return sum;
}
