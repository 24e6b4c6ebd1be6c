import { createRequire } from 'node:module';
import type { Component, ParsedResult } from 'chrono-node';

// chrono-node is loaded on first use: a run that never reads a question's time never pays for it.
const require = createRequire(import.meta.url);
let chronoModule: typeof import('chrono-node') | undefined;
function chrono(): typeof import('chrono-node') {
  chronoModule ??= require('chrono-node') as typeof import('chrono-node');
  return chronoModule;
}

/** Which rule turned a temporal expression into a range (for `explain`). */
export type TemporalRule =
  | 'explicit-range'
  | 'rolling'
  | 'ago'
  | 'calendar-week'
  | 'weekend'
  | 'day'
  | 'month'
  | 'year';

/** The stretch of time a question is about: whole UTC days, `start` 00:00 to `end` 23:59:59.999. */
export type TemporalScope = {
  start: Date;
  end: Date;
  /** The words of the question that named it (several joined by ` and `). */
  expression: string;
  rule: TemporalRule;
};

const LONGMEMEVAL_DATE =
  /^\s*(\d{4})\/(\d{1,2})\/(\d{1,2})(?:\s*\([A-Za-z]+\))?(?:\s+(\d{1,2}):(\d{2}))?\s*$/;

/**
 * Parses a LongMemEval date (`2023/05/30 (Tue) 23:40`; the weekday and time are optional) as UTC:
 * the dates carry no zone, so lme reads them all in one (as chrono resolves questions, and as the
 * M-scale builder writes them), and no figure depends on the machine's time zone. Undefined when
 * the text is not in that format.
 */
export function parseLongMemEvalDate(text: string): Date | undefined {
  const match = LONGMEMEVAL_DATE.exec(text);
  if (!match) return undefined;
  const [, year, month, day, hour, minute] = match;
  const date = new Date(
    Date.UTC(Number(year), Number(month) - 1, Number(day), Number(hour ?? 0), Number(minute ?? 0)),
  );
  return Number.isNaN(date.getTime()) ? undefined : date;
}

const NUMBER_WORDS = String.raw`\d+|a|an|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|few|couple(?: of)?|several`;
/** "past two weeks", "last 10 days", "past month", "last few weeks": up to the question date. */
const ROLLING = new RegExp(
  String.raw`^(?:the\s+)?(?:(?:past|recent)\s+(?:(?:${NUMBER_WORDS})\s+)?|(?:last|previous)\s+(?:${NUMBER_WORDS})\s+)(day|week|month|year)s?$`,
  'i',
);
const AGO = /\b(day|week|month|year)s?\s+ago$/i;
const WEEK = /^(?:(last|previous|past)|this)\s+week$/i;
const WEEKEND = /^(?:last|previous|past|(this))?\s*weekend$/i;
/** A bare "weekend" after these is the most recent one ("over the weekend"); after anything else it is generic ("a theme park weekend"). */
const DEFINITE_WEEKEND = /\bthe\s+$/i;
/** A weekday after these is a generic day ("on a Sunday"), not a date. */
const GENERIC_DAY = /\b(?:a|an|every|each|any|per)\s+$/i;
/** Words for the moment of asking: they name no stretch of remembered time ("buy it now or wait?"). */
const PRESENT = /^(?:right\s+)?(?:now|today|tonight|currently|at the moment)$/i;
const BARE_YEAR = /\b(?:in|during|since|of|from|until|by)\s+((?:19|20)\d{2})\b(?![/.-]\d)/gi;
const HALF_UNIT_DAYS = { day: 0, week: 3, month: 15, year: 182 } as const;

/** A UTC calendar date (month 0-11; days and months past their end roll over) at 00:00. */
function utcDay(year: number, month: number, day: number): Date {
  return new Date(Date.UTC(year, month, day));
}
function startOfDay(date: Date): Date {
  return utcDay(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate());
}
function endOfDay(date: Date): Date {
  return new Date(startOfDay(date).getTime() + 86_400_000 - 1);
}
function addDays(date: Date, days: number): Date {
  return utcDay(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate() + days);
}

type Range = { start: Date; end: Date; rule: TemporalRule };

/**
 * The range of one chrono result, by these rules (documented in `TemporalRule`):
 * - `explicit-range`: chrono found a start and an end ("from March 1 to April 5");
 * - `rolling`: "past/recent (N) units", "last/previous N units" → from N units back to the question date;
 * - `ago`: "N units ago" → the point ± half a unit (days: that day; weeks ±3, months ±15, years ±182 days);
 * - `calendar-week`: "last week" → the previous Monday–Sunday week; "this week" → Monday to the question date;
 * - `weekend`: "this weekend" → the Saturday–Sunday of the question's week (asked on a weekday, the
 *   coming one, so a plan); "last/past weekend", "the weekend" → the most recent one;
 * - otherwise by the finest component chrono was certain of: `day` (day or weekday), `month`, `year`.
 * Month-only and weekday-only mentions resolve to the latest occurrence not after the question
 * date: memories are in the past.
 */
function rangeOf(result: ParsedResult, reference: Date): Range | undefined {
  const text = result.text.trim();
  const start = result.start.date();
  const certain = (component: Component) => result.start.isCertain(component);
  if (result.end) {
    return { start: startOfDay(start), end: endOfDay(result.end.date()), rule: 'explicit-range' };
  }
  const rolling = ROLLING.exec(text);
  if (rolling) return { start: startOfDay(start), end: endOfDay(reference), rule: 'rolling' };
  const ago = AGO.exec(text);
  if (ago) {
    const half = HALF_UNIT_DAYS[ago[1]!.toLowerCase() as keyof typeof HALF_UNIT_DAYS];
    return { start: addDays(start, -half), end: endOfDay(addDays(start, half)), rule: 'ago' };
  }
  const week = WEEK.exec(text);
  if (week) {
    const monday = addDays(reference, -((reference.getUTCDay() + 6) % 7));
    return week[1]
      ? { start: addDays(monday, -7), end: endOfDay(addDays(monday, -1)), rule: 'calendar-week' }
      : { start: monday, end: endOfDay(reference), rule: 'calendar-week' };
  }
  const weekend = WEEKEND.exec(text);
  if (weekend?.[1]) {
    // "this weekend" is the one of the question's week: asked on a weekday, the coming one (a plan).
    const saturday = addDays(reference, 5 - ((reference.getUTCDay() + 6) % 7));
    return { start: saturday, end: endOfDay(addDays(saturday, 1)), rule: 'weekend' };
  }
  if (weekend) {
    let day = startOfDay(start);
    if (day > reference) day = addDays(day, -7);
    const saturday = addDays(day, -((day.getUTCDay() + 1) % 7));
    return { start: saturday, end: endOfDay(addDays(saturday, 1)), rule: 'weekend' };
  }
  if (certain('day') || certain('weekday')) {
    let day = startOfDay(start);
    if (!certain('day') && day > reference) day = addDays(day, -7);
    return { start: day, end: endOfDay(day), rule: 'day' };
  }
  if (certain('month')) {
    let year = start.getUTCFullYear();
    const month = start.getUTCMonth();
    if (!certain('year') && utcDay(year, month, 1) > reference) year--;
    return { start: utcDay(year, month, 1), end: endOfDay(utcDay(year, month + 1, 0)), rule: 'month' };
  }
  if (certain('year')) {
    const year = start.getUTCFullYear();
    return { start: utcDay(year, 0, 1), end: endOfDay(utcDay(year, 11, 31)), rule: 'year' };
  }
  return undefined; // a time of day alone ("at 5pm") names no span of days
}

/**
 * The temporal scope of a question: the union span of every dated expression chrono finds,
 * relative to the question date. Generic weekdays ("on a Sunday") and weekends ("a theme park
 * weekend"), the present ("now", "today") and spans that start after the question date ("next
 * week", "this weekend" on a weekday) are ignored. Undefined when the
 * question names no time ("How many weeks ago did I …" asks for a duration, not a span).
 */
export function parseTemporalScope(
  question: string,
  reference: Date,
): { scope: TemporalScope; spans: { index: number; length: number }[] } | undefined {
  // Offset 0: chrono resolves in UTC, the zone the dates are read in, not the machine's.
  const results = chrono().parse(question, { instant: reference, timezone: 0 }, { forwardDate: false });
  const ranges: (Range & { text: string; index: number })[] = [];
  for (const result of results) {
    const weekdayOnly =
      result.start.isCertain('weekday') && !result.start.isCertain('day') && !result.start.isCertain('month');
    if (weekdayOnly && GENERIC_DAY.test(question.slice(0, result.index))) continue;
    if (/^weekend$/i.test(result.text.trim()) && !DEFINITE_WEEKEND.test(question.slice(0, result.index)))
      continue;
    if (PRESENT.test(result.text.trim())) continue;
    const range = rangeOf(result, reference);
    // Memories are in the past: a span that starts after the question date ("next week") is a plan.
    if (range && range.start <= reference)
      ranges.push({ ...range, text: result.text.trim(), index: result.index });
  }
  // chrono reads no bare year ("in 2022"): a preposition and a four-digit year is that year.
  for (const match of question.matchAll(BARE_YEAR)) {
    const index = match.index + match[0].length - match[1]!.length;
    if (ranges.some((range) => index >= range.index && index < range.index + range.text.length)) continue;
    const year = Number(match[1]);
    ranges.push({
      start: utcDay(year, 0, 1),
      end: endOfDay(utcDay(year, 11, 31)),
      rule: 'year',
      text: match[1]!,
      index,
    });
  }
  ranges.sort((left, right) => left.index - right.index);
  const first = ranges[0];
  if (!first) return undefined;
  let { start, end } = first;
  for (const range of ranges) {
    if (range.start < start) start = range.start;
    if (range.end > end) end = range.end;
  }
  return {
    scope: {
      start,
      end,
      expression: ranges.map((range) => range.text).join(' and '),
      rule: ranges.length === 1 ? first.rule : 'explicit-range',
    },
    spans: ranges.map((range) => ({ index: range.index, length: range.text.length })),
  };
}
