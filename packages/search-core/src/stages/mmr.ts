import type { RetrievalHit } from '../core/retriever.js';
import { cosineSimilarity } from '../core/vector-math.js';
import { minMaxNormalize } from '../retrievers/fusion.js';

/** |A ∩ B| / |A ∪ B|; 0 when both are empty. */
export function jaccard(left: readonly string[], right: readonly string[]): number {
  const leftSet = new Set(left);
  const rightSet = new Set(right);
  let shared = 0;
  for (const tag of leftSet) if (rightSet.has(tag)) shared++;
  const union = leftSet.size + rightSet.size - shared;
  return union === 0 ? 0 : shared / union;
}

/** Weight of tag overlap against vector similarity in the redundancy of MMR. */
export const MMR_TAG_WEIGHT = 0.35;

export type MmrOptions = {
  /** Candidates, best first. */
  hits: readonly RetrievalHit[];
  /** Vector of every document, indexed by `hit.document` (e.g. `DenseScorer.vectors()`). */
  vectors: readonly (Float32Array | undefined)[];
  /**
   * Used for relevance only when the hit scores carry no order (all equal): relevance is then the
   * min-max normalised cosine of each document with the query.
   */
  queryVector?: Float32Array;
  /** Relevance against diversity: 1 is pure relevance order. Default 0.78. */
  lambda?: number;
  /** A candidate this similar (cosine) to a selected hit is skipped as its duplicate. Default 0.94. */
  duplicateThreshold?: number;
  /** How many hits to select. */
  k: number;
  /** Tags of a document (session id, topics, entities…) for tag redundancy. */
  tags?: (documentIndex: number) => readonly string[];
};

export type MmrDecision = {
  id: string;
  /** 1-based position in the MMR selection; absent when not selected. */
  selectedAt?: number;
  /** Min-max normalised relevance. */
  relevance: number;
  /** Redundancy with the hits selected before it (for unselected hits: with the whole selection). */
  redundancy: number;
  /** lambda × relevance − (1 − lambda) × redundancy, at the same moment. */
  mmrScore: number;
  /** Id of the selected hit it was skipped as a near-duplicate of. */
  skippedAsDuplicateOf?: string;
};

export type MmrResult = {
  /** The selection in MMR order, then every other hit in input order. */
  hits: RetrievalHit[];
  /** One decision per input hit, in input order. */
  decisions: MmrDecision[];
};

/**
 * Maximal Marginal Relevance: repeatedly selects the candidate with the highest
 * lambda × relevance − (1 − lambda) × redundancy, where relevance is the min-max normalised hit
 * score and redundancy is the maximum over the hits already selected of
 * max(cosine(candidate, selected), 0.35 × Jaccard(tags(candidate), tags(selected))).
 * A candidate whose cosine with a selected hit reaches `duplicateThreshold` is skipped for good.
 * Ties go to the earlier hit. Hits keep their score; each gains a route `mmr`
 * (score = its MMR score, rank = its selection position, 0 when not selected).
 */
export function selectMmr(options: MmrOptions): MmrResult {
  const { hits, vectors, k } = options;
  const lambda = options.lambda ?? 0.78;
  const duplicateThreshold = options.duplicateThreshold ?? 0.94;
  const tagsOf = hits.map((hit) => options.tags?.(hit.document) ?? []);
  const vectorOf = hits.map((hit) => vectors[hit.document]);

  let relevance = minMaxNormalize(hits.map((hit) => hit.score));
  if (options.queryVector && hits.every((hit) => hit.score === hits[0]!.score)) {
    const query = options.queryVector;
    relevance = minMaxNormalize(vectorOf.map((vector) => cosineSimilarity(query, vector)));
  }

  const decisions: MmrDecision[] = hits.map((hit, position) => ({
    id: hit.id,
    relevance: relevance[position]!,
    redundancy: 0,
    mmrScore: lambda * relevance[position]!,
  }));
  // Running max redundancy of every candidate against the selection, updated per selection.
  const redundancy = new Float64Array(hits.length);
  const open = new Set(hits.map((_, position) => position));
  const selected: number[] = [];

  while (selected.length < k && open.size > 0) {
    let best = -1;
    let bestScore = Number.NEGATIVE_INFINITY;
    for (const position of open) {
      const score = lambda * relevance[position]! - (1 - lambda) * redundancy[position]!;
      if (score > bestScore) {
        best = position;
        bestScore = score;
      }
    }
    open.delete(best);
    selected.push(best);
    const decision = decisions[best]!;
    decision.selectedAt = selected.length;
    decision.redundancy = redundancy[best]!;
    decision.mmrScore = bestScore;

    for (const position of open) {
      const cosine = cosineSimilarity(vectorOf[position], vectorOf[best]);
      if (cosine >= duplicateThreshold) {
        open.delete(position);
        decisions[position]!.skippedAsDuplicateOf = hits[best]!.id;
        decisions[position]!.redundancy = Math.max(redundancy[position]!, cosine);
        decisions[position]!.mmrScore =
          lambda * relevance[position]! - (1 - lambda) * decisions[position]!.redundancy;
        continue;
      }
      const tagOverlap = MMR_TAG_WEIGHT * jaccard(tagsOf[position]!, tagsOf[best]!);
      redundancy[position] = Math.max(redundancy[position]!, cosine, tagOverlap);
    }
  }
  for (const position of open) {
    const decision = decisions[position]!;
    decision.redundancy = redundancy[position]!;
    decision.mmrScore = lambda * relevance[position]! - (1 - lambda) * redundancy[position]!;
  }

  const withTrace = (position: number): RetrievalHit => {
    const hit = hits[position]!;
    const decision = decisions[position]!;
    return {
      ...hit,
      routes: { ...hit.routes, mmr: { score: decision.mmrScore, rank: decision.selectedAt ?? 0 } },
    };
  };
  const chosen = new Set(selected);
  return {
    hits: [
      ...selected.map(withTrace),
      ...hits
        .map((_, position) => position)
        .filter((position) => !chosen.has(position))
        .map(withTrace),
    ],
    decisions,
  };
}
