import * as chrono from 'chrono-node';
import nlp from 'compromise';

/** How a question asks: drives the default signal weights of `rankMultiSignal`. */
export type QueryClass = 'factual' | 'procedural' | 'exploratory' | 'analytical';

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

/** The stretch of time a question is about: whole local days, `start` 00:00 to `end` 23:59:59.999. */
export type TemporalScope = {
  start: Date;
  end: Date;
  /** The words of the question that named it (several joined by ` and `). */
  expression: string;
  rule: TemporalRule;
};

export type EntitySource = 'quoted' | 'name' | 'noun';

export type QueryUnderstanding = {
  temporalScope?: TemporalScope;
  /** Quoted strings, capitalised names, then noun phrases; unique case-insensitively. */
  entities: string[];
  queryClass: QueryClass;
  /** The question date everything relative was resolved against. */
  referenceDate: Date;
  explain: {
    /** The text of the cue that chose the class; absent for `factual` (no cue). */
    classCue?: string;
    entitySources: { entity: string; source: EntitySource }[];
  };
};

export type UnderstandQueryOptions = {
  question: string;
  /** LongMemEval format `2023/05/30 (Tue) 23:40`, or a Date. */
  questionDate: string | Date;
};

const LONGMEMEVAL_DATE =
  /^\s*(\d{4})\/(\d{1,2})\/(\d{1,2})(?:\s*\([A-Za-z]+\))?(?:\s+(\d{1,2}):(\d{2}))?\s*$/;

/**
 * Parses a LongMemEval date (`2023/05/30 (Tue) 23:40`; the weekday and time are optional) into a
 * Date in the process's time zone, the zone chrono resolves relative expressions in. Undefined
 * when the text is not in that format.
 */
export function parseLongMemEvalDate(text: string): Date | undefined {
  const match = LONGMEMEVAL_DATE.exec(text);
  if (!match) return undefined;
  const [, year, month, day, hour, minute] = match;
  const date = new Date(Number(year), Number(month) - 1, Number(day), Number(hour ?? 0), Number(minute ?? 0));
  return Number.isNaN(date.getTime()) ? undefined : date;
}

/**
 * Cues of each non-factual class, checked in this order (the first class with a matching cue
 * wins; no cue means `factual`):
 * - procedural: "how to", "how do/can/should I", "steps", "instructions";
 * - analytical: "why", "compare", "difference", "versus", "how many/much/often", "in what order",
 *   "which … first/last/earlier/later/more/most", "total", "average";
 * - exploratory: "recommend", "suggest", "idea(s)", "advice", "tips", "what should/could I".
 */
export const QUERY_CLASS_CUES = {
  procedural: [
    /\bhow to\b/i,
    /\bhow (?:do|can|should|would) (?:i|we|you)\b/i,
    /\bsteps?\b/i,
    /\binstructions?\b/i,
  ],
  analytical: [
    /\bwhy\b/i,
    /\bcompar(?:e|ed|ing|ison)\b/i,
    /\bdifference\b/i,
    /\b(?:versus|vs\.?)(?=\s|$)/i,
    /\bhow (?:many|much|often)\b/i,
    /\bin (?:the|what|which) order\b/i,
    /\bwhich\b.*\b(?:first|last|earlier|later|more|most|fewer|less)\b/i,
    /\btotal\b/i,
    /\baverage\b/i,
  ],
  exploratory: [
    /\brecommend\w*/i,
    /\bsuggest\w*/i,
    /\bideas?\b/i,
    /\badvice\b/i,
    /\btips\b/i,
    /\bwhat (?:should|could) i\b/i,
  ],
} as const satisfies Record<Exclude<QueryClass, 'factual'>, readonly RegExp[]>;

/** The class of a question by the first cue of `QUERY_CLASS_CUES` it contains. */
export function classifyQuery(question: string): { queryClass: QueryClass; cue?: string } {
  for (const [queryClass, cues] of Object.entries(QUERY_CLASS_CUES) as [QueryClass, readonly RegExp[]][]) {
    for (const cue of cues) {
      const match = cue.exec(question);
      if (match) return { queryClass, cue: match[0] };
    }
  }
  return { queryClass: 'factual' };
}

/**
 * Reads a question the way the later stages need it: the time span it is about (resolved with
 * chrono against the question date), the entities it names, and its class.
 */
export function understandQuery({ question, questionDate }: UnderstandQueryOptions): QueryUnderstanding {
  const referenceDate = typeof questionDate === 'string' ? parseLongMemEvalDate(questionDate) : questionDate;
  if (!referenceDate || Number.isNaN(referenceDate.getTime()))
    throw new Error(
      `query understanding: question date "${String(questionDate)}" is not YYYY/MM/DD (Day) HH:MM`,
    );
  const temporal = parseTemporalScope(question, referenceDate);
  const { queryClass, cue } = classifyQuery(question);
  const entitySources = extractEntities(question, temporal?.spans ?? []);
  return {
    ...(temporal ? { temporalScope: temporal.scope } : {}),
    entities: entitySources.map(({ entity }) => entity),
    queryClass,
    referenceDate,
    explain: { ...(cue ? { classCue: cue } : {}), entitySources },
  };
}

// ---------------------------------------------------------------------------------------------
// Temporal scope

const NUMBER_WORDS = String.raw`\d+|a|an|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|few|couple(?: of)?|several`;
/** "past two weeks", "last 10 days", "past month", "last few weeks": up to the question date. */
const ROLLING = new RegExp(
  String.raw`^(?:the\s+)?(?:(?:past|recent)\s+(?:(?:${NUMBER_WORDS})\s+)?|(?:last|previous)\s+(?:${NUMBER_WORDS})\s+)(day|week|month|year)s?$`,
  'i',
);
const AGO = /\b(day|week|month|year)s?\s+ago$/i;
const WEEK = /^(?:(last|previous|past)|this)\s+week$/i;
const WEEKEND = /^(?:last|previous|this|past)?\s*weekend$/i;
/** A weekday after these is a generic day ("on a Sunday"), not a date. */
const GENERIC_DAY = /\b(?:a|an|every|each|any|per)\s+$/i;
const BARE_YEAR = /\b(?:in|during|since|of|from|until|by)\s+((?:19|20)\d{2})\b(?![/.-]\d)/gi;
const HALF_UNIT_DAYS = { day: 0, week: 3, month: 15, year: 182 } as const;

function startOfDay(date: Date): Date {
  return new Date(date.getFullYear(), date.getMonth(), date.getDate());
}
function endOfDay(date: Date): Date {
  return new Date(date.getFullYear(), date.getMonth(), date.getDate(), 23, 59, 59, 999);
}
function addDays(date: Date, days: number): Date {
  return new Date(date.getFullYear(), date.getMonth(), date.getDate() + days);
}

type Range = { start: Date; end: Date; rule: TemporalRule };

/**
 * The range of one chrono result, by these rules (documented in `TemporalRule`):
 * - `explicit-range`: chrono found a start and an end ("from March 1 to April 5");
 * - `rolling`: "past/recent (N) units", "last/previous N units" → from N units back to the question date;
 * - `ago`: "N units ago" → the point ± half a unit (days: that day; weeks ±3, months ±15, years ±182 days);
 * - `calendar-week`: "last week" → the previous Monday–Sunday week; "this week" → Monday to the question date;
 * - `weekend`: the Saturday–Sunday of the most recent weekend (or of the one chrono names);
 * - otherwise by the finest component chrono was certain of: `day` (day or weekday), `month`, `year`.
 * Month-only and weekday-only mentions resolve to the latest occurrence not after the question
 * date: memories are in the past.
 */
function rangeOf(result: chrono.ParsedResult, reference: Date): Range | undefined {
  const text = result.text.trim();
  const start = result.start.date();
  const certain = (component: chrono.Component) => result.start.isCertain(component);
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
    const monday = addDays(reference, -((reference.getDay() + 6) % 7));
    return week[1]
      ? { start: addDays(monday, -7), end: endOfDay(addDays(monday, -1)), rule: 'calendar-week' }
      : { start: monday, end: endOfDay(reference), rule: 'calendar-week' };
  }
  if (WEEKEND.test(text)) {
    let day = startOfDay(start);
    if (day > reference) day = addDays(day, -7);
    const saturday = addDays(day, -((day.getDay() + 1) % 7));
    return { start: saturday, end: endOfDay(addDays(saturday, 1)), rule: 'weekend' };
  }
  if (certain('day') || certain('weekday')) {
    let day = startOfDay(start);
    if (!certain('day') && day > reference) day = addDays(day, -7);
    return { start: day, end: endOfDay(day), rule: 'day' };
  }
  if (certain('month')) {
    let year = start.getFullYear();
    const month = start.getMonth();
    if (!certain('year') && new Date(year, month, 1) > reference) year--;
    return { start: new Date(year, month, 1), end: endOfDay(new Date(year, month + 1, 0)), rule: 'month' };
  }
  if (certain('year')) {
    const year = start.getFullYear();
    return { start: new Date(year, 0, 1), end: endOfDay(new Date(year, 11, 31)), rule: 'year' };
  }
  return undefined; // a time of day alone ("at 5pm") names no span of days
}

/**
 * The temporal scope of a question: the union span of every dated expression chrono finds,
 * relative to the question date; generic weekdays ("on a Sunday") are ignored. Undefined when
 * the question names no time ("How many weeks ago did I …" asks for a duration, not a span).
 */
export function parseTemporalScope(
  question: string,
  reference: Date,
): { scope: TemporalScope; spans: { index: number; length: number }[] } | undefined {
  const results = chrono.parse(question, { instant: reference }, { forwardDate: false });
  const ranges: (Range & { text: string; index: number })[] = [];
  for (const result of results) {
    const weekdayOnly =
      result.start.isCertain('weekday') && !result.start.isCertain('day') && !result.start.isCertain('month');
    if (weekdayOnly && GENERIC_DAY.test(question.slice(0, result.index))) continue;
    const range = rangeOf(result, reference);
    if (range) ranges.push({ ...range, text: result.text.trim(), index: result.index });
  }
  // chrono reads no bare year ("in 2022"): a preposition and a four-digit year is that year.
  for (const match of question.matchAll(BARE_YEAR)) {
    const index = match.index + match[0].length - match[1]!.length;
    if (ranges.some((range) => index >= range.index && index < range.index + range.text.length)) continue;
    const year = Number(match[1]);
    ranges.push({
      start: new Date(year, 0, 1),
      end: endOfDay(new Date(year, 11, 31)),
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

// ---------------------------------------------------------------------------------------------
// Entities

const QUOTED = /(?<![\p{L}\p{N}])["“'‘]([^"“”'‘’\n]{2,80}?)["”'’](?![\p{L}\p{N}])/gu;
const CAPITALISED = /[A-Z][\p{L}\p{N}&'’.-]*/u;
const NAME = new RegExp(
  String.raw`(?<![\p{L}\p{N}])${CAPITALISED.source}(?:\s+(?:(?:of|the|de|la|du|van|von|and|&)\s+)*${CAPITALISED.source})*`,
  'gu',
);
const CALENDAR_WORDS = new Set(
  (
    'monday tuesday wednesday thursday friday saturday sunday january february march april may june july ' +
    'august september october november december'
  ).split(' '),
);
/** Words that start a question or stand for the speaker; never an entity on their own. */
const NON_NAME_WORDS = new Set(
  (
    'i im ive id ill what where when who whom whose which why how can could would should will shall do does ' +
    'did is are was were have has had may might must my our your the a an in on at for to and or but if ' +
    'please hey hi hello also so yes no ok okay'
  ).split(' '),
);
/** Nouns every conversation question uses; they name nothing to look for. */
const GENERIC_NOUNS = new Set(
  (
    'name names thing things stuff time times day days week weeks month months year years ago lot lots way ' +
    'kind type order question questions chat chats conversation conversations discussion i me you'
  ).split(' '),
);

function plainWord(word: string): string {
  return word.toLowerCase().replace(/[’']/g, '');
}

function cleanName(name: string): string {
  return name
    .replace(/['’]s$/u, '')
    .replace(/[.'’-]+$/u, '')
    .trim();
}

/** Entities of a question in order: quoted strings, capitalised names, then compromise's nouns. */
function extractEntities(
  question: string,
  temporalSpans: readonly { index: number; length: number }[],
): { entity: string; source: EntitySource }[] {
  const found: { entity: string; source: EntitySource }[] = [];
  const seen = new Set<string>();
  const add = (entity: string, source: EntitySource) => {
    const key = entity.toLowerCase();
    if (entity.length < 2 || seen.has(key)) return;
    seen.add(key);
    found.push({ entity, source });
  };
  // Spans already taken (temporal words, quotes, names) are blanked before noun extraction, with
  // a comma so compromise does not join the words around them into one phrase.
  const taken = temporalSpans.map((span) => ({ ...span }));

  for (const match of question.matchAll(QUOTED)) {
    add(match[1]!.trim(), 'quoted');
    taken.push({ index: match.index, length: match[0].length });
  }
  for (const match of question.matchAll(NAME)) {
    const overlapsTaken = taken.some(
      (span) => match.index < span.index + span.length && span.index < match.index + match[0].length,
    );
    let words = match[0].split(/\s+/);
    const sentenceStart = match.index === 0 || /[.!?]\s*$/.test(question.slice(0, match.index));
    // Drop leading question words and pronouns ("Where", "Can", "I'm") and calendar words.
    while (words.length > 0 && NON_NAME_WORDS.has(plainWord(words[0]!))) words = words.slice(1);
    while (words.length > 0 && /^(?:of|the|de|la|du|van|von|and|&)$/i.test(words[0]!)) words = words.slice(1);
    const name = cleanName(words.join(' '));
    const single = words.length === 1;
    if (!name || overlapsTaken) continue;
    if (single && (CALENDAR_WORDS.has(plainWord(name)) || (sentenceStart && words[0] === match[0]))) continue;
    add(name, 'name');
    // A single capitalised word often heads a noun phrase ("Korean restaurants"): left for nouns too.
    if (!single) taken.push({ index: match.index, length: match[0].length });
  }

  let blanked = question;
  for (const span of [...taken].sort((left, right) => right.index - left.index))
    blanked = blanked.slice(0, span.index) + ' , ' + blanked.slice(span.index + span.length);
  const nouns: string[] = nlp(blanked).match('#Noun+').not('(#Pronoun|#Determiner)').out('array');
  for (const phrase of nouns) {
    const words = phrase
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s&'’-]/gu, ' ')
      .split(/\s+/)
      .map((word) => word.replace(/^['’-]+|['’-]+$/g, '').replace(/['’]s$/, ''))
      .filter((word) => word && !NON_NAME_WORDS.has(plainWord(word)));
    const noun = words.join(' ');
    if (!noun || /^\d+$/.test(noun) || GENERIC_NOUNS.has(noun) || CALENDAR_WORDS.has(noun)) continue;
    add(noun, 'noun');
  }
  return found;
}
