import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadAnyDataset } from '../load-dataset.js';
import { convertRealtalkDate, type RealtalkRecord } from './realtalk-chat.js';
import { evidenceSpans } from './realtalk-evidence.js';

const FIXTURES = resolve(import.meta.dirname, 'fixtures');
const CHAT_1 = join(FIXTURES, 'Chat_1_Ana_Ben.json');

/** The gold a record marks: `<session id>:<turn index>` of every has_answer turn. */
function goldTurns(record: RealtalkRecord): string[] {
  return record.haystack_sessions.flatMap((turns, session) =>
    turns.flatMap((turn, index) =>
      turn.has_answer ? [`${record.haystack_session_ids[session]}:${index}`] : [],
    ),
  );
}

type EditableChat = Record<string, unknown> & { qa: Record<string, unknown>[] };

/** A copy of chat 1 changed by `edit`, written to a fresh folder. */
function editedChat(edit: (chat: EditableChat) => void): string {
  const chat = JSON.parse(readFileSync(CHAT_1, 'utf8'));
  edit(chat);
  const path = join(mkdtempSync(join(tmpdir(), 'lme-realtalk-')), 'chat.json');
  writeFileSync(path, JSON.stringify(chat));
  return path;
}

describe('the REALTALK loader (synthetic chats)', () => {
  it('reads a folder of chats in chat order, skipping categories 4 and 5 as the official script does', async () => {
    const loaded = await loadAnyDataset(FIXTURES);
    expect(loaded.format).toBe('realtalk');
    expect(loaded.records.map((record) => [record.question_id, record.question_type])).toEqual([
      ['Chat_1_Ana_Ben_q1', 'realtalk-1-fact'],
      ['Chat_1_Ana_Ben_q2', 'realtalk-2-date'],
      ['Chat_1_Ana_Ben_q3', 'realtalk-3-inference'],
      ['Chat_2_Cy_Dee_q1', 'realtalk-1-fact'],
    ]);
  });

  it('recognises one chat file by its content and keeps sessions in number order with their dates', async () => {
    const loaded = await loadAnyDataset(CHAT_1);
    expect(loaded.format).toBe('realtalk');
    const record = loaded.records[0] as RealtalkRecord;
    expect(record.haystack_session_ids).toEqual([
      'Chat_1_Ana_Ben_s1',
      'Chat_1_Ana_Ben_s2',
      'Chat_1_Ana_Ben_s10',
    ]);
    expect(record.haystack_dates).toEqual([
      '2024/03/02 (Sat) 18:10',
      '2024/03/05 (Tue) 09:00',
      '2024/03/11 (Mon) 21:30',
    ]);
    expect(record.question_date).toBe('2024/03/11 (Mon) 21:30');
    expect(record.haystack_sessions[0]![2]).toEqual({
      role: 'user',
      content: 'Ana: Look at my first bowl [shares a photo of a clay bowl on a wheel]',
      has_answer: true,
    });
    expect(record.realtalk_chat.speakers).toEqual(['Ana', 'ben']);
    expect(record.realtalk_chat.repeats).toEqual([2, 2, 2]);
  });

  it('marks the evidence turns by dialog id, reading ranges and stray punctuation, and warns on ids naming no turn', async () => {
    const loaded = await loadAnyDataset(CHAT_1);
    const [fact, date, inference] = loaded.records as RealtalkRecord[];
    // D1:1-D1:4 spans D1:1, D1:2 and D1:4 (the chat has no D1:3).
    expect(goldTurns(fact!)).toEqual(['Chat_1_Ana_Ben_s1:0', 'Chat_1_Ana_Ben_s1:1', 'Chat_1_Ana_Ben_s1:2']);
    expect(goldTurns(date!)).toEqual(['Chat_1_Ana_Ben_s2:2']);
    expect(goldTurns(inference!)).toEqual(['Chat_1_Ana_Ben_s10:0']);
    expect(inference!.answer_session_ids).toEqual(['Chat_1_Ana_Ben_s10']);
    expect(inference!.realtalk_evidence).toEqual(['D10:1', 'D9:9']);
    expect(loaded.warnings).toEqual([
      `${CHAT_1}: question Chat_1_Ana_Ben_q1 (qa[0].evidence[1]): evidence "D1:1-D1:4" is not one dialog id as the chat writes them; read as 3 turn(s)`,
      `${CHAT_1}: question Chat_1_Ana_Ben_q2 (qa[1].evidence[0]): evidence "D2:3." is not one dialog id as the chat writes them; read as 1 turn(s)`,
      `${CHAT_1}: question Chat_1_Ana_Ben_q3 (qa[2].evidence[1]): evidence "D9:9" names no turn of the chat; it is left out of the gold`,
    ]);
  });

  it('reads the messy evidence of the published chats', () => {
    expect(evidenceSpans('D5:12;D5:16')).toEqual([
      { session: 5, from: 12, to: 12 },
      { session: 5, from: 16, to: 16 },
    ]);
    expect(evidenceSpans('D13:4. D14:4').map((span) => span.session)).toEqual([13, 14]);
    expect(evidenceSpans('D 2:18')).toEqual([{ session: 2, from: 18, to: 18 }]);
    expect(evidenceSpans('D12:3-D12:5')).toEqual([{ session: 12, from: 3, to: 5 }]);
    expect(evidenceSpans('D12:11-D13:2')).toEqual([
      { session: 12, from: 11, to: 11 },
      { session: 13, from: 2, to: 2 },
    ]);
    expect(evidenceSpans('D:56')).toEqual([]);
    expect(evidenceSpans('')).toEqual([]);
  });

  it('converts REALTALK dates and refuses impossible ones', () => {
    expect(convertRealtalkDate('29.12.2023, 22:42:04')).toBe('2023/12/29 (Fri) 22:42');
    expect(convertRealtalkDate('31.02.2024, 10:00:00')).toBeUndefined();
    expect(convertRealtalkDate('2024-02-01 10:00')).toBeUndefined();
  });

  it('fails on bad input with one sentence naming the file, the question and the field', async () => {
    const cases: [(chat: EditableChat) => void, RegExp][] = [
      [
        (chat) => {
          for (const key of Object.keys(chat)) if (/^session_\d+$/.test(key)) delete chat[key];
        },
        /chat\.json: field "session_<n>" is missing: the chat has no non-empty session$/,
      ],
      [
        (chat) => {
          chat.session_2_date_time = '2024-03-05';
        },
        /chat\.json: field "session_2_date_time" is not a date like "29\.12\.2023, 22:42:04" \(got "2024-03-05"\)$/,
      ],
      [
        (chat) => {
          chat.qa[1]!.question = '  ';
        },
        /chat\.json: field "qa\[1\]\.question" of question chat_q2 is missing or blank$/,
      ],
      [
        (chat) => {
          chat.qa[0]!.category = 7;
        },
        /chat\.json: field "qa\[0\]\.category" must be 1, 2 or 3 \(got 7\)$/,
      ],
    ];
    for (const [edit, message] of cases)
      await expect(loadAnyDataset(editedChat(edit))).rejects.toThrow(message);
  });
});
