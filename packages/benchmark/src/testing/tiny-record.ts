import type { LongMemEvalRecord } from '../benchmarks/longmemeval-record.js';

/** The smallest valid LongMemEval record: question `q<index>`, one session with one evidence turn. */
export function tinyRecord(index: number, fields: Partial<LongMemEvalRecord> = {}): LongMemEvalRecord {
  return {
    question_id: `q${index}`,
    question_type: 'multi-session',
    question: 'what?',
    answer: 'a',
    question_date: '2023/05/30 (Tue) 23:40',
    haystack_session_ids: ['s1'],
    haystack_dates: ['2023/05/30 (Tue) 23:40'],
    haystack_sessions: [[{ role: 'user', content: 'hello', has_answer: true }]],
    answer_session_ids: ['s1'],
    ...fields,
  };
}
