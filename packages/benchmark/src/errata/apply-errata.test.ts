import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { benchmarkNamed } from '../benchmarks/benchmark-registry.js';
import { loadLocomo } from '../benchmarks/locomo/load-locomo.js';
import type { LongMemEvalRecord } from '../benchmarks/longmemeval-record.js';
import { REPO_ROOT } from '../testing/run-cli.js';
import { createErrataApplier } from './apply-errata.js';
import type { Erratum } from './errata-schema.js';
import type { LoadedErrata } from './load-errata.js';

const errataOf = (entries: Erratum[]): LoadedErrata => ({
  name: 'test',
  version: 2,
  dataset: 'test',
  checksum: 'test',
  files: [{ sha256: '0'.repeat(64), note: '' }],
  entries,
  reviewed: [],
  path: '/errata/test.json',
  file_sha256: '1'.repeat(64),
});
const provenance = { source: 'issue #1 of somewhere', verified: 'checked by reading the haystack' };

function record(overrides: Partial<LongMemEvalRecord> = {}): LongMemEvalRecord {
  return {
    question_id: 'q1',
    question: 'Which city?',
    question_type: 'single-session-user',
    answer: 'Paris',
    question_date: '2023/05/30 (Tue) 23:40',
    haystack_session_ids: ['a', 'answer_1', 'a'],
    haystack_dates: ['2023/05/01 (Mon) 10:00', '2023/05/02 (Tue) 10:00', '2023/05/03 (Wed) 10:00'],
    haystack_sessions: [
      [{ role: 'user', content: 'filler' }],
      [{ role: 'user', content: 'I moved to Lyon', has_answer: true }],
      [{ role: 'user', content: 'filler' }],
    ],
    answer_session_ids: ['answer_1'],
    ...overrides,
  };
}

describe('createErrataApplier', () => {
  it('replaces a wrong gold answer and marks the question as corrected', () => {
    const apply = createErrataApplier(
      errataOf([
        {
          question_id: 'q1',
          kind: 'gold-answer',
          field: 'answer',
          published: 'Paris',
          corrected: 'Lyon',
          ...provenance,
        },
      ]),
    );
    const original = record();
    const { record: fixed, mark } = apply(original);
    expect(fixed.answer).toBe('Lyon');
    expect(original.answer).toBe('Paris');
    expect(mark).toEqual({ errata: 'test@2', kinds: ['gold-answer'], fields: ['answer'], excluded: false });
  });

  it('marks an excluded question and leaves its record as published', () => {
    const apply = createErrataApplier(
      errataOf([
        {
          question_id: 'q1',
          kind: 'gold-answer',
          field: 'answer',
          published: 'Paris',
          corrected: 'exclude',
          ...provenance,
        },
      ]),
    );
    const { record: kept, mark } = apply(record());
    expect(kept.answer).toBe('Paris');
    expect(mark?.excluded).toBe(true);
  });

  it('drops the repeated copy of a duplicated session, dates and turns with it', () => {
    const apply = createErrataApplier(
      errataOf([
        {
          question_id: 'q1',
          kind: 'duplicate',
          field: 'haystack_session_ids',
          published: { session_id: 'a', positions: [0, 2] },
          corrected: { keep: 0 },
          ...provenance,
        },
      ]),
    );
    const { record: fixed } = apply(record());
    expect(fixed.haystack_session_ids).toEqual(['a', 'answer_1']);
    expect(fixed.haystack_dates).toEqual(['2023/05/01 (Mon) 10:00', '2023/05/02 (Tue) 10:00']);
    expect(fixed.haystack_sessions).toHaveLength(2);
  });

  it('moves LongMemEval evidence and clears the has_answer marks of a session that is no longer evidence', () => {
    const apply = createErrataApplier(
      errataOf([
        {
          question_id: 'q1',
          kind: 'evidence',
          field: 'answer_session_ids',
          published: ['answer_1'],
          corrected: ['a'],
          ...provenance,
        },
      ]),
    );
    const { record: fixed } = apply(record());
    expect(fixed.answer_session_ids).toEqual(['a']);
    expect(fixed.haystack_sessions[1]![0]!.has_answer).toBeUndefined();
  });

  it('moves LoCoMo evidence to the named dialogs: has_answer, sessions and the verbatim evidence', async () => {
    const { records } = await loadLocomo(join(REPO_ROOT, 'datasets/fixtures/locomo-mini.json'));
    const question = records[0]!;
    expect(question.locomo_evidence).toEqual(['D1:1']);
    const apply = createErrataApplier(
      errataOf([
        {
          question_id: question.question_id,
          kind: 'evidence',
          field: 'evidence',
          published: ['D1:1'],
          corrected: ['D2:1', 'D3:2'],
          ...provenance,
        },
      ]),
    );
    const fixed = apply(question).record as typeof question;
    expect(fixed.locomo_evidence).toEqual(['D2:1', 'D3:2']);
    expect(fixed.answer_session_ids).toEqual(['conv-mini_s2', 'conv-mini_s3']);
    const marked = fixed.haystack_sessions.flatMap((turns, session) =>
      turns.flatMap((turn, index) => (turn.has_answer ? [`D${session + 1}:${index + 1}`] : [])),
    );
    expect(marked).toEqual(['D2:1', 'D3:2']);
  });

  it('reads evidence by the run’s benchmark, found once, not by each record’s question type', async () => {
    const { records } = await loadLocomo(join(REPO_ROOT, 'datasets/fixtures/locomo-mini.json'));
    // A question type no benchmark claims: only the run's benchmark can say what its evidence is.
    const question = { ...records[0]!, question_type: 'in-house' };
    const entry: Erratum = {
      question_id: question.question_id,
      kind: 'evidence',
      field: 'evidence',
      published: ['D1:1'],
      corrected: ['D2:1'],
      ...provenance,
    };
    const apply = createErrataApplier(errataOf([entry]), { benchmark: benchmarkNamed('locomo') });
    const fixed = apply(question).record as typeof question;
    expect(fixed.locomo_evidence).toEqual(['D2:1']);
    expect(() => createErrataApplier(errataOf([entry]))(question)).toThrow('has evidence null');
  });

  it('refuses errata whose published value is not the record’s, naming the question and the file', () => {
    const apply = createErrataApplier(
      errataOf([
        {
          question_id: 'q1',
          kind: 'gold-answer',
          field: 'answer',
          published: 'Rome',
          corrected: 'Lyon',
          ...provenance,
        },
      ]),
    );
    expect(() => apply(record())).toThrow(
      'Errata test@2 do not fit this dataset: question q1 has answer "Paris", not the published "Rome" (/errata/test.json); pass the errata written for this file.',
    );
    const lenient = createErrataApplier(
      errataOf([
        {
          question_id: 'q1',
          kind: 'gold-answer',
          field: 'answer',
          published: 'Rome',
          corrected: 'Lyon',
          ...provenance,
        },
      ]),
      { skipMismatches: true },
    );
    expect(lenient(record()).mark).toBeUndefined();
  });

  it('leaves questions without entries untouched', () => {
    const apply = createErrataApplier(errataOf([]));
    const original = record({ question_id: 'other' });
    expect(apply(original)).toEqual({ record: original });
  });
});
