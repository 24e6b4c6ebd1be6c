import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import type { LongMemEvalRecord } from '../longmemeval-record.js';
import { loadLongMemEval, resolveDatasetPath } from './load-longmemeval.js';

const samplePath = resolve(
  import.meta.dirname,
  '../../../../../datasets/sample/longmemeval_s_sample.json.gz',
);
let sample: LongMemEvalRecord[];
let dir: string;

beforeAll(() => {
  sample = JSON.parse(gunzipSync(readFileSync(samplePath)).toString('utf8'));
  dir = mkdtempSync(join(tmpdir(), 'lme-loader-'));
});

function writeDataset(name: string, records: unknown, gzip = false): string {
  const path = join(dir, name);
  const json = Buffer.from(typeof records === 'string' ? records : JSON.stringify(records));
  writeFileSync(path, gzip ? gzipSync(json) : json);
  return path;
}

describe('loadLongMemEval', () => {
  it('reads the committed gzip sample and its plain-JSON twin identically', async () => {
    const fromGzip = await loadLongMemEval(samplePath);
    const fromJson = await loadLongMemEval(
      writeDataset('plain.json', gunzipSync(readFileSync(samplePath)).toString()),
    );
    expect(fromGzip.records).toHaveLength(22);
    expect(fromJson.records).toEqual(fromGzip.records);
    expect(fromJson.sha256).toBe(fromGzip.sha256);
  });

  it('keeps strings with escaped quotes, backslashes and braces intact', async () => {
    const record = structuredClone(sample[0]!);
    record.question = 'He said "}{[" \\ then {left}\\"';
    const { records } = await loadLongMemEval(writeDataset('escapes.json', [record]));
    expect(records[0]!.question).toBe(record.question);
  });

  it('names the file when the gzip is truncated', async () => {
    const bytes = readFileSync(samplePath);
    const path = join(dir, 'truncated.json.gz');
    writeFileSync(path, bytes.subarray(0, Math.floor(bytes.length / 2)));
    await expect(loadLongMemEval(path)).rejects.toThrow(
      new RegExp(`^${escapeRegExp(path)}: .*(truncated|unexpected end)`),
    );
  });

  it('names the question and field when haystack_dates is missing', async () => {
    const record: Partial<LongMemEvalRecord> = structuredClone(sample[1]!);
    delete record.haystack_dates;
    const path = writeDataset('missing.json.gz', [sample[0], record], true);
    await expect(loadLongMemEval(path)).rejects.toThrow(
      `${path}: question ${record.question_id}: field "haystack_dates" is missing or not an array`,
    );
  });

  // Issue 36: an empty question, answer or session was accepted silently.
  it.each([
    [
      'a blank question',
      (record: LongMemEvalRecord) => Object.assign(record, { question: '  ' }),
      'field "question" is empty',
    ],
    [
      'an empty answer',
      (record: LongMemEvalRecord) => Object.assign(record, { answer: '' }),
      'field "answer" is empty',
    ],
    [
      'a session with no turns',
      (record: LongMemEvalRecord) => {
        record.haystack_sessions[3] = [];
        return record;
      },
      'field "haystack_sessions[3]" holds no turns',
    ],
  ])('refuses %s, naming the question and the field', async (_, edit, problem) => {
    const record = edit(structuredClone(sample[1]!));
    const path = writeDataset('blank.json', [sample[0], record]);
    await expect(loadLongMemEval(path)).rejects.toThrow(
      `${path}: question ${record.question_id}: ${problem}`,
    );
  });

  it('keeps a turn whose content is empty (12 turns of S are)', async () => {
    const record = structuredClone(sample[1]!);
    record.haystack_sessions[0]![0]!.content = '';
    const path = writeDataset('empty-turn.json', [record]);
    await expect(loadLongMemEval(path)).resolves.toMatchObject({
      records: [{ question_id: record.question_id }],
    });
  });

  it('names the question when parallel arrays differ in length', async () => {
    const record = structuredClone(sample[2]!);
    record.haystack_dates.pop();
    const path = writeDataset('mismatch.json', [record]);
    await expect(loadLongMemEval(path)).rejects.toThrow(
      new RegExp(
        `question ${record.question_id}: fields "haystack_sessions", "haystack_dates" and "haystack_session_ids" must have equal lengths \\(got 50, 49, 50\\)`,
      ),
    );
  });

  it('rejects a turn with an unknown role, naming its position', async () => {
    const record = structuredClone(sample[0]!);
    (record.haystack_sessions[3]![1] as { role: string }).role = 'system';
    await expect(loadLongMemEval(writeDataset('role.json', [record]))).rejects.toThrow(
      /field "haystack_sessions\[3\]\[1\]\.role" must be "user" or "assistant"/,
    );
  });

  it.each([
    [
      'a boolean answer',
      (record: Record<string, unknown>) => {
        record.answer = true;
      },
      'field "answer" is missing or not a string or number (got true)',
    ],
    [
      'a badly written haystack date',
      (record: Record<string, unknown>) => {
        (record.haystack_dates as string[])[4] = '2023-05-30 23:40';
      },
      'field "haystack_dates[4]" is not a date like "2023/05/30 (Tue) 23:40" (got "2023-05-30 23:40")',
    ],
    [
      'a has_answer that is not a boolean',
      (record: Record<string, unknown>) => {
        (record.haystack_sessions as Array<Array<Record<string, unknown>>>)[2]![0]!.has_answer = 'yes';
      },
      'field "haystack_sessions[2][0].has_answer" is not a boolean (got "yes")',
    ],
    [
      'an unknown question type',
      (record: Record<string, unknown>) => {
        record.question_type = 'multi-sesion';
      },
      'field "question_type" must be one of single-session-user, single-session-assistant, single-session-preference, multi-session, knowledge-update, temporal-reasoning (got "multi-sesion")',
    ],
  ])('names the question, the field and the value for %s', async (_, edit, problem) => {
    const record = structuredClone(sample[1]!) as unknown as Record<string, unknown>;
    edit(record);
    const path = writeDataset('field.json', [sample[0], record]);
    await expect(loadLongMemEval(path)).rejects.toThrow(
      `${path}: question ${record.question_id}: ${problem}`,
    );
  });

  it('can drop the repeated copy of a session id, keeping both by default', async () => {
    const record = structuredClone(sample[0]!);
    record.haystack_session_ids.push(record.haystack_session_ids[0]!);
    record.haystack_dates.push(record.haystack_dates[0]!);
    record.haystack_sessions.push(record.haystack_sessions[0]!);
    const path = writeDataset('repeat.json', [record]);
    const kept = await loadLongMemEval(path);
    const first = await loadLongMemEval(path, { duplicateSessions: 'first' });
    expect(kept.records[0]!.haystack_session_ids).toHaveLength(sample[0]!.haystack_session_ids.length + 1);
    expect(first.records[0]!.haystack_session_ids).toEqual(sample[0]!.haystack_session_ids);
  });

  it('rejects a file that is not a JSON array', async () => {
    await expect(loadLongMemEval(writeDataset('object.json', '{"a": 1}'))).rejects.toThrow(
      /not a JSON array/,
    );
  });
});

describe('resolveDatasetPath', () => {
  it('resolves sample to the committed file whatever the data directory', () => {
    expect(resolveDatasetPath('sample', dir)).toBe(samplePath);
    expect(resolveDatasetPath('sample', '/nonexistent/data')).toBe(samplePath);
  });

  it('names the download command for a missing official file', () => {
    expect(() => resolveDatasetPath('s', dir)).toThrow(/Download it with `lme datasets download s`/);
  });

  it('lists where it looked for a missing named dataset', () => {
    expect(() => resolveDatasetPath('oracle', dir)).toThrow(/longmemeval_oracle\.json\.gz.*LME_DATA_DIR/);
  });
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
