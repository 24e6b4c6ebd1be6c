import type { ChatClient, ChatCompleteOptions } from '@lme/search-core';
import { describe, expect, it } from 'vitest';
import { rubricItemVerdict, tinyRubricJudge } from '../testing/rubric-judge.js';
import { createJudge, type JudgeRecord } from './judge.js';
import { judgedSampleMetrics, qaSampleMetrics } from './qa-metrics.js';

const record: JudgeRecord = {
  question_id: 'q1',
  question_type: 'multi-session',
  question: 'What did I plant and where?',
  answer: 'tomatoes; back garden; May',
};

/** A client whose replies come from `reply(prompt)`; it records every request. */
function clientReplying(reply: (prompt: string) => string) {
  const requests: ChatCompleteOptions[] = [];
  const client: ChatClient & { requests: ChatCompleteOptions[] } = {
    id: 'rubric',
    requests,
    async complete(request) {
      requests.push(request);
      const text = reply(String(request.messages[0]?.content ?? ''));
      return {
        text,
        texts: [text],
        usage: { promptTokens: 50, completionTokens: 7 },
        cached: false,
        latencyMs: 3,
      };
    },
  };
  return client;
}

describe('a graded judge (rubric items, partial credit)', () => {
  it('asks once per item and scores the question as the mean of its items', async () => {
    const client = clientReplying(rubricItemVerdict);
    const judge = createJudge({ client, model: 'm', rubric: 'tiny', definition: tinyRubricJudge });
    const grade = await judge.grade({ record, hypothesis: 'Tomatoes, in the back yard.' });
    expect(client.requests).toHaveLength(3);
    expect(client.requests.every((request) => request.maxTokens === 100 && request.temperature === 0)).toBe(
      true,
    );
    expect(grade.scale).toBe('graded');
    expect(grade.items).toEqual([
      { name: 'tomatoes', score: 1, reason: 'all there' },
      { name: 'back garden', score: 0.5, reason: 'partly there' },
      { name: 'May', score: 0, reason: 'missing' },
    ]);
    expect(grade.score).toBe(0.5);
    expect(grade.label).toBeUndefined();
    expect(grade.usage).toEqual({ promptTokens: 150, completionTokens: 21 });
    expect(grade.replies).toHaveLength(3);
    expect(judgedSampleMetrics(grade.score, grade.scale)).toEqual({
      'qa.score_strict': 0.5,
      'qa.score': 0.5,
    });
  });

  it('makes an unreadable or out-of-range item a judge error naming it, keeping the items it read', async () => {
    const unreadable = createJudge({
      client: clientReplying((prompt) => (prompt.includes('item: May') ? 'no idea' : '{"score": 1}')),
      definition: tinyRubricJudge,
    });
    const grade = await unreadable.grade({ record, hypothesis: 'x' });
    expect(grade.score).toBeNull();
    expect(grade.error).toBe('The judge item 3 reply could not be read: "no idea".');
    expect(grade.items?.map((item) => item.score)).toEqual([1, 1, null]);
    expect(judgedSampleMetrics(grade.score, grade.scale)).toEqual({ 'qa.score_strict': 0 });

    const outside = createJudge({
      client: clientReplying(() => '{"score": 2}'),
      definition: tinyRubricJudge,
    });
    expect((await outside.grade({ record, hypothesis: 'x' })).error).toMatch(
      /item 1 scored 2, outside \[0, 1\]/,
    );
  });

  it('weighs items by their max and lets a rubric combine them its own way', async () => {
    const weighted = createJudge({
      client: clientReplying((prompt) => (prompt.startsWith('A') ? '{"score": 2}' : '{"score": 1}')),
      definition: {
        ...tinyRubricJudge,
        items: () => [
          { name: 'a', prompt: 'A', max: 4 },
          { name: 'b', prompt: 'B' },
        ],
      },
    });
    const grade = await weighted.grade({ record, hypothesis: 'x' });
    expect(grade.items).toEqual([
      { name: 'a', score: 2, max: 4 },
      { name: 'b', score: 1 },
    ]);
    expect(grade.score).toBe(0.75);
    const minimum = createJudge({
      client: clientReplying(() => '{"score": 0.5}'),
      definition: { ...tinyRubricJudge, combine: (items) => Math.min(...items.map((item) => item.score)) },
    });
    expect((await minimum.grade({ record, hypothesis: 'x' })).score).toBe(0.5);
  });

  it('refuses judge votes (--judge-samples) with a graded rubric, in one sentence', () => {
    expect(() =>
      createJudge({
        client: clientReplying(() => ''),
        rubric: 'tiny',
        definition: tinyRubricJudge,
        samples: 3,
      }),
    ).toThrow(
      '--judge-samples 3 needs a yes/no judge to vote; judge tiny scores with partial credit (use --judge-samples 1).',
    );
  });

  it('gives a yes/no judge a score of 1 or 0 beside its label, with the metrics of today', async () => {
    const judge = createJudge({ client: clientReplying(() => 'yes') });
    const grade = await judge.grade({ record, hypothesis: 'tomatoes' });
    expect(grade).toMatchObject({
      score: 1,
      label: true,
      scale: 'binary',
      votes: { yes: 1, no: 0, unparsed: 0 },
    });
    for (const label of [true, false, null]) {
      const score = label === null ? null : label ? 1 : 0;
      expect(judgedSampleMetrics(score, 'binary')).toEqual(qaSampleMetrics(label));
    }
  });
});
