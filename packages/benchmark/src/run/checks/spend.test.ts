import { describe, expect, it } from 'vitest';
import type { Sample } from '../../results/sample.js';
import { emptySample } from '../phases/run-question.js';
import { formatSpend, spendOf } from './spend.js';

const sample = (id: string, usage: Sample['usage']): Sample => ({
  ...emptySample(
    {
      question_id: id,
      question_type: 'multi-session',
      question: 'q',
      answer: 'a',
      question_date: '2023/05/30 (Tue) 23:40',
      haystack_session_ids: [],
      haystack_dates: [],
      haystack_sessions: [],
      answer_session_ids: [],
    },
    0,
  ),
  usage,
});

describe("the provider's own spend", () => {
  it('is reported beside lme’s spend, never in its total or --max-cost, and a missing cost is not missing usage', () => {
    const judge = { prompt_tokens: 100, completion_tokens: 1, cost_usd: 0.001, cached: false };
    const spend = spendOf([
      sample('a', {
        judge,
        provider: { prompt_tokens: 500, completion_tokens: 20, cost_usd: 0.01, cached: false },
      }),
      sample('b', {
        judge,
        provider: { prompt_tokens: 0, completion_tokens: 0, cost_usd: null, cached: false },
      }),
    ]);
    expect(spend.usd).toBeCloseTo(0.002, 12);
    expect(spend.missingUsage).toBeUndefined();
    expect(Object.keys(spend.byRole)).toEqual(['judge']);
    expect(spend.provider).toMatchObject({
      calls: 2,
      promptTokens: 500,
      completionTokens: 20,
      unpricedCalls: 1,
    });
    expect(spend.provider?.usd).toBeCloseTo(0.01, 12);
    expect(formatSpend(spend)).toBe(
      'spend: judge 2 requests, 200 prompt + 2 completion tokens $0.0020 · total $0.0020\n' +
        "provider (its own report, not in lme's total): 500 prompt + 20 completion tokens over 2 answers, $0.0100 (1 answers reported no cost)",
    );
  });

  it('is the whole line when lme made no call', () => {
    const spend = spendOf([
      sample('a', { provider: { prompt_tokens: 7, completion_tokens: 3, cost_usd: null, cached: false } }),
    ]);
    expect(formatSpend(spend)).toBe(
      "provider (its own report, not in lme's total): 7 prompt + 3 completion tokens over 1 answers, no cost reported",
    );
  });
});
