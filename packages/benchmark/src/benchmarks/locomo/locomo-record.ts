import type { LongMemEvalRecord } from '../longmemeval-record.js';
import { locomoCategoryOf } from './locomo-categories.js';

/**
 * A LoCoMo QA mapped onto a LongMemEval record may carry its `evidence` list verbatim (the loader's
 * `locomo_evidence`). Without it the evidence is rebuilt from the `has_answer` marks, which is
 * the same list for every QA whose evidence ids are well formed, distinct and name a turn
 * (198 of the 199 QA of conv-26; the exception is `D8:6; D9:17`, which the official dialog mode never matches).
 */
export type LocomoAwareRecord = LongMemEvalRecord & { locomo_evidence?: readonly string[] };

/** The LoCoMo category (1–5) of a record mapped from LoCoMo, else undefined. */
export function locomoCategory(record: Pick<LongMemEvalRecord, 'question_type'>): number | undefined {
  return locomoCategoryOf(record.question_type)?.id;
}

export function isLocomoRecord(record: Pick<LongMemEvalRecord, 'question_type'>): boolean {
  return locomoCategory(record) !== undefined;
}

/** Session number of a LoCoMo haystack session id (`conv-26_s3` → 3), else undefined. */
export function locomoSessionNumber(sessionId: string): number | undefined {
  const match = /_s(\d+)$/.exec(sessionId);
  return match ? Number(match[1]) : undefined;
}

/**
 * The dialog id (`D3:7`) of the turn at `turnIndex` (0-based) of a LoCoMo session: the loader
 * keeps every turn of a session in file order, and the published dia_ids are `D<session>:<n>`
 * with n the 1-based position.
 */
export function locomoDialogId(sessionId: string, turnIndex: number): string | undefined {
  const session = locomoSessionNumber(sessionId);
  return session === undefined ? undefined : `D${session}:${turnIndex + 1}`;
}

/** The session context id the official session mode reads (`S3`). */
export function locomoSessionContextId(sessionId: string): string | undefined {
  const session = locomoSessionNumber(sessionId);
  return session === undefined ? undefined : `S${session}`;
}

/** The QA's evidence dialog ids: verbatim when the record carries them, else from `has_answer`. */
export function locomoEvidence(record: LocomoAwareRecord): readonly string[] {
  if (Array.isArray(record.locomo_evidence)) return record.locomo_evidence;
  const evidence: string[] = [];
  record.haystack_sessions.forEach((turns, sessionIndex) => {
    turns.forEach((turn, turnIndex) => {
      if (turn.has_answer !== true) return;
      const id = locomoDialogId(record.haystack_session_ids[sessionIndex]!, turnIndex);
      if (id !== undefined) evidence.push(id);
    });
  });
  return evidence;
}
