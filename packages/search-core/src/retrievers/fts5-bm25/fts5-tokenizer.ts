import { stemmer } from 'stemmer';

// SQLite FTS5 `unicode61` (its defaults: token characters are letters, numbers and private-use
// characters, case folded, diacritics removed) then `porter` (fts5_tokenize.c: a token shorter
// than 3 or longer than 64 characters passes through unstemmed).
const TOKEN = /[\p{L}\p{N}\p{Co}]+/gu;
const DIACRITICS = /\p{M}/gu;
const PORTER_MIN = 3;
const PORTER_MAX = 64;

const STEMS = new Map<string, string>();
const MAX_STEMS = 200_000;

function porter(token: string): string {
  if (token.length < PORTER_MIN || token.length > PORTER_MAX) return token;
  let stem = STEMS.get(token);
  if (stem === undefined) {
    stem = stemmer(token);
    if (STEMS.size >= MAX_STEMS) STEMS.clear();
    STEMS.set(token, stem);
  }
  return stem;
}

/** The terms `tokenize='porter unicode61'` indexes for `text`, in order. */
export function fts5PorterTokens(text: string): string[] {
  const folded = text.normalize('NFD').replace(DIACRITICS, '').toLowerCase();
  return (folded.match(TOKEN) ?? []).map(porter);
}

/**
 * memini's keyword query (`ftsQuery` in `internal/store/sqlitevec/helpers.go` at 05e7da55): the
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
