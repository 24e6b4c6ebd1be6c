/**
 * memini's hybrid fusion (eleboucher/memini `bench/README.md`, "convex score fusion"): each leg's
 * pool (its top `pool` documents) min-max normalized to [0, 1], then `(1 - weight) × vector +
 * weight × keyword`; a document outside a leg's pool, or with no keyword match, gets 0 from it.
 * Returns the fused score of every document in either pool.
 */
export function convexFusion(
  vector: ReadonlyMap<number, number>,
  keyword: ReadonlyMap<number, number>,
  weight: number,
): Map<number, number> {
  const normalized = (scores: ReadonlyMap<number, number>) => {
    const values = [...scores.values()];
    const low = Math.min(...values);
    const span = Math.max(...values) - low;
    return new Map([...scores].map(([index, score]) => [index, span > 0 ? (score - low) / span : 1]));
  };
  const v = normalized(vector);
  const k = normalized(keyword);
  const fused = new Map<number, number>();
  for (const index of new Set([...v.keys(), ...k.keys()]))
    fused.set(index, (1 - weight) * (v.get(index) ?? 0) + weight * (k.get(index) ?? 0));
  return fused;
}

/** The top `pool` of `scores` (higher first, earlier index first on a tie), as index → score. */
export function topPool(
  scores: ArrayLike<number>,
  pool: number,
  keep = (_score: number) => true,
): Map<number, number> {
  const order = Array.from({ length: scores.length }, (_, index) => index)
    .filter((index) => keep(scores[index]!))
    .sort((a, b) => scores[b]! - scores[a]! || a - b)
    .slice(0, pool);
  return new Map(order.map((index) => [index, scores[index]!]));
}
