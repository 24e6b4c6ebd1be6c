import { stemmer } from 'stemmer';
import { FTS5_FOLDS, FTS5_SEPARATOR_RANGES } from './fts5-unicode61-tables.js';

// SQLite FTS5 `unicode61` (remove_diacritics 1), its character tables read from SQLite itself
// (fts5-unicode61-tables.ts), then `porter` (fts5_tokenize.c: a token shorter than 3 or longer
// than 64 bytes of UTF-8 passes through unstemmed).
const PORTER_MIN_BYTES = 3;
const PORTER_MAX_BYTES = 64;

const SEPARATORS: number[] = FTS5_SEPARATOR_RANGES.split(' ').flatMap((span) =>
  span.split('-').map((hex) => Number.parseInt(hex, 16)),
);
const FOLDS = new Map(
  FTS5_FOLDS.split(' ').map((entry) => {
    const [point, folded] = entry.split(':') as [string, string];
    const char = folded === '' ? '' : String.fromCodePoint(Number.parseInt(folded, 16));
    return [Number.parseInt(point, 16), char];
  }),
);

/** A non-ASCII code point separates tokens when it lies in one of the ranges (binary search). */
function separates(point: number): boolean {
  let low = 0;
  let high = SEPARATORS.length / 2 - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    if (point < SEPARATORS[2 * middle]!) high = middle - 1;
    else if (point > SEPARATORS[2 * middle + 1]!) low = middle + 1;
    else return true;
  }
  return false;
}

const STEMS = new Map<string, string>();
const MAX_STEMS = 200_000;
const encoder = new TextEncoder();

function porter(token: string): string {
  let stem = STEMS.get(token);
  if (stem === undefined) {
    const bytes = encoder.encode(token).length;
    stem = bytes < PORTER_MIN_BYTES || bytes > PORTER_MAX_BYTES ? token : stemmer(token);
    if (STEMS.size >= MAX_STEMS) STEMS.clear();
    STEMS.set(token, stem);
  }
  return stem;
}

/** The terms `tokenize='porter unicode61'` indexes for `text`, in order. */
export function fts5PorterTokens(text: string): string[] {
  const tokens: string[] = [];
  let current = '';
  const flush = () => {
    if (current !== '') tokens.push(porter(current));
    current = '';
  };
  for (const char of text) {
    const point = char.codePointAt(0)!;
    if (point < 0x80) {
      const alphanumeric =
        (point >= 0x30 && point <= 0x39) || ((point | 0x20) >= 0x61 && (point | 0x20) <= 0x7a);
      if (alphanumeric) current += char.toLowerCase();
      else flush();
    } else if (separates(point)) flush();
    else current += FOLDS.get(point) ?? char;
  }
  flush();
  return tokens;
}

/**
 * memini's keyword query (`ftsQuery` in `internal/store/sqlitevec/helpers.go` at 033924f2): the
 * question's lowercased ASCII letter-and-digit runs of two characters or more, each one quoted
 * phrase, joined by OR; a repeated word stays a phrase of its own (FTS5's bm25 sums over phrases).
 * Returned as the terms FTS5 looks up: each phrase through the same tokenizer.
 */
export function meminiQueryTerms(question: string): string[] {
  const words = question
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word.length >= 2);
  return words.flatMap(fts5PorterTokens);
}
