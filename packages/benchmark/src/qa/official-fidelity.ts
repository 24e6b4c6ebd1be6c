import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import type { ChatClient, ChatCompleteOptions } from '@lme/search-core';
import type { LongMemEvalRecord } from '../benchmarks/longmemeval-record.js';
import { createJudge } from './judge.js';
import { createReader, type HistoryFormat, type ReaderSession } from './reader.js';
import type { ReaderPromptStyle } from './reader-prompts.js';
import { fullContextSessions, oracleSessions, rankedRounds, rankedSessions } from './reader-sessions.js';

/**
 * Compares the requests lme's reader and judge send with what the unchanged official scripts sent
 * (`../shared/reference/official-prompts`, and `fixtures/official-modes.jsonl.gz` for the modes
 * that reference does not hold), question by question: SHA-256 of the prompt and every request
 * parameter. Used by official-fidelity.test.ts and scripts/check-prompts.ts.
 */

/** One line of a reference file (what one official request held). */
export type ReferenceLine = {
  question_id: string;
  prompt_sha256: string;
  prompt_chars: number;
  roles?: string[];
  model?: string;
  max_tokens?: number;
  n?: number;
  temperature?: number;
  /** official-modes: which mode; Chain-of-Note calls, hash of their prompt hashes, their parameters. */
  mode?: string;
  note_calls?: number;
  notes_sha256?: string;
  note_params?: Record<string, unknown>;
};

/** How lme is set up to match one official mode. */
export type ReaderMode = {
  sessions(record: LongMemEvalRecord): ReaderSession[];
  prompt: ReaderPromptStyle;
  historyFormat: HistoryFormat;
  userOnly?: boolean;
  notes?: boolean;
};

export type ComparisonResult = {
  name: string;
  compared: number;
  identicalPrompts: number;
  identicalParameters: number;
  /** The first question whose prompt or parameters differ, with what differs. */
  firstDifference?: string;
};

const MODEL = 'gpt-4o-2024-08-06';

export const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/** The Chain-of-Note reply rule shared with scripts/record-official-modes.py. */
export const noteReply = (prompt: string) => `  Note \u2713 ${sha256(prompt).slice(0, 16)} caf\u00e9\n`;

export function readReferenceLines(path: string): ReferenceLine[] {
  return gunzipSync(readFileSync(path))
    .toString('utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as ReferenceLine);
}

/**
 * The lme reader mode matching a reference file or official-modes mode name, or undefined when
 * the name is not a reader mode. Names: `reader-<data>-<retriever>-<format>_<style>` and the
 * official-modes names written by scripts/record-official-modes.py.
 */
export function readerModeOf(name: string): ReaderMode | undefined {
  const match = /(json|nl)_(cot|direct)$/.exec(name);
  if (!match) return undefined;
  const historyFormat = match[1] as HistoryFormat;
  const prompt = match[2] as ReaderPromptStyle;
  const userOnly = name.includes('-useronly');
  const notes = name.includes('-con-');
  const base = { prompt, historyFormat, userOnly, notes };
  if (name.includes('orig-session')) return { ...base, sessions: (record) => fullContextSessions(record) };
  if (name.includes('oracle-session')) return { ...base, sessions: (record) => oracleSessions(record) };
  if (name.startsWith('flat-turn-top10')) {
    return {
      ...base,
      sessions: (record) => rankedRounds(record, turnRanking(record).slice(0, 60), { topK: 10 }),
    };
  }
  if (name.startsWith('s-repeated-flat-session-top10')) {
    return {
      ...base,
      sessions: (record) =>
        rankedSessions(record, sessionRanking(record), { topK: 10, duplicates: 'official' }),
    };
  }
  return undefined;
}

/** record-official-modes.py `turn_ranking`: every turn id plus one bogus id, by sha256(question_id + id). */
export function turnRanking(record: LongMemEvalRecord): string[] {
  const ids = record.haystack_sessions.flatMap((turns, index) =>
    turns.map((_turn, turn) => `${record.haystack_session_ids[index]}_${turn + 1}`),
  );
  ids.push('no_such_session_1');
  return byHash(record.question_id, ids);
}

/** record-official-modes.py `session_ranking`: a repeated id at ranks 1 and 3, the rest by hash. */
export function sessionRanking(record: LongMemEvalRecord): string[] {
  const ids = record.haystack_session_ids;
  const twice = [...new Set(ids.filter((id, index) => ids.indexOf(id) !== index))].sort();
  const others = byHash(record.question_id, [...new Set(ids.filter((id) => !twice.includes(id)))]);
  return twice.length > 0 ? [twice[0]!, others[0]!, twice[0]!, ...others.slice(1)] : others;
}

function byHash(questionId: string, ids: readonly string[]): string[] {
  const keyed = ids.map((id) => ({ id, key: sha256(questionId + id) }));
  return keyed.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)).map(({ id }) => id);
}

/** A client that records every request and answers notes with `noteReply`, answers with "x". */
function recordingClient(): ChatClient & { requests: ChatCompleteOptions[] } {
  const requests: ChatCompleteOptions[] = [];
  return {
    id: 'recording',
    requests,
    async complete(request) {
      requests.push(request);
      const prompt = request.messages[0]?.content ?? '';
      const text = request.maxTokens === 500 && prompt.includes('Extracted note') ? noteReply(prompt) : 'x';
      return {
        text,
        texts: [text],
        usage: { promptTokens: 0, completionTokens: 0 },
        cached: false,
        latencyMs: 0,
      };
    },
  };
}

/** The official request parameters of a request lme made, in the reference's field names. */
function parametersOf(request: ChatCompleteOptions): Record<string, unknown> {
  return {
    roles: request.messages.map((message) => message.role),
    model: request.model,
    max_tokens: request.maxTokens,
    n: request.n ?? 1,
    temperature: request.temperature,
  };
}

function expectedParameters(line: ReferenceLine): Record<string, unknown> {
  return {
    roles: line.roles,
    model: line.model,
    max_tokens: line.max_tokens,
    n: line.n,
    temperature: line.temperature,
  };
}

/** Compares one reader mode question by question; `lines` in reference order. */
export async function compareReaderPrompts(
  name: string,
  lines: readonly ReferenceLine[],
  records: ReadonlyMap<string, LongMemEvalRecord>,
  mode: ReaderMode,
): Promise<ComparisonResult> {
  const result: ComparisonResult = { name, compared: 0, identicalPrompts: 0, identicalParameters: 0 };
  for (const line of lines) {
    const record = records.get(line.question_id);
    if (!record) throw new Error(`${name}: question ${line.question_id} is not in the dataset.`);
    const client = recordingClient();
    const reader = createReader({
      client,
      model: MODEL,
      prompt: mode.prompt,
      historyFormat: mode.historyFormat,
      userOnly: mode.userOnly ?? false,
      notes: mode.notes ?? false,
      noteConcurrency: 1,
    });
    await reader.answer({ record, sessions: mode.sessions(record) });
    const answer = client.requests.at(-1)!;
    const notes = client.requests.slice(0, -1);
    const prompt = answer.messages[0]?.content ?? '';
    const differences: string[] = [];
    if (sha256(prompt) !== line.prompt_sha256) {
      differences.push(`prompt differs (${prompt.length} characters, official ${line.prompt_chars})`);
    }
    if (line.note_calls !== undefined || notes.length > 0) {
      const notesHash = sha256(notes.map((note) => sha256(note.messages[0]?.content ?? '')).join(''));
      if (notes.length !== (line.note_calls ?? 0) || notesHash !== line.notes_sha256) {
        differences.push(`note prompts differ (${notes.length} calls, official ${line.note_calls ?? 0})`);
      }
    }
    const parameterProblems = compareParameters(answer, line, notes);
    result.compared += 1;
    if (differences.length === 0) result.identicalPrompts += 1;
    if (parameterProblems.length === 0) result.identicalParameters += 1;
    differences.push(...parameterProblems);
    if (differences.length > 0 && !result.firstDifference) {
      result.firstDifference = `${name}: question ${line.question_id}: ${differences.join('; ')}`;
    }
  }
  return result;
}

function compareParameters(
  answer: ChatCompleteOptions,
  line: ReferenceLine,
  notes: readonly ChatCompleteOptions[],
): string[] {
  const problems: string[] = [];
  if (line.max_tokens !== undefined) {
    const sent = JSON.stringify(parametersOf(answer));
    const expected = JSON.stringify(expectedParameters(line));
    if (sent !== expected) problems.push(`parameters ${sent}, official ${expected}`);
  } else {
    // official-modes lines: the answer call is what the reference files already pin; check it anyway.
    const sent = JSON.stringify(parametersOf(answer));
    const expected = JSON.stringify({ roles: ['user'], model: MODEL, max_tokens: 800, n: 1, temperature: 0 });
    if (sent !== expected) problems.push(`parameters ${sent}, official ${expected}`);
  }
  if (line.note_params && notes[0]) {
    const { roles: _roles, ...sent } = parametersOf(notes[0]);
    const sorted = (value: Record<string, unknown>) => JSON.stringify(Object.entries(value).sort());
    if (sorted(sent) !== sorted(line.note_params)) {
      problems.push(`note parameters ${JSON.stringify(sent)}, official ${JSON.stringify(line.note_params)}`);
    }
  }
  return problems;
}

/** Compares lme's judge prompts for the given hypotheses with the official ones. */
export async function compareJudgePrompts(
  name: string,
  lines: readonly ReferenceLine[],
  records: ReadonlyMap<string, LongMemEvalRecord>,
  hypotheses: ReadonlyMap<string, string>,
): Promise<ComparisonResult> {
  const result: ComparisonResult = { name, compared: 0, identicalPrompts: 0, identicalParameters: 0 };
  const client = recordingClient();
  const judge = createJudge({ client, model: MODEL });
  for (const line of lines) {
    const record = records.get(line.question_id);
    const hypothesis = hypotheses.get(line.question_id);
    if (!record || hypothesis === undefined) {
      throw new Error(`${name}: question ${line.question_id} has no record or no hypothesis.`);
    }
    await judge.grade({ record, hypothesis });
    const request = client.requests.at(-1)!;
    const prompt = request.messages[0]?.content ?? '';
    const samePrompt = sha256(prompt) === line.prompt_sha256;
    const sent = JSON.stringify(parametersOf(request));
    const expected = JSON.stringify(expectedParameters(line));
    result.compared += 1;
    if (samePrompt) result.identicalPrompts += 1;
    if (sent === expected) result.identicalParameters += 1;
    if ((!samePrompt || sent !== expected) && !result.firstDifference) {
      result.firstDifference = `${name}: question ${line.question_id}: ${samePrompt ? '' : 'prompt differs; '}parameters ${sent}, official ${expected}`;
    }
  }
  return result;
}
