import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadAnyDataset } from '../benchmarks/load-dataset.js';
import { evidenceSessions } from '../benchmarks/longmemeval-record.js';
import { oracleSessions } from '../qa/reader-sessions.js';
import { REPO_ROOT } from '../testing/run-cli.js';
import { createContextProvider } from './context-providers.js';

describe('context providers', () => {
  it('name the sessions the reader gets, so the QA stage needs no provider names', async () => {
    const { records } = await loadAnyDataset(join(REPO_ROOT, 'datasets/sample/longmemeval_s_sample.json.gz'));
    const record = records[0]!;
    const full = await createContextProvider('full-context').retrieve({ record });
    expect(full.readerHaystackSessions).toEqual(record.haystack_sessions.map((_, index) => index));
    const oracle = await createContextProvider('oracle').retrieve({ record });
    // The same sessions, in the same order, as the QA stage's oracle selection.
    expect(oracle.readerHaystackSessions!.map((index) => record.haystack_session_ids[index])).toEqual(
      oracleSessions(record).map((session) => session.sessionId),
    );
    expect(oracle.readerHaystackSessions!.length).toBe(record.answer_session_ids.length);
  });

  it('refuses an evidence session missing from the haystack, naming the question', () => {
    expect(() =>
      evidenceSessions({ question_id: 'q1', haystack_session_ids: ['a'], answer_session_ids: ['b'] }),
    ).toThrow('Question q1 lists answer session b that is not in its haystack.');
  });
});
