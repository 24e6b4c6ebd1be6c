import { createHash } from 'node:crypto';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { readDatasetJson } from '../../dataset/parse-dataset-json.js';
import { formatRecordDate, MONTH_NAMES } from '../../dataset/record-date.js';
import type { LongMemEvalRecord, Turn } from '../longmemeval-record.js';
import { BEAM_ABILITIES, type BeamAbility, isBeamAbility } from './beam-abilities.js';

/**
 * A BEAM probing question as a common record, plus what BEAM's own scoring reads: the rubric items
 * its judge grades one by one, the conversation it belongs to and its gold message ids.
 */
export type BeamRecord = LongMemEvalRecord & {
  beam_rubric: string[];
  beam_conversation: string;
  /** `source_chat_ids` flattened, sorted: the message ids BEAM names as the question's evidence. */
  beam_evidence_messages: number[];
};

export type LoadedBeam = {
  path: string;
  /** SHA-256 over every file read, in order (path relative to the folder, then its SHA-256). */
  sha256: string;
  records: BeamRecord[];
  warnings: string[];
};

const CHAT = 'chat.json';
const PROBING = join('probing_questions', 'probing_questions.json');

/** A folder of one BEAM conversation: `chat.json` beside `probing_questions/probing_questions.json`. */
export function isBeamConversationFolder(path: string): boolean {
  return existsSync(join(path, CHAT)) && existsSync(join(path, PROBING));
}

/**
 * The conversation folders of a BEAM path, in numeric order: the path itself when it is one, else
 * its sub-folders that are (a tier such as `chats/100K`). Empty when neither.
 */
export function beamConversationFolders(path: string): string[] {
  if (!statSync(path, { throwIfNoEntry: false })?.isDirectory()) return [];
  if (isBeamConversationFolder(path)) return [path];
  return readdirSync(path, { withFileTypes: true })
    .filter(
      (entry) =>
        (entry.isDirectory() || entry.isSymbolicLink()) && isBeamConversationFolder(join(path, entry.name)),
    )
    .map((entry) => entry.name)
    .sort(compareNames)
    .map((name) => join(path, name));
}

function compareNames(left: string, right: string): number {
  const a = Number(left);
  const b = Number(right);
  if (Number.isInteger(a) && Number.isInteger(b)) return a - b;
  return left < right ? -1 : left > right ? 1 : 0;
}

/** Whether a path is a BEAM folder (a conversation, or a tier of them). */
export function isBeamFolder(path: string): boolean {
  return beamConversationFolders(path).length > 0;
}

/**
 * Loads a BEAM tier folder (or one conversation folder) into common records, one per probing
 * question (see `beamConversationRecords`). Every error starts with the file at fault.
 */
export async function loadBeam(path: string): Promise<LoadedBeam> {
  const folders = beamConversationFolders(path);
  if (folders.length === 0) {
    throw new Error(
      `${path}: not a BEAM folder (no chat.json with probing_questions/probing_questions.json in it or in its sub-folders)`,
    );
  }
  const digest = createHash('sha256');
  const records: BeamRecord[] = [];
  const warnings: string[] = [];
  for (const folder of folders) {
    const conversation =
      folder === path
        ? (folder.split(/[\\/]/).filter(Boolean).pop() ?? '1')
        : folder.slice(path.length).replace(/^[\\/]+/, '');
    const chat = await readJson(join(folder, CHAT), digest, `${conversation}/${CHAT}`);
    const probing = await readJson(
      join(folder, PROBING),
      digest,
      `${conversation}/probing_questions/probing_questions.json`,
    );
    try {
      const mapped = beamConversationRecords(conversation, chat, probing);
      records.push(...mapped.records);
      warnings.push(...mapped.warnings.map((warning) => `${folder}: ${warning}`));
    } catch (error) {
      throw new Error(`${folder}: ${(error as Error).message}`);
    }
  }
  return { path, sha256: digest.digest('hex'), records, warnings };
}

/**
 * One file of a conversation through the guarded reader every loader uses (a regular file only, a
 * FIFO or device refused at once; 512 MB, UTF-8, 64 MB per string, nesting bounded), its
 * SHA-256 added to the tier's digest.
 */
async function readJson(file: string, digest: ReturnType<typeof createHash>, name: string): Promise<unknown> {
  const { bytes, value } = await readDatasetJson(file);
  digest.update(`${name}\0${createHash('sha256').update(bytes).digest('hex')}\n`);
  return value;
}

/**
 * The files `loadBeam` reads from a BEAM path, relative to it with `/`, in the order of its
 * conversation folders: what a run's dataset checksum covers (nothing else under the folder:
 * no link it holds is walked, no unrelated file is hashed).
 */
export function beamDatasetFiles(path: string): string[] {
  return beamConversationFolders(path).flatMap((folder) => {
    const relative = folder === path ? '' : `${folder.slice(path.length).replace(/^[\\/]+/, '')}/`;
    return [`${relative}${CHAT}`, `${relative}probing_questions/probing_questions.json`];
  });
}

/**
 * A conversation's name as it stands in question ids: the folder name with every character but
 * letters, digits, `.` and `-` written `-`, so no folder name can put `_abs` (lme's abstention
 * mark, tested as a substring as LongMemEval's scripts do) or another id's shape into an id: a
 * folder `1_abs` gives `beam_c1-abs_…`, and only the abstention ability's questions are abstention.
 */
export function beamConversationId(conversation: string): string {
  return conversation.replace(/[^A-Za-z0-9.-]/g, '-');
}

type BeamMessage = { id: number; role: 'user' | 'assistant'; content: string; timeAnchor?: string };
type BeamSession = { id: string; date: string; messages: BeamMessage[] };

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

/** The answer field of each ability (`ideal_response`, `ideal_answer`, …), first present wins. */
const ANSWER_FIELDS = [
  'answer',
  'ideal_answer',
  'ideal_response',
  'ideal_summary',
  'expected_compliance',
] as const;

/** `source_chat_ids` flattened: a list, a map of lists (`first_statement`, `original_info`, …) or a number. */
export function flattenSourceIds(value: unknown): number[] {
  return readSourceIds(value).ids;
}

/**
 * `source_chat_ids` read: the message ids it names (whole numbers, in order), and every other
 * value found in it (`"0"`, `0.5`, `null`, `true`) as JSON, for a warning naming them. Absent or
 * `null` as a whole means no gold. Walked with a stack, never recursion (nesting is bounded by the
 * reader, and a hand-made value must not overflow the stack either).
 */
export function readSourceIds(value: unknown): { ids: number[]; invalid: string[] } {
  const ids: number[] = [];
  const invalid: string[] = [];
  if (value === undefined || value === null) return { ids, invalid };
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const current = stack.pop();
    if (typeof current === 'number' && Number.isInteger(current)) ids.push(current);
    else if (Array.isArray(current)) for (let at = current.length - 1; at >= 0; at--) stack.push(current[at]);
    else if (current !== null && typeof current === 'object') {
      const values = Object.values(current);
      for (let at = values.length - 1; at >= 0; at--) stack.push(values[at]);
    } else invalid.push(JSON.stringify(current) ?? String(current));
  }
  return { ids, invalid };
}

/**
 * One BEAM conversation's probing questions as common records:
 * - question_id `beam_c<conversation>_<ability>_<n>` (n 1-based within the ability; abstention ids
 *   contain `_abs`, so lme marks them abstention as it does LongMemEval's), question_type the ability;
 * - the haystack is the whole conversation (`beamSessions`), every message a turn with its role;
 *   question_date is the last session's date;
 * - has_answer on the messages `source_chat_ids` names (user or assistant: about a quarter of
 *   BEAM's gold messages are the assistant's), answer_session_ids the sessions holding them;
 *   abstention questions (and a few others) name none and have no retrieval target;
 * - answer the ability's reference field, beam_rubric its `rubric` items.
 * A gold id naming no message is a warning (left out of the gold), never silently dropped.
 */
export function beamConversationRecords(
  conversation: string,
  chat: unknown,
  probing: unknown,
): { records: BeamRecord[]; warnings: string[] } {
  const sessions = beamSessions(conversation, chat);
  const sessionOfMessage = new Map<number, number>();
  sessions.forEach((session, index) => {
    for (const message of session.messages) sessionOfMessage.set(message.id, index);
  });
  if (!probing || typeof probing !== 'object' || Array.isArray(probing))
    throw new Error('probing_questions.json is not a JSON object keyed by ability');
  const unknown = Object.keys(probing).filter((key) => !isBeamAbility(key));
  if (unknown.length > 0)
    throw new Error(
      `probing_questions.json: unknown ability ${unknown.map((key) => `"${key}"`).join(', ')}; known: ${BEAM_ABILITIES.join(', ')}`,
    );
  const warnings: string[] = [];
  const records: BeamRecord[] = [];
  const plainSessions = sessions.map((session) =>
    session.messages.map((message): Turn => ({ role: message.role, content: message.content })),
  );
  const ids = sessions.map((session) => session.id);
  const dates = sessions.map((session) => session.date);
  const questionDate = dates.at(-1) ?? '2024/01/01 (Mon) 00:00';
  for (const ability of BEAM_ABILITIES) {
    const questions = (probing as Record<string, unknown>)[ability];
    if (questions === undefined) continue;
    if (!Array.isArray(questions))
      throw new Error(`probing_questions.json: "${ability}" is not an array of questions`);
    questions.forEach((item, index) => {
      const questionId = `beam_c${beamConversationId(conversation)}_${ability}_${index + 1}`;
      const where = `probing_questions.json ${ability}[${index}]`;
      const value = item as Record<string, unknown> | null;
      if (!value || typeof value !== 'object') throw new Error(`${where}: is not a question object`);
      if (typeof value.question !== 'string')
        throw new Error(`${where}: field "question" is missing or not a string`);
      const rubric = value.rubric;
      if (!Array.isArray(rubric) || rubric.length === 0 || rubric.some((entry) => typeof entry !== 'string'))
        throw new Error(`${where}: field "rubric" is missing or not a non-empty list of strings`);
      const answerField = ANSWER_FIELDS.find((field) => typeof value[field] === 'string');
      const answer = answerField ? (value[answerField] as string) : (rubric as string[]).join('; ');
      const source = readSourceIds(value.source_chat_ids);
      if (source.invalid.length > 0)
        warnings.push(
          `question ${questionId} (${where}): field "source_chat_ids" holds ${source.invalid.slice(0, 5).join(', ')}${source.invalid.length > 5 ? ', …' : ''}, not a message id (a whole number); left out of the gold`,
        );
      const evidence = [...new Set(source.ids)].sort((a, b) => a - b);
      const missing = evidence.filter((id) => !sessionOfMessage.has(id));
      if (missing.length > 0)
        warnings.push(
          `question ${questionId} names message ${missing.join(', ')} that is not in chat.json (left out of the gold)`,
        );
      const gold = new Set(evidence.filter((id) => sessionOfMessage.has(id)));
      const goldSessions = new Set([...gold].map((id) => sessionOfMessage.get(id)!));
      records.push({
        question_id: questionId,
        question: value.question,
        question_type: ability satisfies BeamAbility,
        answer,
        question_date: questionDate,
        haystack_session_ids: ids,
        haystack_dates: dates,
        haystack_sessions: sessions.map((session, sessionIndex) =>
          goldSessions.has(sessionIndex)
            ? session.messages.map(
                (message): Turn =>
                  gold.has(message.id)
                    ? { role: message.role, content: message.content, has_answer: true }
                    : { role: message.role, content: message.content },
              )
            : plainSessions[sessionIndex]!,
        ),
        answer_session_ids: [...goldSessions].sort((a, b) => a - b).map((at) => ids[at]!),
        beam_rubric: [...(rubric as string[])],
        beam_conversation: conversation,
        beam_evidence_messages: [...gold].sort((a, b) => a - b),
      });
    });
  }
  return { records, warnings };
}
