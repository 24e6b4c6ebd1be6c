import type { RetrievalHit, RouteTrace } from './retriever.js';
import { cosineSimilarity } from './vector-math.js';

/** A hit that absorbed near-duplicates: their ids, best first. */
export type MergedHit = RetrievalHit & { mergedIds?: string[] };

export type DedupMerge = {
  kept: string;
  removed: string[];
  /** The lowest cosine between the kept hit and one it absorbed. */
  similarity: number;
};

export type DedupOptions = {
  /** Hits from any sources or routes (the same document may appear more than once). */
  hits: readonly RetrievalHit[];
  /** Vector of every document, indexed by `hit.document`. */
  vectors: readonly (Float32Array | undefined)[];
  /** Hits whose document vectors have at least this cosine are merged. Default 0.95. */
  threshold?: number;
};

export type DedupResult = {
  /** The surviving hits, sorted by score (ties keep input order). */
  hits: MergedHit[];
  merges: DedupMerge[];
};

/**
 * Merges near-duplicate hits: taken by descending score, a hit whose document vector has a cosine
 * of at least `threshold` with an already kept hit (the most similar one), or that has the same
 * id or document, is folded into it. The kept hit keeps its own score, gains the routes it lacked
 * (a route both have keeps the better trace: higher score, then lower non-zero rank) and records
 * the absorbed ids in `mergedIds`.
 */
export function mergeNearDuplicates(options: DedupOptions): DedupResult {
  const { hits, vectors } = options;
  const threshold = options.threshold ?? 0.95;
  const order = hits
    .map((hit, position) => ({ hit, position }))
    .sort((left, right) => right.hit.score - left.hit.score || left.position - right.position);

  const kept: MergedHit[] = [];
  const merges = new Map<MergedHit, DedupMerge>();
  for (const { hit } of order) {
    let target: MergedHit | undefined;
    let targetSimilarity = Number.NEGATIVE_INFINITY;
    for (const candidate of kept) {
      const similarity =
        candidate.id === hit.id || candidate.document === hit.document
          ? 1
          : cosineSimilarity(vectors[candidate.document], vectors[hit.document]);
      if (similarity >= threshold && similarity > targetSimilarity) {
        target = candidate;
        targetSimilarity = similarity;
      }
    }
    if (!target) {
      kept.push({ ...hit, routes: { ...hit.routes } });
      continue;
    }
    for (const [route, trace] of Object.entries(hit.routes)) {
      const current = target.routes[route];
      if (!current || better(trace, current)) target.routes[route] = trace;
    }
    const absorbed = [hit.id, ...((hit as MergedHit).mergedIds ?? [])].filter((id) => id !== target.id);
    if (absorbed.length > 0) target.mergedIds = [...new Set([...(target.mergedIds ?? []), ...absorbed])];
    const merge = merges.get(target) ?? { kept: target.id, removed: [], similarity: 1 };
    merge.removed.push(hit.id);
    merge.similarity = Math.min(merge.similarity, targetSimilarity);
    merges.set(target, merge);
  }
  return { hits: kept, merges: [...merges.values()] };
}

function better(candidate: RouteTrace, current: RouteTrace): boolean {
  if (candidate.score !== current.score) return candidate.score > current.score;
  if (candidate.rank > 0 && (current.rank === 0 || candidate.rank < current.rank)) return true;
  return false;
}
