import { parseLongMemEvalDate, parseTemporalScope } from '../query/temporal-scope.js';

/**
 * Which of these dates fall inside the span of time the question names ("four weeks ago", "last
 * weekend", "in June", "on October 13, 2023"), resolved against the question date by
 * `parseTemporalScope`: 1 inside, 0 outside or undated. Undefined when the question names no
 * span, or has no readable date.
 */
export function datesInScope(
  query: string,
  queryDate: string | undefined,
  dates: readonly (Date | undefined)[],
): Uint8Array | undefined {
  const reference = queryDate === undefined ? undefined : parseLongMemEvalDate(queryDate);
  if (!reference) return undefined;
  const scope = parseTemporalScope(query, reference)?.scope;
  if (!scope) return undefined;
  return Uint8Array.from(dates, (date) => (date && date >= scope.start && date <= scope.end ? 1 : 0));
}

/** The LongMemEval dates of these items (sessions or turns), undefined where absent or unreadable. */
export function parseDates(dates: readonly (string | undefined)[]): (Date | undefined)[] {
  return dates.map((date) => (date === undefined ? undefined : parseLongMemEvalDate(date)));
}

/**
 * The time boost (`--time-boost <weight>`): every item inside the question's span gains `weight`
 * times the spread of the scores (best minus worst), so the weight means the same for fused
 * scores in [0, 1] and raw BM25 scores. A span that holds every item or none changes no order;
 * with no span the scores come back unchanged.
 */
export function boostInScope(
  scores: ArrayLike<number>,
  inScope: Uint8Array | undefined,
  weight: number,
): ArrayLike<number> {
  if (!inScope || weight <= 0 || scores.length === 0) return scores;
  let best = Number.NEGATIVE_INFINITY;
  let worst = Number.POSITIVE_INFINITY;
  for (let index = 0; index < scores.length; index++) {
    best = Math.max(best, scores[index]!);
    worst = Math.min(worst, scores[index]!);
  }
  const bonus = weight * (best > worst ? best - worst : 1);
  return Float64Array.from(scores, (score, index) => score + (inScope[index] ? bonus : 0));
}
