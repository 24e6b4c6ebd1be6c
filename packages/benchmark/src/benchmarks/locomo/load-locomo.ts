import { createHash } from 'node:crypto';
import { checkDatasetFile } from '../../dataset/check-dataset-file.js';
import { readDatasetJson } from '../../dataset/parse-dataset-json.js';
import { formatRecordDate, MONTH_NAMES } from '../../dataset/record-date.js';
import type { LongMemEvalRecord, Turn } from '../longmemeval-record.js';
import { LOCOMO_ADVERSARIAL, LOCOMO_CATEGORIES, type LocomoCategoryId } from './locomo-categories.js';

export { LOCOMO_ADVERSARIAL, LOCOMO_CATEGORIES, locomoCategoryOf } from './locomo-categories.js';

/**
 * A LoCoMo QA as a LongMemEval record, plus its `evidence` list verbatim (`locomo_evidence`): the
 * official LoCoMo metrics compare those strings as they are (`D8:6; D9:17` is one id that no
 * dialog matches), while `has_answer` marks the dialogs the lenient parse reads in them.
 */
export type LocomoRecord = LongMemEvalRecord & { locomo_evidence: string[] };

export type LoadedLocomo = {
  path: string;
  /** SHA-256 of the (uncompressed) JSON. */
  sha256: string;
  records: LocomoRecord[];
  /** Evidence references that name no turn of their conversation (the published file has a few). */
  warnings: string[];
};

/**
 * `1:56 pm on 8 May, 2023` (LoCoMo's `session_<n>_date_time`) → `2023/05/08 (Mon) 13:56` (the
 * LongMemEval date format), or undefined when the text is not such a date.
 */
export function convertLocomoDate(text: string): string | undefined {
  const match = /^\s*(\d{1,2}):(\d{2})\s*([ap])\.?m\.?\s+on\s+(\d{1,2})\s+([A-Za-z]+),?\s+(\d{4})\s*$/i.exec(
    text,
  );
  if (!match) return undefined;
  const [, hourText, minuteText, half, dayText, monthText, yearText] = match;
  const hour12 = Number(hourText);
  const minute = Number(minuteText);
  const day = Number(dayText);
  const year = Number(yearText);
  const month = MONTH_NAMES.findIndex(
    (name) => name === monthText!.toLowerCase() || name.slice(0, 3) === monthText!.toLowerCase(),
  );
  if (month === -1 || hour12 < 1 || hour12 > 12 || minute > 59) return undefined;
  const date = new Date(Date.UTC(year, month, day));
  if (date.getUTCMonth() !== month || date.getUTCDate() !== day) return undefined;
  const hour = (hour12 % 12) + (half!.toLowerCase() === 'p' ? 12 : 0);
  return formatRecordDate(new Date(Date.UTC(year, month, day, hour, minute)));
}

/**
 * Whether a parsed JSON value looks like LoCoMo: conversations (objects with `conversation`, `qa`
 * or `sample_id`, and no LongMemEval `question_id`).
 */
export function isLocomoShaped(value: unknown): boolean {
  const first = Array.isArray(value) ? value[0] : value;
  // Any LoCoMo key is enough: a conversation missing one is then named by the LoCoMo loader,
  // not reported as a LongMemEval record without "question_id".
  return (
    isObject(first) &&
    !('question_id' in first) &&
    ('conversation' in first || 'qa' in first || 'sample_id' in first)
  );
}

/** Reads a LoCoMo file (`locomo10.json`, optionally gzipped; an array of conversations or one). */
export async function loadLocomo(path: string): Promise<LoadedLocomo> {
  await checkDatasetFile(path);
  const { bytes, value } = await readDatasetJson(path);
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  try {
    return { path, sha256, ...locomoRecords(value) };
  } catch (error) {
    throw new Error(`${path}: ${(error as Error).message}`);
  }
}

/**
 * Maps LoCoMo conversations (the file's records, which it calls samples: `sample_id`) onto
 * LongMemEval records, one per QA item:
 * - question_id `<sample_id>_q<i>` (i 1-based in the conversation's `qa`), `_abs` appended for
 *   category 5 so lme treats it as abstention; question_type from LOCOMO_CATEGORIES;
 * - the haystack is every non-empty session of the conversation in session-number order, ids
 *   `<sample_id>_s<n>`, dates converted to `YYYY/MM/DD (Ddd) HH:MM`; question_date is the last
 *   session's date (LoCoMo questions are asked after the conversation and carry no date);
 * - both speakers' turns get role `user`: LoCoMo is a conversation between two people, and the
 *   default user-only indexing must keep both (about half the evidence is speaker_b's). Turn
 *   content is `<speaker>: <text>`, plus ` [shares <blip_caption>]` for a shared image, as the
 *   official LoCoMo RAG and prompts present turns, so who said what is not lost;
 * - has_answer on the turns the evidence names (`D<session>:<turn>`; the lenient parse accepts the
 *   published file's `D8:6; D9:17`, `D30:05` and `D:11:26`); answer_session_ids are the sessions
 *   holding them; evidence naming no turn is reported in `warnings` (question id, conversation,
 *   QA index and the reference) and left out of the gold;
 * - answer: `answer` (a string or number); category 5 items carry only `adversarial_answer` (a
 *   plausible but wrong answer), so their answer becomes an explanation for the abstention
 *   judge: `Not mentioned in the conversation (a tempting wrong answer: <adversarial_answer>).`;
 * - locomo_evidence: the QA's `evidence` strings verbatim, for the official LoCoMo metrics.
 * Throws one sentence naming the conversation and the field at fault; the caller adds the file.
 */
export function locomoRecords(value: unknown): { records: LocomoRecord[]; warnings: string[] } {
  const conversations = Array.isArray(value) ? value : [value];
  if (conversations.length === 0) throw new Error('holds no LoCoMo conversations');
  const records: LocomoRecord[] = [];
  const warnings: string[] = [];
  const seen = new Set<string>();
  conversations.forEach((conversation, position) => {
    const mapped = conversationRecords(conversation, position, warnings);
    for (const record of mapped) {
      if (seen.has(record.question_id)) throw new Error(`question ${record.question_id} appears twice`);
      seen.add(record.question_id);
      records.push(record);
    }
  });
  return { records, warnings };
}

type LocomoTurn = { turn: Turn; diaId: string };
type LocomoSession = { number: number; id: string; date: string; turns: LocomoTurn[] };

/** The records of one LoCoMo conversation (`{sample_id, conversation, qa}`), one per QA item. */
function conversationRecords(entry: unknown, position: number, warnings: string[]): LocomoRecord[] {
  if (!isObject(entry)) throw new Error(`conversation ${position} is not a JSON object`);
  const conversationId =
    typeof entry.sample_id === 'string' && entry.sample_id.trim() !== ''
      ? entry.sample_id
      : typeof entry.sample_id === 'number'
        ? String(entry.sample_id)
        : undefined;
  const where = conversationId === undefined ? `conversation ${position}` : `conversation ${conversationId}`;
  const fail = (field: string, problem: string): never => {
    throw new Error(`${where}: field "${field}" ${problem}`);
  };
  if (conversationId === undefined) fail('sample_id', 'is missing or not a non-empty string');
  if (!isObject(entry.conversation)) fail('conversation', 'is missing or not an object');
  if (!Array.isArray(entry.qa)) fail('qa', 'is missing or not an array');
  /** The `conversation` field: speaker names and the sessions with their dates. */
  const dialog = entry.conversation as Record<string, unknown>;

  const sessions: LocomoSession[] = [];
  for (const key of Object.keys(dialog)) {
    const match = /^session_(\d+)$/.exec(key);
    if (!match) continue;
    const number = Number(match[1]);
    const rawTurns = dialog[key];
    if (!Array.isArray(rawTurns)) fail(`conversation.${key}`, 'is not an array of turns');
    if ((rawTurns as unknown[]).length === 0) continue; // the official code skips empty sessions
    const dateKey = `${key}_date_time`;
    const rawDate = dialog[dateKey];
    if (typeof rawDate !== 'string') fail(`conversation.${dateKey}`, 'is missing or not a string');
    const date = convertLocomoDate(rawDate as string);
    if (date === undefined) {
      fail(
        `conversation.${dateKey}`,
        `is not a date like "1:56 pm on 8 May, 2023" (got ${JSON.stringify(rawDate)})`,
      );
    }
    const turns = (rawTurns as unknown[]).map((raw, index): LocomoTurn => {
      const field = `conversation.${key}[${index}]`;
      if (!isObject(raw)) fail(field, 'is not a turn object');
      const turn = raw as Record<string, unknown>;
      if (typeof turn.speaker !== 'string') fail(`${field}.speaker`, 'is missing or not a string');
      if (typeof turn.text !== 'string') fail(`${field}.text`, 'is missing or not a string');
      if (typeof turn.dia_id !== 'string') fail(`${field}.dia_id`, 'is missing or not a string');
      if (turn.blip_caption !== undefined && typeof turn.blip_caption !== 'string') {
        fail(`${field}.blip_caption`, 'is not a string');
      }
      const caption = typeof turn.blip_caption === 'string' ? ` [shares ${turn.blip_caption}]` : '';
      return {
        turn: { role: 'user', content: `${turn.speaker}: ${turn.text}${caption}` },
        diaId: turn.dia_id as string,
      };
    });
    sessions.push({ number, id: `${conversationId}_s${number}`, date: date!, turns });
  }
  if (sessions.length === 0) fail('conversation', 'holds no non-empty session_<n>');
  sessions.sort((left, right) => left.number - right.number);

  // `D3:7` → [session index, turn index]; keyed by the canonical `3:7` of each turn's dia_id.
  const turnsByDiaId = new Map<string, [number, number]>();
  sessions.forEach((session, sessionIndex) => {
    session.turns.forEach(({ diaId }, turnIndex) => {
      for (const key of diaKeys(diaId)) turnsByDiaId.set(key, [sessionIndex, turnIndex]);
    });
  });
  const exactDiaIds = new Set(sessions.flatMap((session) => session.turns.map(({ diaId }) => diaId)));
  const questionDate = sessions[sessions.length - 1]!.date;
  const sessionIds = sessions.map((session) => session.id);
  const dates = sessions.map((session) => session.date);
  const plainSessions = sessions.map((session) => session.turns.map(({ turn }) => turn));

  return (entry.qa as unknown[]).map((raw, index): LocomoRecord => {
    const field = `qa[${index}]`;
    if (!isObject(raw)) fail(field, 'is not an object');
    const item = raw as Record<string, unknown>;
    if (typeof item.question !== 'string') fail(`${field}.question`, 'is missing or not a string');
    const category = item.category;
    if (typeof category !== 'number' || !(category in LOCOMO_CATEGORIES)) {
      fail(`${field}.category`, `must be 1, 2, 3, 4 or 5 (got ${JSON.stringify(category)})`);
    }
    const adversarial = category === LOCOMO_ADVERSARIAL;
    const questionId = `${conversationId}_q${index + 1}${adversarial ? '_abs' : ''}`;
    let answer: string | number;
    if (typeof item.answer === 'string' || typeof item.answer === 'number') {
      answer = item.answer;
    } else if (adversarial && typeof item.adversarial_answer === 'string') {
      answer = `Not mentioned in the conversation (a tempting wrong answer: ${item.adversarial_answer}).`;
    } else {
      fail(
        `${field}.answer`,
        adversarial
          ? 'and adversarial_answer are both missing or not strings'
          : 'is missing or not a string or number',
      );
    }
    if (item.evidence !== undefined && !Array.isArray(item.evidence)) {
      fail(`${field}.evidence`, 'is not an array of dia_ids');
    }
    const evidence = (item.evidence ?? []) as unknown[];
    const marked = new Map<number, Set<number>>();
    evidence.forEach((reference, referenceIndex) => {
      if (typeof reference !== 'string') fail(`${field}.evidence[${referenceIndex}]`, 'is not a string');
      const keys = diaKeys(reference as string);
      const found = keys.map((key) => turnsByDiaId.get(key)).filter((hit) => hit !== undefined);
      if (found.length > 0 && found.length === keys.length && !exactDiaIds.has(reference as string)) {
        warnings.push(
          `question ${questionId} (${where} ${field}): evidence ${JSON.stringify(reference)} is not a dialog id as the conversation writes them; read as ${keys.map((key) => `D${key}`).join(', ')} (the official dialog-level recall never matches it)`,
        );
      } else if (found.length === 0 || found.length < keys.length) {
        warnings.push(
          `question ${questionId} (${where} ${field}): evidence ${JSON.stringify(reference)} names no dialog of the conversation${found.length > 0 ? ' (in part)' : ''}; ${found.length > 0 ? 'only the dialogs it names are used' : 'it is left out of the gold'}`,
        );
      }
      for (const [sessionIndex, turnIndex] of found) {
        const turns = marked.get(sessionIndex) ?? new Set<number>();
        turns.add(turnIndex);
        marked.set(sessionIndex, turns);
      }
    });
    // Sessions without evidence are shared between the conversation's records; evidence sessions are
    // copied with has_answer set on their evidence turns.
    const haystack = plainSessions.map((turns, sessionIndex) => {
      const evidenceTurns = marked.get(sessionIndex);
      return evidenceTurns
        ? turns.map((turn, turnIndex) =>
            evidenceTurns.has(turnIndex) ? { ...turn, has_answer: true } : turn,
          )
        : turns;
    });
    return {
      question_id: questionId,
      question_type: LOCOMO_CATEGORIES[category as LocomoCategoryId],
      question: item.question as string,
      answer: answer!,
      question_date: questionDate,
      haystack_session_ids: [...sessionIds],
      haystack_dates: [...dates],
      haystack_sessions: haystack,
      answer_session_ids: [...marked.keys()].sort((left, right) => left - right).map((at) => sessionIds[at]!),
      locomo_evidence: evidence.map(String),
    };
  });
}

/** Canonical `session:turn` keys of a (possibly messy) dia_id reference: `D8:6; D9:17` → 8:6, 9:17. */
function diaKeys(reference: string): string[] {
  return [...reference.matchAll(/D\s*:?\s*(\d+)\s*:\s*(\d+)/gi)].map(
    (match) => `${Number(match[1])}:${Number(match[2])}`,
  );
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
