import { parseDates } from '@lme/search-core';
import type { ProtocolSession } from '../http/protocol.js';

/**
 * A session's date as an instant: the `2023/05/30 (Tue) 23:40` form every benchmark loader writes,
 * read as UTC like everywhere in lme, or an ISO 8601 date.
 * Undefined when the text is neither; the date is then only sent as text.
 */
export function sessionInstant(date: string | undefined): Date | undefined {
  if (date === undefined || date.trim() === '') return undefined;
  const benchmarkDate = parseDates([date])[0];
  if (benchmarkDate) return benchmarkDate;
  if (!/^\d{4}-\d{2}-\d{2}/.test(date.trim())) return undefined;
  const parsed = new Date(date.trim());
  return Number.isNaN(parsed.getTime()) ? undefined : parsed;
}

/** The turns of a session that say something: a blank turn is never sent as a message or passage. */
export function spokenTurns(session: ProtocolSession): ProtocolSession['turns'] {
  return session.turns.filter((turn) => turn.content.trim() !== '');
}

/** One turn as a line of a transcript: `user: I moved to Lisbon.` */
export function turnLine(turn: ProtocolSession['turns'][number]): string {
  return `${turn.role}: ${turn.content}`;
}

/** A session as the text a document-oriented service stores: its date, then one line per turn. */
export function sessionTranscript(session: ProtocolSession): string {
  const lines = session.turns.map(turnLine);
  return session.date ? [`Conversation date: ${session.date}`, ...lines].join('\n') : lines.join('\n');
}
