import { describe, expect, it } from 'vitest';
import type { Sample } from '../../results/sample.js';
import { emptySample } from './run-question.js';
import { boundSampleText, boundStoredText, STORED_TEXT_CAP } from './stored-text.js';

const record = {
  question_id: 'q1',
  question_type: 'multi-session',
  question: 'q',
  answer: 'a',
  question_date: '2023/05/30 (Tue) 23:40',
  haystack_session_ids: [],
  haystack_dates: [],
  haystack_sessions: [],
  answer_session_ids: [],
};

describe('stored text bounds', () => {
  it('keeps a text within the cap as it is, and cuts a longer one with a marker naming both lengths', () => {
    expect(boundStoredText('short')).toBe('short');
    const long = 'y'.repeat(STORED_TEXT_CAP + 5);
    expect(boundStoredText(long)).toBe(
      `${'y'.repeat(STORED_TEXT_CAP)} … [lme: cut to ${STORED_TEXT_CAP} of ${STORED_TEXT_CAP + 5} characters]`,
    );
  });

  it("bounds a judge's 50 MB reason, the hypothesis, the answer context and the errors of a sample", () => {
    const huge = 'r'.repeat(50 * 1024 * 1024);
    const sample: Sample = {
      ...emptySample(record, 0),
      hypothesis: huge,
      answer_context: huge,
      error: huge,
      judge: { score: null, items: [{ name: 'item', score: 1, reason: huge }], error: huge },
    };
    const bounded = boundSampleText(sample);
    const size = JSON.stringify(bounded).length;
    expect(size).toBeLessThan(6 * (STORED_TEXT_CAP + 100));
    expect(bounded.judge?.items?.[0]?.reason).toMatch(/ … \[lme: cut to 20000 of 52428800 characters\]$/);
    expect(bounded.judge?.items?.[0]?.score).toBe(1);
    expect(bounded.hypothesis?.startsWith('rrr')).toBe(true);
    // The sample given is left as it was.
    expect(sample.hypothesis).toBe(huge);
  });
});
