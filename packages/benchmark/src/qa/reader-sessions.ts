import { sharedQaSettings } from '../benchmarks/benchmark-registry.js';
import { evidenceSessions, type LongMemEvalRecord } from '../benchmarks/longmemeval-record.js';
import type { ReaderSession } from './reader.js';

type HaystackRecord = Pick<
  LongMemEvalRecord,
  'question_id' | 'haystack_session_ids' | 'haystack_dates' | 'haystack_sessions' | 'answer_session_ids'
>;

export type SessionSelectionOptions = {
  /** Official `TOPK`; default 1000 (the README's "large number", i.e. every session). */
  topK?: number;
};

/** Every haystack session with its id and date, in haystack order. */
export function haystackSessions(record: HaystackRecord): ReaderSession[] {
  const { haystack_session_ids: ids, haystack_dates: dates, haystack_sessions: sessions } = record;
  if (ids.length !== sessions.length || dates.length !== sessions.length) {
    throw new Error(
      `Question ${record.question_id} has ${ids.length} haystack session ids, ${dates.length} dates and ${sessions.length} sessions; they must match.`,
    );
  }
  return sessions.map((turns, index) => ({ sessionId: ids[index]!, date: dates[index]!, turns }));
}

/**
 * Reader input of the `full-context` provider, as the official `full-history-session` run builds
 * it (`retriever_type == 'orig-session'`): the haystack in its order, cut to the latest `topK`
 * sessions (`chunks[-topk:]`). The reader then sorts by date and truncates to the token budget.
 */
export function fullContextSessions(
  record: HaystackRecord,
  options: SessionSelectionOptions = {},
): ReaderSession[] {
  return keepLatest(haystackSessions(record), topKOf(options));
}

/**
 * Reader input of the `oracle` provider: the evidence sessions only (`answer_session_ids`), in
 * haystack order, cut like `full-context`. On longmemeval_oracle.json the haystack is exactly the
 * evidence, so this equals the official full-history run on that file; on S it takes the same
 * sessions with S's dates.
 */
export function oracleSessions(
  record: HaystackRecord,
  options: SessionSelectionOptions = {},
): ReaderSession[] {
  return sessionsAt(record, evidenceSessions(record), options);
}

/**
 * Reader input of a provider that names whole haystack sessions (`readerHaystackSessions`:
 * full-context every one, oracle the evidence): those sessions in the order given, cut to the
 * latest `topK` as the official full-history run does.
 */
export function sessionsAt(
  record: HaystackRecord,
  indices: readonly number[],
  options: SessionSelectionOptions = {},
): ReaderSession[] {
  const all = haystackSessions(record);
  return keepLatest(
    indices.map((index) => {
      const session = all[index];
      if (!session)
        throw new Error(`Question ${record.question_id} has no haystack session at index ${index}.`);
      return session;
    }),
    topKOf(options),
  );
}

/** How a session id that appears twice in one haystack reaches the reader. */
export type DuplicateSessionReading =
  /**
   * As run_generation.py `flat-session`: every ranked occurrence is a chunk, and an id maps to its
   * LAST haystack copy (`corpusid2date[id]`, `corpusid2entry[id]` are overwritten in haystack
   * order), so both copies appear, each with the later copy's date.
   */
  | 'official'
  /** lme's own: an id counts once, at its best rank; the next ranked session fills the slot. */
  | 'once';

export type RankedSessionOptions = SessionSelectionOptions & {
  /**
   * `official` when each ranked id is one retrieved document (session granularity), so a repeated
   * id is a repeated haystack session; `once` (default) when ids repeat because several hits fall
   * in one session (turn granularity).
   */
  duplicates?: DuplicateSessionReading;
};

/**
 * Reader input for a retriever's ranked session ids (official `flat-session`): the first `topK`
 * in rank order (`chunks[:topk]`); the reader sorts them by date. `noans_` ids (the official
 * retrieval's renaming in abstention questions) map back to `answer_`.
 */
export function rankedSessions(
  record: HaystackRecord,
  rankedSessionIds: readonly string[],
  options: RankedSessionOptions = {},
): ReaderSession[] {
  // A Map built in haystack order keeps the last copy of a repeated id, as the official dicts do.
  const byId = new Map(haystackSessions(record).map((session) => [session.sessionId, session]));
  const official = options.duplicates === 'official';
  const seen = new Set<string>();
  const sessions: ReaderSession[] = [];
  for (const rankedId of rankedSessionIds) {
    const id = officialToHaystackId(rankedId);
    const session = byId.get(id);
    if (!session) throw new Error(`Question ${record.question_id} has no haystack session "${rankedId}".`);
    if (!official && seen.has(id)) continue;
    seen.add(id);
    sessions.push(session);
  }
  return sessions.slice(0, topKOf(options));
}

/**
 * Turn-level reader input, as run_generation.py `flat-turn` builds it: each ranked turn id
 * `<session>_<n>` (n the 1-based position among all the session's turns) becomes a chunk holding
 * that turn and the turn after it when there is one ("automatically expand turn into round"), with
 * the session's date; ids that name no turn are skipped (the script's `except: continue`); every
 * ranked turn is a chunk (two hits in one round give two overlapping chunks); the first `topK`
 * chunks are kept. A repeated session id maps to its last haystack copy, as in `flat-session`.
 */
export function rankedRounds(
  record: HaystackRecord,
  rankedTurnIds: readonly string[],
  options: SessionSelectionOptions = {},
): ReaderSession[] {
  const byId = new Map(haystackSessions(record).map((session) => [session.sessionId, session]));
  const chunks: ReaderSession[] = [];
  for (const rankedId of rankedTurnIds) {
    const id = officialToHaystackId(rankedId);
    const cut = id.lastIndexOf('_');
    const session = cut > 0 ? byId.get(id.slice(0, cut)) : undefined;
    const position = Number(id.slice(cut + 1));
    if (!session || !/^\d+$/.test(id.slice(cut + 1)) || position < 1 || position > session.turns.length)
      continue;
    chunks.push({
      sessionId: session.sessionId,
      date: session.date,
      turns: session.turns.slice(position - 1, position + 1),
    });
  }
  return chunks.slice(0, topKOf(options));
}

/** Python's `corpus_id.replace('noans_', 'answer_')` (every occurrence). */
function officialToHaystackId(id: string): string {
  return id.replaceAll('noans_', 'answer_');
}

function topKOf(options: SessionSelectionOptions): number {
  const topK = options.topK ?? sharedQaSettings().fullHistoryTopK;
  if (!Number.isInteger(topK) || topK < 1) throw new Error(`topK must be a positive integer; got ${topK}.`);
  return topK;
}

function keepLatest<T>(items: readonly T[], topK: number): T[] {
  return items.slice(Math.max(0, items.length - topK));
}
