import type { MemoryDocument } from '@lme/search-core';
import type { LongMemEvalRecord, Turn } from './longmemeval-record.js';

export type Granularity = 'session' | 'turn';
export type IndexRoles = 'user' | 'all';
export type Convention = 'official' | 'evidence';

export type CorpusOptions = {
  granularity: Granularity;
  indexRoles: IndexRoles;
  /** `round`: at turn granularity, a user turn and the assistant reply after it form one document. */
  chunkUnit?: 'turn' | 'round' | 'session';
};

/** A haystack cut into documents, with the ids each metric convention grades them by. */
export type Corpus = {
  documents: MemoryDocument[];
  /**
   * The official scripts' corpus ids: a session id, or `<session>_<n>` with n the 1-based
   * position among all turns; ids of evidence sessions/turns without user-side evidence have
   * `answer` replaced by `noans`.
   */
  officialIds: string[];
  /** Whether each document holds evidence under the `evidence` convention. */
  evidence: boolean[];
};

/**
 * Builds the documents of one haystack as the official `process_item_flat_index` does: a session
 * document is its (user) turns joined by one space; a turn document is one turn. With
 * `indexRoles: 'all'` assistant turns are indexed too; under the official gold they never count
 * (their ids always take the `noans` form). With `chunkUnit: 'round'` a user turn and the assistant
 * turn right after it are one document under the user turn's id (a lone turn stays a turn document,
 * a lone assistant turn only with `indexRoles: 'all'`).
 */
export function buildCorpus(record: LongMemEvalRecord, options: CorpusOptions): Corpus {
  const documents: MemoryDocument[] = [];
  const officialIds: string[] = [];
  const evidence: boolean[] = [];
  const answerSessions = new Set(record.answer_session_ids);
  const indexed = (role: string) => options.indexRoles === 'all' || role === 'user';
  const rounds = options.chunkUnit === 'round';

  record.haystack_sessions.forEach((turns, sessionIndex) => {
    const sessionId = record.haystack_session_ids[sessionIndex]!;
    const date = record.haystack_dates[sessionIndex]!;
    const isAnswerSession = sessionId.includes('answer');
    if (options.granularity === 'session') {
      const kept = turns.filter((turn) => indexed(turn.role));
      documents.push({
        id: sessionId,
        text: kept.map((turn) => turn.content).join(' '),
        parts: kept.map((turn) => turn.content),
        sessionId,
        date,
        role: options.indexRoles === 'all' ? 'mixed' : 'user',
      });
      officialIds.push(officialSessionId(sessionId, turns));
      evidence.push(answerSessions.has(sessionId));
      return;
    }
    for (let turnIndex = 0; turnIndex < turns.length; turnIndex++) {
      const turn = turns[turnIndex]!;
      if (!indexed(turn.role)) continue;
      const reply = rounds && turn.role === 'user' ? turns[turnIndex + 1] : undefined;
      const id = `${sessionId}_${turnIndex + 1}`;
      const officialGold = isAnswerSession && turn.role === 'user' && turn.has_answer === true;
      officialIds.push(isAnswerSession && !officialGold ? id.replace('answer', 'noans') : id);
      if (reply?.role === 'assistant') {
        // A round: graded as its user turn (official), as evidence when either turn is.
        documents.push({
          id,
          text: `${turn.content}\n${reply.content}`,
          sessionId,
          date,
          turnIndex,
          role: 'mixed',
        });
        evidence.push(turn.has_answer === true || reply.has_answer === true);
        turnIndex++;
        continue;
      }
      documents.push({ id, text: turn.content, sessionId, date, turnIndex, role: turn.role });
      evidence.push(turn.has_answer === true);
    }
  });
  return { documents, officialIds, evidence };
}

/**
 * The official id of a session document: an answer session none of whose user turns holds
 * evidence is renamed `noans_…` and stops being gold.
 */
export function officialSessionId(sessionId: string, turns: readonly Turn[]): string {
  const userEvidence = turns.some((turn) => turn.role === 'user' && turn.has_answer === true);
  return sessionId.includes('answer') && !userEvidence ? sessionId.replace('answer', 'noans') : sessionId;
}
