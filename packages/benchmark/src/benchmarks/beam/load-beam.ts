import { createHash } from 'node:crypto';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
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

async function readJson(file: string, digest: ReturnType<typeof createHash>, name: string): Promise<unknown> {
  const bytes = await readFile(file).catch((error: NodeJS.ErrnoException) => {
    throw new Error(`${file}: cannot be read (${error.code ?? error.message})`);
  });
  digest.update(`${name}\0${createHash('sha256').update(bytes).digest('hex')}\n`);
  try {
    return JSON.parse(bytes.toString('utf8')) as unknown;
  } catch (error) {
    throw new Error(`${file}: not valid JSON (${(error as Error).message})`);
  }
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
      sessions.push({ id: `c${conversation}_b${batchIndex + 1}_t${turnIndex + 1}`, messages });
      anchors.push(batchAnchor);
    });
  });
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
  if (value === undefined || value === null) return [];
  if (typeof value === 'number') return Number.isInteger(value) ? [value] : [];
  if (Array.isArray(value)) return value.flatMap(flattenSourceIds);
  if (typeof value === 'object') return Object.values(value).flatMap(flattenSourceIds);
  return [];
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
      const questionId = `beam_c${conversation}_${ability}_${index + 1}`;
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
      const evidence = [...new Set(flattenSourceIds(value.source_chat_ids))].sort((a, b) => a - b);
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
