import { keywordOverlap } from './keyword-overlap.js';

/**
 * MemPalace's LoCoMo hybrid v5 rerank (MemPalace/mempalace `benchmarks/locomo_bench.py` at 9b7cfc99,
 * `run_benchmark` with `--mode hybrid`): a result's distance times `1 - 0.50 × overlap` of the
 * question's predicate keywords (its keywords less the person names in it), then times
 * `1 - 0.60 × quoted` when a quoted phrase of the question is in the document and `1 - 0.20 ×
 * names` when a person name is. Their stop words and "not names" are theirs, verbatim.
 */
const STOP_WORDS = new Set(
  (
    'what when where who how which did do was were have has had is are the a an my me i you your ' +
    'their it its in on at to for of with by from ago last that this there about get got give gave ' +
    'buy bought made make said'
  ).split(' '),
);

const NOT_NAMES = new Set(
  (
    'What When Where Who How Which Did Do Was Were Have Has Had Is Are The My Our Their Can Could ' +
    'Would Should Will Shall May Might Monday Tuesday Wednesday Thursday Friday Saturday Sunday ' +
    'January February March April June July August September October November December In On At ' +
    'For To Of With By From And But I It Its This That These Those Previously Recently Also Just ' +
    'Very More Said Speaker Person Time Date Year Day'
  ).split(' '),
);

export const NAMES_PREDICATES_WEIGHTS = { predicates: 0.5, quoted: 0.6, names: 0.2 } as const;

// Python's `\b` on a str: word characters are Unicode letters, digits and `_`.
const BEFORE = '(?<![\\p{L}\\p{N}_])';
const AFTER = '(?![\\p{L}\\p{N}_])';
const KEYWORD = new RegExp(`${BEFORE}[a-z]{3,}${AFTER}`, 'gu');
const NAME = new RegExp(`${BEFORE}[A-Z][a-z]{2,15}${AFTER}`, 'gu');
const QUOTED = [/'([^']{3,60})'/g, /"([^"]{3,60})"/g];

/** What the rerank reads of one question, worked out once. */
export type NamesPredicatesQuery = {
  names: readonly string[];
  predicates: readonly string[];
  quoted: readonly string[];
};

/** `_person_names`, `_kw` less the names, and `_quoted_phrases` of a question. */
export function namesPredicatesQuery(question: string): NamesPredicatesQuery {
  const names = [...new Set((question.match(NAME) ?? []).filter((word) => !NOT_NAMES.has(word)))];
  const nameWords = new Set(names.map((name) => name.toLowerCase()));
  const predicates = (question.toLowerCase().match(KEYWORD) ?? []).filter(
    (word) => !STOP_WORDS.has(word) && !nameWords.has(word),
  );
  const quoted = QUOTED.flatMap((pattern) =>
    [...question.matchAll(pattern)].map((match) => match[1]!.trim()),
  ).filter((phrase) => phrase.length >= 3);
  return { names, predicates, quoted };
}

/** The share of `needles` found (case-insensitive) in the document, at most 1; 0 without any. */
function foundShare(needles: readonly string[], document: string): number {
  if (needles.length === 0) return 0;
  const lower = document.toLowerCase();
  return Math.min(
    needles.filter((needle) => lower.includes(needle.toLowerCase())).length / needles.length,
    1,
  );
}

/** A result's fused distance under hybrid v5. */
export function namesPredicatesDistance(
  distance: number,
  query: NamesPredicatesQuery,
  document: string,
): number {
  let fused =
    distance * (1 - NAMES_PREDICATES_WEIGHTS.predicates * keywordOverlap(query.predicates, document));
  const quoted = foundShare(query.quoted, document);
  if (quoted > 0) fused *= 1 - NAMES_PREDICATES_WEIGHTS.quoted * quoted;
  const names = foundShare(query.names, document);
  if (names > 0) fused *= 1 - NAMES_PREDICATES_WEIGHTS.names * names;
  return fused;
}
