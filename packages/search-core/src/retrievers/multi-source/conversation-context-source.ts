import type { MemoryDocument } from '../../core/retriever.js';
import type { Tokenizer } from '../../lexical/tokenizer.js';
import { parseLongMemEvalDate } from '../../query/temporal-scope.js';

export type ConversationContextOptions = {
  /** The most recent sessions (by date, at or before the question date) the source reads. Default 3. */
  recentSessions?: number;
  /** Weights of recency, keyword overlap and role. Default 0.5 / 0.3 / 0.2. */
  weights?: { recency: number; overlap: number; role: number };
};

export type ConversationContextResult = {
  /** The sessions read, most recent first. */
  sessions: string[];
  /** One score per document (0 outside the recent sessions). */
  scores: Float64Array;
};

/** A LongMemEval date (`2023/05/30 (Tue) 23:40`) → epoch milliseconds, read as UTC; NaN when unreadable. */
export function haystackTime(date: string | undefined): number {
  return (date === undefined ? undefined : parseLongMemEvalDate(date))?.getTime() ?? Number.NaN;
}

/**
 * The conversation-context source: the messages of the most recent sessions before the question,
 * each scored 0.5 × recency (1 for the latest session, 1/2 for the one before, …) + 0.3 × keyword
 * overlap (the share of the query's terms the message holds) + 0.2 × role (a user message 1, an
 * assistant message 0.5, both 0.75). Sessions dated after the question are left out.
 */
export function scoreConversationContext(options: {
  documents: readonly MemoryDocument[];
  query: string;
  queryDate?: string;
  tokenizer: Tokenizer;
  context?: ConversationContextOptions;
}): ConversationContextResult {
  const { documents, tokenizer } = options;
  const count = options.context?.recentSessions ?? 3;
  const weights = options.context?.weights ?? { recency: 0.5, overlap: 0.3, role: 0.2 };
  const limit = haystackTime(options.queryDate);
  const latest = new Map<string, number>();
  documents.forEach((document, index) => {
    const time = haystackTime(document.date);
    if (Number.isFinite(limit) && time > limit) return;
    const key = Number.isFinite(time) ? time : index;
    latest.set(document.sessionId, Math.max(latest.get(document.sessionId) ?? Number.NEGATIVE_INFINITY, key));
  });
  const sessions = [...latest.entries()]
    .sort((left, right) => right[1] - left[1])
    .slice(0, count)
    .map(([session]) => session);
  const recency = new Map(sessions.map((session, rank) => [session, 1 / (rank + 1)]));
  const terms = new Set(tokenizer.tokenize(options.query));
  const scores = new Float64Array(documents.length);
  documents.forEach((document, index) => {
    const sessionRecency = recency.get(document.sessionId);
    if (sessionRecency === undefined) return;
    const words = new Set(tokenizer.tokenize(document.text));
    const overlap = terms.size === 0 ? 0 : [...terms].filter((term) => words.has(term)).length / terms.size;
    const role = document.role === 'assistant' ? 0.5 : document.role === 'mixed' ? 0.75 : 1;
    scores[index] = weights.recency * sessionRecency + weights.overlap * overlap + weights.role * role;
  });
  return { sessions, scores };
}
