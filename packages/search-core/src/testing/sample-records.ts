import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { MemoryDocument } from '../core/retriever.js';

/** The repository's committed LongMemEval S sample (22 real questions with their haystacks). */
export const SAMPLE_PATH = resolve(
  import.meta.dirname,
  '../../../../datasets/sample/longmemeval_s_sample.json.gz',
);

/** The fields of a LongMemEval record the search-core tests use. */
export type SampleRecord = {
  question_id: string;
  question_type: string;
  question: string;
  question_date: string;
  answer: string;
  answer_session_ids: string[];
  haystack_session_ids: string[];
  haystack_dates: string[];
  haystack_sessions: { role: 'user' | 'assistant'; content: string; has_answer?: boolean }[][];
};

let records: SampleRecord[] | undefined;

/** Every record of the sample, read and parsed once per test file. */
export function sampleRecords(): readonly SampleRecord[] {
  records ??= JSON.parse(gunzipSync(readFileSync(SAMPLE_PATH)).toString()) as SampleRecord[];
  return records;
}

/** One sample record by question id; a missing id is an error naming it. */
export function sampleRecord(questionId: string): SampleRecord {
  const record = sampleRecords().find((candidate) => candidate.question_id === questionId);
  if (!record) throw new Error(`the sample has no question ${questionId}.`);
  return record;
}

/**
 * A record's haystack as turn documents, as the benchmark's corpus builds them: id
 * `<session id>_<turn number from 1>`, with session id, date, turn index and role; user turns only
 * (`roles: 'user'`, the default, as the official retrieval) or every turn (`'all'`).
 */
export function sampleTurnDocuments(
  record: SampleRecord,
  options: { roles?: 'user' | 'all'; sessionIds?: readonly string[] } = {},
): MemoryDocument[] {
  const roles = options.roles ?? 'user';
  const wanted = options.sessionIds ? new Set(options.sessionIds) : undefined;
  return record.haystack_sessions.flatMap((turns, session) => {
    const sessionId = record.haystack_session_ids[session]!;
    if (wanted && !wanted.has(sessionId)) return [];
    return turns.flatMap((turn, turnIndex) =>
      roles === 'all' || turn.role === 'user'
        ? [
            {
              id: `${sessionId}_${turnIndex + 1}`,
              text: turn.content,
              sessionId,
              date: record.haystack_dates[session]!,
              turnIndex,
              role: turn.role,
            },
          ]
        : [],
    );
  });
}
