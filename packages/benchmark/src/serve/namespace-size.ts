import type { ProtocolSession } from '../providers/http/protocol.js';

/** Bytes of one stored turn and one stored session beyond their text (objects, ids, dates). */
const TURN_OVERHEAD = 100;
const SESSION_OVERHEAD = 200;
/** The text is held once as ingested and about twice more by the documents and index built on it. */
const TEXT_COPIES = 3;

/**
 * An estimate of the memory sessions take in `lme serve`: their text (UTF-16, two bytes a
 * character) held three times (as ingested, as documents, in the index), plus a fixed overhead
 * per turn and session. An estimate, not a measurement: it bounds memory to within a small
 * factor, which is what `--max-memory-mb` promises.
 */
export function sessionsBytes(sessions: readonly ProtocolSession[]): number {
  let bytes = 0;
  for (const session of sessions) {
    bytes += SESSION_OVERHEAD + 2 * (session.session_id.length + session.date.length);
    for (const turn of session.turns) bytes += TURN_OVERHEAD + TEXT_COPIES * 2 * turn.content.length;
  }
  return bytes;
}
