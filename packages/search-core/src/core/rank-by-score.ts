/**
 * Document indices ordered by descending score; equal scores keep corpus order (lower index
 * first). This is the tie policy of every lme ranking: deterministic and documented, where the
 * official scripts use numpy's unstable argsort.
 */
export function rankByScore(scores: ArrayLike<number>): number[] {
  const order = Array.from({ length: scores.length }, (_, index) => index);
  order.sort((left, right) => scores[right]! - scores[left]! || left - right);
  return order;
}
