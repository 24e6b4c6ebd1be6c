import type { LongMemEvalRecord } from '../longmemeval-record.js';
import { locomoCategoryOf } from './locomo-categories.js';

/** LoCoMo's published evidence dialog ids of a record (`locomo_evidence`), as errata compare them. */
export function locomoEvidenceOf(record: LongMemEvalRecord): unknown {
  return (record as { locomo_evidence?: unknown }).locomo_evidence;
}

/** LoCoMo's published category of a record (1-5), as errata compare it; undefined for another type. */
export function locomoCategoryIdOf(record: LongMemEvalRecord): number | undefined {
  return locomoCategoryOf(record.question_type)?.id;
}

/**
 * A LoCoMo record with new evidence dialog ids: has_answer moves to the named turns (`D3:7` is
 * turn 7 of the session whose id ends in `_s3`), answer_session_ids and locomo_evidence follow.
 */
export function locomoEvidenceCorrected(
  record: LongMemEvalRecord,
  evidence: readonly string[],
): LongMemEvalRecord {
  const marked = new Map<number, Set<number>>();
  for (const id of evidence) {
    const [, session, turn] = /^D(\d+):(\d+)$/.exec(id)!;
    const sessionIndex = record.haystack_session_ids.findIndex((sessionId) =>
      sessionId.endsWith(`_s${session}`),
    );
    const turnIndex = Number(turn) - 1;
    if (sessionIndex === -1 || record.haystack_sessions[sessionIndex]![turnIndex] === undefined) {
      throw new Error(
        `Errata evidence ${id} of question ${record.question_id} names no turn of its conversation.`,
      );
    }
    marked.set(sessionIndex, (marked.get(sessionIndex) ?? new Set()).add(turnIndex));
  }
  const sessions = record.haystack_sessions.map((turns, sessionIndex) => {
    const turnsMarked = marked.get(sessionIndex);
    if (!turnsMarked && !turns.some((turn) => turn.has_answer)) return turns;
    return turns.map(({ has_answer: _previous, ...turn }, turnIndex) =>
      turnsMarked?.has(turnIndex) ? { ...turn, has_answer: true } : turn,
    );
  });
  return {
    ...record,
    haystack_sessions: sessions,
    answer_session_ids: [...marked.keys()]
      .sort((left, right) => left - right)
      .map((index) => record.haystack_session_ids[index]!),
    locomo_evidence: [...evidence],
  } as LongMemEvalRecord;
}
