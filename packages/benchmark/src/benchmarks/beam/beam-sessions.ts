import { formatRecordDate, MONTH_NAMES } from '../../dataset/record-date.js';

/**
 * A conversation's name as it stands in question ids: the folder name with every character but
 * letters, digits, `.` and `-` written `-`, so no folder name can put `_abs` (lme's abstention
 * mark, tested as a substring as LongMemEval's scripts do) or another id's shape into an id: a
 * folder `1_abs` gives `beam_c1-abs_…`, and only the abstention ability's questions are abstention.
 */
export function beamConversationId(conversation: string): string {
  return conversation.replace(/[^A-Za-z0-9.-]/g, '-');
}

export type BeamMessage = { id: number; role: 'user' | 'assistant'; content: string; timeAnchor?: string };
export type BeamSession = { id: string; date: string; messages: BeamMessage[] };

/** BEAM's `time_anchor` (`March-15-2024`) as lme's date (`2024/03/15 (Fri) 00:00`); undefined when it is not one. */
export function beamDate(anchor: unknown): string | undefined {
  if (typeof anchor !== 'string') return undefined;
  const match = /^([A-Za-z]+)-(\d{1,2})-(\d{4})$/.exec(anchor.trim());
  if (!match) return undefined;
  const month = MONTH_NAMES.indexOf(match[1]!.toLowerCase());
  const day = Number(match[2]);
  const year = Number(match[3]);
  if (month < 0 || day < 1 || day > 31) return undefined;
  const date = new Date(Date.UTC(year, month, day));
  if (date.getUTCDate() !== day) return undefined;
  return formatRecordDate(date);
}

/**
 * BEAM's conversation (`chat.json`: batches, each a list of turns, each a list of messages with a
 * conversation-wide `id`) as haystack sessions: one session per turn (a user message and the
 * replies and follow-ups that belong to it), id `c<conversation>_b<batch>_t<turn>` (1-based),
 * dated by the latest `time_anchor` seen so far (the first one for the sessions before it).
 */
export function beamSessions(conversation: string, chat: unknown): BeamSession[] {
  if (!Array.isArray(chat)) throw new Error('chat.json is not a JSON array of batches');
  const sessions: Omit<BeamSession, 'date'>[] = [];
  const anchors: (string | undefined)[] = [];
  const seen = new Set<number>();
  chat.forEach((batch, batchIndex) => {
    const turns = (batch as { turns?: unknown } | null)?.turns;
    if (!Array.isArray(turns))
      throw new Error(`chat.json batch ${batchIndex + 1}: field "turns" is missing or not an array`);
    let batchAnchor = beamDate((batch as { time_anchor?: unknown }).time_anchor);
    turns.forEach((turn, turnIndex) => {
      if (!Array.isArray(turn))
        throw new Error(
          `chat.json batch ${batchIndex + 1} turn ${turnIndex + 1}: is not an array of messages`,
        );
      const messages = turn.map((message, messageIndex): BeamMessage => {
        const where = `chat.json batch ${batchIndex + 1} turn ${turnIndex + 1} message ${messageIndex + 1}`;
        const value = message as {
          id?: unknown;
          role?: unknown;
          content?: unknown;
          time_anchor?: unknown;
        } | null;
        if (!value || typeof value !== 'object') throw new Error(`${where}: is not a message object`);
        if (typeof value.id !== 'number' || !Number.isInteger(value.id))
          throw new Error(`${where}: field "id" is missing or not an integer`);
        if (value.role !== 'user' && value.role !== 'assistant')
          throw new Error(`${where}: field "role" must be "user" or "assistant"`);
        if (typeof value.content !== 'string')
          throw new Error(`${where}: field "content" is missing or not a string`);
        if (seen.has(value.id))
          throw new Error(`${where}: message id ${value.id} appears twice in the conversation`);
        seen.add(value.id);
        const anchor = beamDate(value.time_anchor);
        if (anchor) batchAnchor = anchor;
        return {
          id: value.id,
          role: value.role,
          content: value.content,
          ...(anchor ? { timeAnchor: anchor } : {}),
        };
      });
      sessions.push({
        id: `c${beamConversationId(conversation)}_b${batchIndex + 1}_t${turnIndex + 1}`,
        messages,
      });
      anchors.push(batchAnchor);
    });
  });
  if (sessions.length === 0)
    throw new Error(
      'chat.json holds no conversation (no batch with a turn); a BEAM conversation needs the chat its questions are about',
    );
  const first = anchors.find((anchor) => anchor !== undefined);
  let current = first;
  return sessions.map((session, index) => {
    current = anchors[index] ?? current;
    // A conversation with no time anchor at all gets BEAM's first plan date placeholder: lme needs a date.
    return { ...session, date: current ?? '2024/01/01 (Mon) 00:00' };
  });
}
