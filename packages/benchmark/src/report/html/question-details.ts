import { existsSync } from 'node:fs';
import { datasetRecords } from '../../benchmarks/load-dataset.js';
import type { LongMemEvalRecord } from '../../benchmarks/longmemeval-record.js';

/** What a question page shows from the dataset itself. */
export type QuestionDetails = {
  question: string;
  date: string;
  answer: string;
  /** Dates of the sessions the page names (hits and gold), by haystack session id. */
  sessionDates: Record<string, string>;
  /** The evidence turns (`has_answer`), any role, with their session and date. */
  evidence: { session_id: string; date: string; role: string; text: string }[];
};

/** Longest evidence turn text kept in the report. */
const MAX_TURN_CHARS = 3000;

export type ReadQuestionDetailsOptions = {
  /** The questions wanted. */
  questionIds: ReadonlySet<string>;
  /** The sessions whose dates a question's page needs. */
  sessionsOf: (questionId: string) => ReadonlySet<string>;
};

export function questionDetails(record: LongMemEvalRecord, sessions: ReadonlySet<string>): QuestionDetails {
  const sessionDates: Record<string, string> = {};
  const evidence: QuestionDetails['evidence'] = [];
  record.haystack_session_ids.forEach((sessionId, index) => {
    const date = record.haystack_dates[index] ?? '';
    const turns = record.haystack_sessions[index] ?? [];
    const holdsEvidence = turns.some((turn) => turn.has_answer === true);
    if (sessions.has(sessionId) || holdsEvidence) sessionDates[sessionId] = date;
    for (const turn of turns) {
      if (turn.has_answer !== true) continue;
      const text =
        turn.content.length > MAX_TURN_CHARS ? `${turn.content.slice(0, MAX_TURN_CHARS)} …` : turn.content;
      evidence.push({ session_id: sessionId, date, role: turn.role, text });
    }
  });
  return {
    question: record.question,
    date: record.question_date,
    answer: String(record.answer),
    sessionDates,
    evidence,
  };
}

/**
 * Reads the questions' text, dates, answers and evidence turns from the dataset file a run
 * recorded. LongMemEval files are streamed (S is large), other formats loaded whole. Returns a
 * reason instead when the file is not readable, so the report can say so.
 */
export async function readQuestionDetails(
  path: string,
  options: ReadQuestionDetailsOptions,
): Promise<{ details: Map<string, QuestionDetails> } | { unavailable: string }> {
  if (path === '' || !existsSync(path)) {
    return { unavailable: `the dataset file ${path || '(none recorded)'} is not readable here` };
  }
  const details = new Map<string, QuestionDetails>();
  const keep = (record: LongMemEvalRecord) => {
    if (!options.questionIds.has(record.question_id)) return;
    details.set(record.question_id, questionDetails(record, options.sessionsOf(record.question_id)));
  };
  try {
    for await (const record of datasetRecords(path)) {
      keep(record);
      if (details.size === options.questionIds.size) break;
    }
  } catch (error) {
    return { unavailable: `the dataset file could not be read (${(error as Error).message})` };
  }
  return { details };
}
