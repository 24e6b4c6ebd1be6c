import type { MemoryDocument, RetrievalHit, Retriever } from '../../core/retriever.js';
import { createBm25Retriever } from '../../lexical/bm25-retriever.js';
import type { Tokenizer } from '../../lexical/tokenizer.js';
import type { DenseScorer } from '../dense-scorer.js';
import { convexFusion, topPool } from './keyword-fusion.js';
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
  /**
   * A keyword leg over the same documents (a lexical retriever, such as BM25 or memini's FTS5 bm25)
   * fused with the vector leg as memini does (keyword-fusion.ts): both legs' top `results`, min-max
   * normalized, `(1 - weight) × vector + weight × keyword`.
   */
  keyword?: { weight: number; leg: Retriever };
};

/** The BM25 keyword leg: SQLite FTS5's bm25() defaults (k1 1.2, b 0.75) over the tokenizer's terms. */
export function bm25KeywordLeg(tokenizer: Tokenizer): Retriever {
  return createBm25Retriever({ tokenizer, k1: 1.2, b: 0.75 });
}

/**
 * MemPalace's raw benchmark mode (`build_palace_and_retrieve` in `benchmarks/longmemeval_bench.py`
 * at 9b7cfc99): one vector per document, a session's being its indexed turns joined by "\n" (a
 * session without any is left out, as they leave it out), the question embedded as it is, and the
 * documents ranked by squared L2 distance between the vectors (Chroma's default space), nearest
 * first, ties in corpus order. A hit's score is minus its distance (after the boost, if any); its
 * dense route's, minus the distance the vector search saw.
 */
export function createSessionDocumentRetriever(options: SessionDocumentRetrieverOptions): Retriever {
  const { dense, namespace, results, boost, keyword } = options;
  let positions: number[] = [];
  let kept: MemoryDocument[] = [];

  return {
    id: `session-document${boost ? `+${boost.kind}` : ''}${keyword ? `+keyword@${keyword.weight}` : ''}`,
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
      await keyword?.leg.index({ documents: kept, signal });
    },
    async search({ query, limit, signal }) {
      if (kept.length === 0) return [];
      const queryVector = await dense.queryVector(query, signal);
      const distances = dense.vectors().map((vector) => squaredDistance(queryVector, vector));
      if (keyword) {
        const lexical = await keyword.leg.search({ query, limit: results, signal });
        return fused(distances, lexical, keyword.weight).slice(0, limit);
      }
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
    close: async () => {
      await keyword?.leg.close?.();
      await dense.drop();
    },
  };

  /** memini's hybrid: each leg's top `results` fused (keyword-fusion.ts), best first. */
  function fused(
    distances: readonly number[],
    keywordHits: readonly RetrievalHit[],
    weight: number,
  ): RetrievalHit[] {
    const vector = topPool(
      distances.map((distance) => -distance),
      results,
    );
    const lexical = new Map(
      keywordHits.filter((hit) => hit.score > 0).map((hit) => [hit.document, hit.score]),
    );
    const vectorRank = new Map([...vector.keys()].map((index, rank) => [index, rank + 1]));
    const lexicalRank = new Map([...lexical.keys()].map((index, rank) => [index, rank + 1]));
    return [...convexFusion(vector, lexical, weight)]
      .sort(
        ([a, left], [b, right]) =>
          right - left || (vectorRank.get(a) ?? Infinity) - (vectorRank.get(b) ?? Infinity) || a - b,
      )
      .map(([index, score]): RetrievalHit => {
        const document = kept[index]!;
        const rank = vectorRank.get(index);
        return {
          document: positions[index]!,
          id: document.id,
          sessionId: document.sessionId,
          score,
          routes: {
            ...(rank === undefined ? {} : { dense: { score: -distances[index]!, rank } }),
            ...(lexical.has(index)
              ? { bm25: { score: lexical.get(index)!, rank: lexicalRank.get(index)! } }
              : {}),
          },
        };
      });
  }
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
