import type { Turn } from './longmemeval-record.js';

/**
 * The gold of a convention a benchmark defines itself (LongMemEval's `official`: the official
 * scripts' corpus ids, gold when they hold `answer`). Every document of a haystack gets a graded
 * key; a key is gold or not; a turn key maps onto its session key for session-level figures.
 */
export type KeyedGold = {
  readonly kind: 'keyed';
  /** One line for errors and docs. */
  readonly description: string;
  /** The graded key of a session document (the session's turns as the record holds them). */
  sessionKey(sessionId: string, turns: readonly Turn[]): string;
  /** The graded key of the turn document at `turnIndex` (a round is graded as its first turn). */
  turnKey(sessionId: string, turns: readonly Turn[], turnIndex: number): string;
  /** Whether a graded key (session or turn) is gold. */
  isGold(key: string): boolean;
  /** The session key of a turn key (session-level figures from a turn ranking). */
  sessionOfKey(key: string): string;
  /** Whether a turn counts as evidence for `context.evidence_recall` under this convention. */
  evidenceTurn(sessionId: string, turn: Turn): boolean;
};

/**
 * The gold of the `evidence` convention, shared by every benchmark that maps its evidence onto the
 * common record: turns with `has_answer`, sessions in `answer_session_ids` (counted even when the
 * haystack lacks them). A benchmark supports it by naming `RECORD_EVIDENCE_GOLD`.
 */
export type RecordEvidenceGold = { readonly kind: 'record-evidence'; readonly description: string };

export const RECORD_EVIDENCE_GOLD: RecordEvidenceGold = {
  kind: 'record-evidence',
  description: "the record's evidence: turns with has_answer, sessions in answer_session_ids",
};

/** The conventions a benchmark grades under, each with its gold; one it leaves out is refused. */
export type BenchmarkConventions = {
  readonly official?: KeyedGold;
  readonly evidence?: RecordEvidenceGold;
};
