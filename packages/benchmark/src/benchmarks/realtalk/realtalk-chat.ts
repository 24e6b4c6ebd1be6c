import { formatRecordDate } from '../../dataset/record-date.js';
import type { LongMemEvalRecord, Turn } from '../longmemeval-record.js';
import {
  REALTALK_SKIPPED_CATEGORIES,
  type RealtalkCategoryId,
  realtalkQuestionType,
} from './realtalk-categories.js';
import { evidenceSpans, spanHolds } from './realtalk-evidence.js';

/** A turn as the chat file has it, for the official reader prompt. */
export type RealtalkTurn = { speaker: string; text: string; caption?: string };

/**
 * What the official prompt reads of a chat, shared by its records and aligned with their haystack
 * sessions: the two speakers, each session's date as written, its turns, and how many times the
 * official key scan lists it (`repeats`, see `officialSessionRepeats`).
 */
export type RealtalkChat = {
  speakers: readonly [string, string];
  dates: readonly string[];
  turns: readonly (readonly RealtalkTurn[])[];
  repeats: readonly number[];
};

/** A REALTALK question as the common record, with its evidence verbatim and its chat. */
export type RealtalkRecord = LongMemEvalRecord & {
  realtalk_evidence: string[];
  realtalk_chat: RealtalkChat;
};

/**
 * `29.12.2023, 22:42:04` (a REALTALK `date_time`) → `2023/12/29 (Fri) 22:42`, or undefined when
 * the text is not such a date.
 */
export function convertRealtalkDate(text: string): string | undefined {
  const match = /^\s*(\d{2})\.(\d{2})\.(\d{4}),\s*(\d{2}):(\d{2}):(\d{2})\s*$/.exec(text);
  if (!match) return undefined;
  const [day, month, year, hour, minute, second] = match.slice(1).map(Number) as number[];
  const date = new Date(Date.UTC(year!, month! - 1, day!, hour!, minute!, second!));
  if (date.getUTCMonth() !== month! - 1 || date.getUTCDate() !== day! || hour! > 23 || minute! > 59)
    return undefined;
  return formatRecordDate(date);
}

/**
 * Whether parsed JSON is a REALTALK chat: one object with `qa` and any of REALTALK's own keys
 * (`name`, `session_<n>…`, `events_session_<n>`), and none of LoCoMo's (`conversation`, `sample_id`).
 * A chat missing its sessions is still REALTALK's, so its loader names what is missing.
 */
export function isRealtalkShaped(value: unknown): boolean {
  return (
    isObject(value) &&
    !('conversation' in value) &&
    !('sample_id' in value) &&
    'qa' in value &&
    Object.keys(value).some((key) => key === 'name' || /^(events_)?session_\d+/.test(key))
  );
}

/**
 * How many times `get_input_context` of the official `qa_tool.py` writes each session: it takes
 * the number after the last `_` of every key holding "session" but not "date_time", so a chat's
 * `events_session_<n>` lists session n a second time (every published chat has them).
 */
export function officialSessionRepeats(chat: Record<string, unknown>, session: number): number {
  return Object.keys(chat).filter(
    (key) =>
      key.includes('session') && !key.includes('date_time') && Number(key.split('_').at(-1)) === session,
  ).length;
}

/**
 * The records of one chat file (`Chat_<n>_<A>_<B>.json`), one per question of categories 1-3:
 * - question_id `<chat>_q<i>` (i 1-based in `qa`); question_type `realtalk-<category>-<name>`;
 * - the haystack is every non-empty `session_<n>` in number order, ids `<chat>_s<n>`, dates
 *   converted; question_date is the last session's date;
 * - both people's turns get role `user`, content `<speaker>: <clean_text>` (`text` when there is no
 *   `clean_text`, as the official code reads it) plus ` [shares <blip_caption>]`, as LoCoMo's are;
 * - has_answer on the turns the evidence names (read leniently, `realtalk-evidence.ts`);
 *   answer_session_ids are the sessions holding them; a reference that names no turn, or is read
 *   leniently, is one warning naming the question and field, and names nothing in the gold;
 * - categories 4 and 5 are skipped as `evaluate_memory.py` skips them.
 * Throws one sentence naming the chat's question or field at fault; the caller adds the file.
 */
export function realtalkRecords(
  value: unknown,
  chatId: string,
): { records: RealtalkRecord[]; warnings: string[] } {
  const fail = (field: string, problem: string): never => {
    throw new Error(`field "${field}" ${problem}`);
  };
  if (!isObject(value)) fail('(top level)', 'is not a JSON object');
  const entry = value as Record<string, unknown>;
  if (!Array.isArray(entry.qa)) fail('qa', 'is missing or not an array');

  const numbers = Object.keys(entry)
    .map((key) => /^session_(\d+)$/.exec(key)?.[1])
    .filter((number) => number !== undefined)
    .map(Number)
    .sort((left, right) => left - right);
  const sessions: { number: number; date: string; rawDate: string; turns: RealtalkTurn[]; ids: string[] }[] =
    [];
  for (const number of numbers) {
    const key = `session_${number}`;
    const rawTurns = entry[key];
    if (!Array.isArray(rawTurns)) fail(key, 'is not an array of turns');
    if ((rawTurns as unknown[]).length === 0) continue;
    const rawDate = entry[`${key}_date_time`];
    if (typeof rawDate !== 'string') fail(`${key}_date_time`, 'is missing or not a string');
    const date = convertRealtalkDate(rawDate as string);
    if (date === undefined)
      fail(`${key}_date_time`, `is not a date like "29.12.2023, 22:42:04" (got ${JSON.stringify(rawDate)})`);
    const turns: RealtalkTurn[] = [];
    const ids: string[] = [];
    (rawTurns as unknown[]).forEach((raw, index) => {
      const field = `${key}[${index}]`;
      if (!isObject(raw)) fail(field, 'is not a turn object');
      const turn = raw as Record<string, unknown>;
      const text = 'clean_text' in turn ? turn.clean_text : turn.text;
      if (typeof turn.speaker !== 'string') fail(`${field}.speaker`, 'is missing or not a string');
      if (typeof text !== 'string') fail(`${field}.clean_text`, 'is missing or not a string');
      if (typeof turn.dia_id !== 'string') fail(`${field}.dia_id`, 'is missing or not a string');
      if (turn.blip_caption !== undefined && typeof turn.blip_caption !== 'string')
        fail(`${field}.blip_caption`, 'is not a string');
      turns.push({
        speaker: turn.speaker as string,
        text: text as string,
        ...(typeof turn.blip_caption === 'string' ? { caption: turn.blip_caption } : {}),
      });
      ids.push(turn.dia_id as string);
    });
    sessions.push({ number, date: date!, rawDate: rawDate as string, turns, ids });
  }
  if (sessions.length === 0) fail('session_<n>', 'is missing: the chat has no non-empty session');

  const speakers = [...new Set(sessions[0]!.turns.map((turn) => turn.speaker))];
  const chat: RealtalkChat = {
    speakers: [speakers[0] ?? '', speakers[1] ?? ''],
    dates: sessions.map((session) => session.rawDate),
    turns: sessions.map((session) => session.turns),
    repeats: sessions.map((session) => officialSessionRepeats(entry, session.number)),
  };
  const sessionIds = sessions.map((session) => `${chatId}_s${session.number}`);
  const plainSessions: Turn[][] = sessions.map((session) =>
    session.turns.map((turn) => ({
      role: 'user',
      content: `${turn.speaker}: ${turn.text}${turn.caption === undefined ? '' : ` [shares ${turn.caption}]`}`,
    })),
  );
  const positions = new Map<string, [number, number]>();
  sessions.forEach((session, sessionIndex) => {
    session.ids.forEach((id, turnIndex) => {
      positions.set(id, [sessionIndex, turnIndex]);
    });
  });

  const records: RealtalkRecord[] = [];
  const warnings: string[] = [];
  (entry.qa as unknown[]).forEach((raw, index) => {
    const field = `qa[${index}]`;
    if (!isObject(raw)) fail(field, 'is not an object');
    const item = raw as Record<string, unknown>;
    const category = item.category;
    if (typeof category === 'number' && REALTALK_SKIPPED_CATEGORIES.includes(category)) return;
    if (category !== 1 && category !== 2 && category !== 3)
      fail(`${field}.category`, `must be 1, 2 or 3 (got ${JSON.stringify(category)})`);
    const questionId = `${chatId}_q${index + 1}`;
    if (typeof item.question !== 'string' || item.question.trim() === '')
      fail(`${field}.question`, `of question ${questionId} is missing or blank`);
    const answer = item.answer ?? '';
    if (typeof answer !== 'string' && typeof answer !== 'number')
      fail(`${field}.answer`, `of question ${questionId} is not a string or number`);
    if (!Array.isArray(item.evidence)) fail(`${field}.evidence`, `of question ${questionId} is not an array`);
    const evidence = item.evidence as unknown[];
    const marked = new Map<number, Set<number>>();
    evidence.forEach((reference, at) => {
      const where = `question ${questionId} (${field}.evidence[${at}])`;
      if (typeof reference !== 'string')
        fail(`${field}.evidence[${at}]`, `of question ${questionId} is not a string`);
      const found = evidenceTurns(reference as string, positions);
      if (found.length === 0) {
        warnings.push(
          `${where}: evidence ${JSON.stringify(reference)} names no turn of the chat; it is left out of the gold`,
        );
      } else if (!positions.has(reference as string)) {
        warnings.push(
          `${where}: evidence ${JSON.stringify(reference)} is not one dialog id as the chat writes them; read as ${found.length} turn(s)`,
        );
      }
      for (const [sessionIndex, turnIndex] of found) {
        const turns = marked.get(sessionIndex) ?? new Set<number>();
        turns.add(turnIndex);
        marked.set(sessionIndex, turns);
      }
    });
    records.push({
      question_id: questionId,
      question_type: realtalkQuestionType(category as RealtalkCategoryId),
      question: item.question as string,
      answer: answer as string | number,
      question_date: sessions.at(-1)!.date,
      haystack_session_ids: [...sessionIds],
      haystack_dates: sessions.map((session) => session.date),
      haystack_sessions: plainSessions.map((turns, sessionIndex) => {
        const evidenceTurnsHere = marked.get(sessionIndex);
        return evidenceTurnsHere
          ? turns.map((turn, turnIndex) =>
              evidenceTurnsHere.has(turnIndex) ? { ...turn, has_answer: true } : turn,
            )
          : turns;
      }),
      answer_session_ids: [...marked.keys()].sort((left, right) => left - right).map((at) => sessionIds[at]!),
      realtalk_evidence: evidence.map(String),
      realtalk_chat: chat,
    });
  });
  return { records, warnings };
}

/** The [session index, turn index] of every turn a reference names (a range: the turns it spans). */
function evidenceTurns(
  reference: string,
  positions: ReadonlyMap<string, [number, number]>,
): [number, number][] {
  const exact = positions.get(reference);
  if (exact) return [exact];
  const found: [number, number][] = [];
  for (const span of evidenceSpans(reference)) {
    for (const [id, position] of positions) if (spanHolds(span, id)) found.push(position);
  }
  return [...new Map(found.map((position) => [position.join(':'), position])).values()];
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
