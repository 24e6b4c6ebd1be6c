import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { evaluateQuestion } from '../../metrics/question-metrics.js';
import { REPO_ROOT } from '../../testing/run-cli.js';
import { buildCorpus } from '../build-corpus.js';
import { isAbstention } from '../longmemeval-record.js';
import { convertLocomoDate, loadLocomo } from './load-locomo.js';
import type { LocomoAwareRecord } from './locomo-record.js';
import { locomoRetrievalMetrics } from './locomo-retrieval-metrics.js';

const fixture = resolve(REPO_ROOT, 'datasets/fixtures/locomo-mini.json');
const dir = mkdtempSync(join(tmpdir(), 'lme-locomo-'));

/** Just enough of the published shape to edit the fixture in tests. */
type ConversationJson = {
  sample_id?: string;
  qa: Record<string, unknown>[];
  conversation: Record<string, unknown> & { session_2: Record<string, unknown>[] };
};

function writeVariant(name: string, edit: (conversations: ConversationJson[]) => void): string {
  const conversations = JSON.parse(readFileSync(fixture, 'utf8')) as ConversationJson[];
  edit(conversations);
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify(conversations));
  return path;
}

describe('convertLocomoDate', () => {
  it('turns LoCoMo session dates into the LongMemEval format with the weekday', () => {
    expect(convertLocomoDate('1:56 pm on 8 May, 2023')).toBe('2023/05/08 (Mon) 13:56');
    expect(convertLocomoDate('12:30 am on 2 September, 2023')).toBe('2023/09/02 (Sat) 00:30');
    expect(convertLocomoDate('12:05 pm on 29 February, 2024')).toBe('2024/02/29 (Thu) 12:05');
    expect(convertLocomoDate('9:00 am on 31 June, 2023')).toBeUndefined();
    expect(convertLocomoDate('yesterday')).toBeUndefined();
  });
});

describe('loadLocomo', () => {
  it('maps every QA item of the fixture onto a LongMemEval record', async () => {
    const { records, warnings, sha256 } = await loadLocomo(fixture);
    expect(warnings).toEqual([
      'question conv-mini_q4 (conversation conv-mini qa[3]): evidence "D1:2; D3:4" is not a dialog id as the conversation writes them; read as D1:2, D3:4 (the official dialog-level recall never matches it)',
    ]);
    expect(sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(records.map((record) => [record.question_id, record.question_type])).toEqual([
      ['conv-mini_q1', 'locomo-4-single-hop'],
      ['conv-mini_q2', 'locomo-1-multi-hop'],
      ['conv-mini_q3', 'locomo-2-temporal'],
      ['conv-mini_q4', 'locomo-3-open-domain'],
      ['conv-mini_q5', 'locomo-4-single-hop'],
      ['conv-mini_q6_abs', 'locomo-5-adversarial'],
      ['conv-mini_q7_abs', 'locomo-5-adversarial'],
    ]);
    expect(records.filter((record) => isAbstention(record.question_id))).toHaveLength(2);

    const first = records[0]!;
    expect(first.haystack_session_ids).toEqual(['conv-mini_s1', 'conv-mini_s2', 'conv-mini_s3']);
    expect(first.haystack_dates).toEqual([
      '2023/05/08 (Mon) 13:56',
      '2023/06/21 (Wed) 10:05',
      '2023/09/02 (Sat) 00:30',
    ]);
    expect(first.question_date).toBe('2023/09/02 (Sat) 00:30');
    // Both speakers are users, named in the content; a shared image adds its caption.
    expect(first.haystack_sessions[0]!.map((turn) => turn.role)).toEqual(Array(5).fill('user'));
    expect(first.haystack_sessions[0]![0]).toEqual({
      role: 'user',
      content: 'Ana: Hi Ben! I finally adopted a rescue greyhound last weekend. Her name is Pepper.',
      has_answer: true,
    });
    expect(first.haystack_sessions[0]![3]!.content).toBe(
      'Ben: Look at the shoes I bought for race day. [shares a photo of a pair of running shoes on a wooden floor]',
    );
    expect(first.answer).toBe('Pepper');
    expect(first.answer_session_ids).toEqual(['conv-mini_s1']);
  });

  it('marks evidence turns and sessions per question, splitting combined evidence strings', async () => {
    const { records } = await loadLocomo(fixture);
    const evidenceOf = (index: number) =>
      records[index]!.haystack_sessions.flatMap((turns, session) =>
        turns.flatMap((turn, turn_) => (turn.has_answer ? [`D${session + 1}:${turn_ + 1}`] : [])),
      );
    expect(evidenceOf(0)).toEqual(['D1:1']);
    expect(evidenceOf(1)).toEqual(['D2:4', 'D3:3']);
    expect(records[1]!.answer_session_ids).toEqual(['conv-mini_s2', 'conv-mini_s3']);
    expect(evidenceOf(3)).toEqual(['D1:2', 'D3:4']);
    expect(records[4]!.answer).toBe(6);
    // One question's evidence never leaks into another's haystack.
    expect(evidenceOf(2)).toEqual(['D2:1']);
  });

  it('keeps each QA evidence list verbatim, so the official dialog mode never matches "D1:2; D3:4"', async () => {
    const { records } = await loadLocomo(fixture);
    const combined = records[3]! as LocomoAwareRecord;
    expect(combined.locomo_evidence).toEqual(['D1:2; D3:4']);
    expect((records[1]! as LocomoAwareRecord).locomo_evidence).toEqual(['D2:4', 'D3:3']);
    // Both dialogs it names retrieved: the official dialog-level recall_acc is still 0.
    const corpus = buildCorpus(combined, { granularity: 'turn', indexRoles: 'user' });
    const ranking = ['conv-mini_s1_2', 'conv-mini_s3_4'].map((id) =>
      corpus.documents.findIndex((document) => document.id === id),
    );
    const metrics = locomoRetrievalMetrics({ record: combined, corpus, ranking, granularity: 'turn' });
    expect(metrics['locomo.recall_acc@5']).toBe(0);
  });

  it('keeps adversarial questions answerable by the abstention judge', async () => {
    const { records } = await loadLocomo(fixture);
    const adversarial = records[5]!;
    expect(adversarial.question).toBe("What is the name of Ben's dog?");
    expect(adversarial.answer).toBe('Not mentioned in the conversation (a tempting wrong answer: Pepper).');
    expect(adversarial.answer_session_ids).toEqual(['conv-mini_s1']);
  });

  it('grades under the evidence convention: turn ids match the D<session>:<turn> evidence', async () => {
    const { records } = await loadLocomo(fixture);
    const record = records[1]!;
    const corpus = buildCorpus(record, { granularity: 'turn', indexRoles: 'user' });
    expect(corpus.documents).toHaveLength(13);
    const gold = corpus.documents.filter((_, index) => corpus.evidence[index]).map((document) => document.id);
    expect(gold).toEqual(['conv-mini_s2_4', 'conv-mini_s3_3']);
    const ranking = [corpus.documents.findIndex((document) => document.id === 'conv-mini_s3_3')];
    const graded = evaluateQuestion({ record, corpus, ranking, granularity: 'turn', convention: 'evidence' });
    expect(graded.metrics['turn.recall_any@1']).toBe(1);
    expect(graded.metrics['turn.recall_all@1']).toBe(0);
  });

  it('reports evidence that names no turn and keeps the rest', async () => {
    const path = writeVariant('dangling.json', (conversations) => {
      conversations[0]!.qa[0]!.evidence = ['D1:1', 'D9:9', 'D'];
      conversations[0]!.qa[1]!.evidence = ['D:2:04'];
    });
    const { records, warnings } = await loadLocomo(path);
    // Each warning names the question, where it sits in the file, and the reference.
    expect(warnings).toEqual([
      'question conv-mini_q1 (conversation conv-mini qa[0]): evidence "D9:9" names no dialog of the conversation; it is left out of the gold',
      'question conv-mini_q1 (conversation conv-mini qa[0]): evidence "D" names no dialog of the conversation; it is left out of the gold',
      'question conv-mini_q2 (conversation conv-mini qa[1]): evidence "D:2:04" is not a dialog id as the conversation writes them; read as D2:4 (the official dialog-level recall never matches it)',
      'question conv-mini_q4 (conversation conv-mini qa[3]): evidence "D1:2; D3:4" is not a dialog id as the conversation writes them; read as D1:2, D3:4 (the official dialog-level recall never matches it)',
    ]);
    expect(records[0]!.answer_session_ids).toEqual(['conv-mini_s1']);
    expect(records[1]!.answer_session_ids).toEqual(['conv-mini_s2']);
  });

  it.each([
    [
      'a turn without text',
      (conversations: ConversationJson[]) => {
        delete conversations[0]!.conversation.session_2[1]!.text;
      },
      /locomo-bad\.json: conversation conv-mini: field "conversation\.session_2\[1\]\.text" is missing or not a string/,
    ],
    [
      'an unreadable session date',
      (conversations: ConversationJson[]) => {
        conversations[0]!.conversation.session_3_date_time = '2023-09-02';
      },
      /conversation conv-mini: field "conversation\.session_3_date_time" is not a date like "1:56 pm on 8 May, 2023" \(got "2023-09-02"\)/,
    ],
    [
      'an unknown category',
      (conversations: ConversationJson[]) => {
        conversations[0]!.qa[2]!.category = 7;
      },
      /conversation conv-mini: field "qa\[2\]\.category" must be 1, 2, 3, 4 or 5 \(got 7\)/,
    ],
    [
      'an answerless question',
      (conversations: ConversationJson[]) => {
        delete conversations[0]!.qa[0]!.answer;
      },
      /conversation conv-mini: field "qa\[0\]\.answer" is missing or not a string or number/,
    ],
    [
      'a missing conversation id (sample_id)',
      (conversations: ConversationJson[]) => {
        delete conversations[0]!.sample_id;
      },
      /conversation 0: field "sample_id" is missing/,
    ],
  ])('rejects %s, naming the file, conversation and field', async (_, edit, message) => {
    await expect(loadLocomo(writeVariant('locomo-bad.json', edit))).rejects.toThrow(message);
  });
});
