import type { KeyedGold } from '../benchmark.js';
import type { Turn } from '../longmemeval-record.js';

/**
 * LongMemEval's `official` convention, as the official retrieval scripts grade: corpus ids are
 * session ids, or `<session>_<n>` with n the 1-based position among the session's turns; a
 * document is gold when its id holds `answer` (LongMemEval names evidence sessions `answer_…`).
 * Only user turns with `has_answer` are gold: any other turn of an answer session, and an answer
 * session with no such turn, has `answer` replaced by `noans`.
 */
export const LONGMEMEVAL_OFFICIAL_GOLD: KeyedGold = {
  kind: 'keyed',
  description: "the official scripts' gold: user turns with has_answer in answer_… sessions",
  sessionKey: (sessionId, turns) => officialSessionId(sessionId, turns),
  turnKey: (sessionId, turns, turnIndex) => {
    const id = `${sessionId}_${turnIndex + 1}`;
    if (!isAnswerSession(sessionId)) return id;
    const turn = turns[turnIndex]!;
    return turn.role === 'user' && turn.has_answer === true ? id : id.replace('answer', 'noans');
  },
  isGold: (key) => key.includes('answer'),
  sessionOfKey: (key) => stripTurnId(key),
  evidenceTurn: (sessionId, turn) =>
    isAnswerSession(sessionId) && turn.role === 'user' && turn.has_answer === true,
};

function isAnswerSession(sessionId: string): boolean {
  return sessionId.includes('answer');
}

/**
 * The official id of a session document: an answer session none of whose user turns holds
 * evidence is renamed `noans_…` and stops being gold.
 */
export function officialSessionId(sessionId: string, turns: readonly Turn[]): string {
  const userEvidence = turns.some((turn) => turn.role === 'user' && turn.has_answer === true);
  return isAnswerSession(sessionId) && !userEvidence ? sessionId.replace('answer', 'noans') : sessionId;
}

/** `answer_280352e9_5` → `answer_280352e9`: the official `strip_turn_id`. */
export function stripTurnId(id: string): string {
  return id.split('_').slice(0, -1).join('_');
}
