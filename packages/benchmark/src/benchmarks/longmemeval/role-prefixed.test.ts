import { describe, expect, it } from 'vitest';
import { tinyRecord } from '../../testing/tiny-record.js';
import { buildCorpus } from '../build-corpus.js';

describe('LongMemEval turn form role-prefixed (memini session documents)', () => {
  it('writes each indexed turn as "role: content", both roles with --index-roles all', () => {
    const record = tinyRecord(1, {
      haystack_sessions: [
        [
          { role: 'user', content: 'I adopted a cat', has_answer: true },
          { role: 'assistant', content: 'Congratulations!' },
        ],
      ],
    });
    const [document] = buildCorpus(record, {
      granularity: 'session',
      indexRoles: 'all',
      turnForm: 'role-prefixed',
    }).documents;
    expect(document!.parts).toEqual(['user: I adopted a cat', 'assistant: Congratulations!']);
    expect(document!.text).toBe('user: I adopted a cat assistant: Congratulations!');
  });
});
