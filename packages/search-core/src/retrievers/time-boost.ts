import { parseLongMemEvalDate, parseTemporalScope, type TemporalScope } from '../query/temporal-scope.js';
import { scoreRange } from './score-normalization.js';

/**
 * The span of time the question names ("four weeks ago", "last weekend", "in June", "on October
 * 13, 2023"), resolved against the question date by `parseTemporalScope`. Undefined when the
 * question names no span, or has no readable date.
 */
export function questionSpan(query: string, queryDate: string | undefined): TemporalScope | undefined {
  const reference = queryDate === undefined ? undefined : parseLongMemEvalDate(queryDate);
  return reference && parseTemporalScope(query, reference)?.scope;
}

/**
 * Which of these dates fall inside the question's span (`questionSpan`): 1 inside, 0 outside or
 * undated. Undefined when there is no span.
 */
export function datesInScope(
  query: string,
  queryDate: string | undefined,
  dates: readonly (Date | undefined)[],
): Uint8Array | undefined {
  const scope = questionSpan(query, queryDate);
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
  const { min, max } = scoreRange(scores);
  const bonus = weight * (max > min ? max - min : 1);
  return Float64Array.from(scores, (score, index) => score + (inScope[index] ? bonus : 0));
}
