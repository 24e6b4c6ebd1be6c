import { createHash } from 'node:crypto';
import type { IndexRoles } from '../../benchmarks/build-corpus.js';
import type { LongMemEvalRecord } from '../../benchmarks/longmemeval-record.js';
import type { ProtocolSession } from '../http/protocol.js';

/** A session as an external system receives it, before lme gives it an opaque id. */
export type SentSession = Omit<ProtocolSession, 'session_id'>;

/**
 * What an external system receives of a question's haystack: every session in haystack order,
 * with its date and the turns of the sent roles (each with its position among all the session's
 * turns). Nothing of the dataset's ids: the session ids are given later, opaque.
 */
export function sentSessions(record: LongMemEvalRecord, indexRoles: IndexRoles): SentSession[] {
  return record.haystack_sessions.map((turns, sessionIndex) => ({
    date: record.haystack_dates[sessionIndex]!,
    turns: turns.flatMap((turn, turnIndex) =>
      indexRoles === 'all' || turn.role === 'user'
        ? [{ role: turn.role, content: turn.content, turn_index: turnIndex }]
        : [],
    ),
  }));
}

/**
 * The key of a haystack as sent: SHA-256 of its sessions (order, dates, roles, contents, turn
 * positions). Questions whose keys are equal share one namespace, ingested once.
 */
export function haystackKey(sessions: readonly SentSession[]): string {
  return createHash('sha256').update(JSON.stringify(sessions)).digest('hex');
}
