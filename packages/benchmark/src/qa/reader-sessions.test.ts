import { describe, expect, it } from 'vitest';
import type { LongMemEvalRecord } from '../benchmarks/longmemeval-record.js';
import {
  fullContextSessions,
  haystackSessions,
  oracleSessions,
  rankedRounds,
  rankedSessions,
} from './reader-sessions.js';

const turn = (content: string) => [{ role: 'user' as const, content }];

const record: LongMemEvalRecord = {
  question_id: '0862e8bf_abs',
  question_type: 'single-session-user',
  question: 'What is the name of my hamster?',
  answer: 'You did not mention this information.',
  question_date: '2023/05/30 (Tue) 23:40',
  haystack_session_ids: ['s1', 'answer_c6fd8ebd_abs', 's3', 's4'],
  haystack_dates: [
    '2023/05/20 (Sat) 02:21',
    '2023/05/21 (Sun) 10:00',
    '2023/05/19 (Fri) 08:00',
    '2023/05/22 (Mon) 12:00',
  ],
  haystack_sessions: [turn('one'), turn('my cat Luna'), turn('three'), turn('four')],
  answer_session_ids: ['answer_c6fd8ebd_abs'],
};

describe('reader input for built-in providers', () => {
  it('pairs every haystack session with its id and date', () => {
    expect(haystackSessions(record).map((session) => [session.sessionId, session.date])).toEqual([
      ['s1', '2023/05/20 (Sat) 02:21'],
      ['answer_c6fd8ebd_abs', '2023/05/21 (Sun) 10:00'],
      ['s3', '2023/05/19 (Fri) 08:00'],
      ['s4', '2023/05/22 (Mon) 12:00'],
    ]);
  });

  it('full-context keeps every session by default and the latest topK in haystack order otherwise', () => {
    expect(fullContextSessions(record)).toHaveLength(4);
    expect(fullContextSessions(record, { topK: 2 }).map((session) => session.sessionId)).toEqual([
      's3',
      's4',
    ]);
    expect(() => fullContextSessions(record, { topK: 0 })).toThrow('topK must be a positive integer');
  });

  it('oracle keeps the evidence sessions only', () => {
    expect(oracleSessions(record).map((session) => session.sessionId)).toEqual(['answer_c6fd8ebd_abs']);
    expect(() => oracleSessions({ ...record, answer_session_ids: ['missing'] })).toThrow(
      'Question 0862e8bf_abs lists answer session missing that is not in its haystack.',
    );
  });

  it('ranked sessions keep the first topK in rank order and map noans_ ids back', () => {
    const sessions = rankedSessions(record, ['s4', 's4', 'noans_c6fd8ebd_abs', 's1'], { topK: 2 });
    expect(sessions.map((session) => session.sessionId)).toEqual(['s4', 'answer_c6fd8ebd_abs']);
    expect(() => rankedSessions(record, ['nope'])).toThrow(
      'Question 0862e8bf_abs has no haystack session "nope".',
    );
  });

  it('reads a session id held twice in the haystack twice, each with the later copy, as official flat-session does', () => {
    // s1 appears again at the end of the haystack, on a later date (13 S haystacks are like this).
    const repeated = {
      ...record,
      haystack_session_ids: [...record.haystack_session_ids, 's1'],
      haystack_dates: [...record.haystack_dates, '2023/05/25 (Thu) 09:00'],
      haystack_sessions: [...record.haystack_sessions, turn('one again')],
    };
    const official = rankedSessions(repeated, ['s1', 's4', 's1', 's3'], { topK: 3, duplicates: 'official' });
    expect(official.map((session) => [session.sessionId, session.date, session.turns[0]?.content])).toEqual([
      ['s1', '2023/05/25 (Thu) 09:00', 'one again'],
      ['s4', '2023/05/22 (Mon) 12:00', 'four'],
      ['s1', '2023/05/25 (Thu) 09:00', 'one again'],
    ]);
    // lme's own reading: one copy, the next ranked session fills the slot.
    const once = rankedSessions(repeated, ['s1', 's4', 's1', 's3'], { topK: 3 });
    expect(once.map((session) => session.sessionId)).toEqual(['s1', 's4', 's3']);
  });

  it('turn context gives each ranked turn with the turn after it, as official flat-turn does', () => {
    const sessions = [
      [
        { role: 'user' as const, content: 'u1' },
        { role: 'assistant' as const, content: 'a1' },
        { role: 'user' as const, content: 'u2' },
      ],
    ];
    const withTurns = {
      ...record,
      haystack_session_ids: ['answer_x'],
      haystack_dates: ['2023/05/20 (Sat) 02:21'],
      haystack_sessions: sessions,
    };
    const rounds = rankedRounds(
      withTurns,
      ['noans_x_3', 'missing_1', 'answer_x_9', 'answer_x_1', 'answer_x_2'],
      {
        topK: 3,
      },
    );
    expect(rounds.map((round) => round.turns.map((entry) => entry.content))).toEqual([
      ['u2'],
      ['u1', 'a1'],
      ['a1', 'u2'],
    ]);
    expect(rounds.every((round) => round.date === '2023/05/20 (Sat) 02:21')).toBe(true);
  });

  it('rejects a record whose ids, dates and sessions do not line up', () => {
    expect(() => haystackSessions({ ...record, haystack_dates: [] })).toThrow('they must match');
  });
});
