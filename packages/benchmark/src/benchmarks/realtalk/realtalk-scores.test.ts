import { describe, expect, it } from 'vitest';
import type { Sample } from '../../results/sample.js';
import { readRealtalkJudgeReply, realtalkJudgePrompt, realtalkJudgeRubric } from './realtalk-judge.js';
import {
  aggregateRealtalk,
  REALTALK_LEXICAL,
  realtalkAnswerMetrics,
  renderRealtalkTable,
} from './realtalk-scores.js';

const lexical = (question_type: string, answer: string, hypothesis: string) =>
  realtalkAnswerMetrics({ question_type, answer }, hypothesis)[REALTALK_LEXICAL];

describe('the official REALTALK scores', () => {
  it('gives the lexical score of compute_lexical_score: stemmed token F1, commas split in category 1, ";" cuts category 3', () => {
    // "of" stays: 3 of the gold's 4 tokens, all 3 predicted ones.
    expect(lexical('realtalk-2-date', 'The 5th of May, 2024', 'may 5th 2024!')).toBe(6 / 7);
    // "and" and articles are dropped; stems match ("hiking" ~ "hike").
    expect(lexical('realtalk-2-date', 'hiking and the pottery', 'a hike')).toBeCloseTo(2 / 3, 12);
    // Category 1: mean over gold parts of the best prediction part.
    expect(lexical('realtalk-1-fact', 'Pottery, hiking', 'pottery, swimming')).toBe(0.5);
    expect(lexical('realtalk-1-fact', 'Pottery, hiking', 'pottery and hiking')).toBeCloseTo(2 / 3, 12);
    // Category 3: only the gold before the first ";".
    expect(lexical('realtalk-3-inference', 'Likely yes; his cat broke his mug', 'likely yes')).toBe(1);
    expect(
      lexical('realtalk-3-inference', 'Likely yes; his cat broke his mug', 'his cat broke his mug'),
    ).toBe(0);
    expect(realtalkAnswerMetrics({ question_type: 'locomo-4-single-hop', answer: 'x' }, 'x')).toEqual({});
  });

  it('asks the GPT score with the official prompt and reads its JSON reply', () => {
    const prompt = realtalkJudgePrompt('When is Ana moving?', 'May 2024', 'in May');
    expect(prompt).toBe(
      "Given the question and its ground truth answer, evaluate the correctness of the model's prediction.\n\nQuestion: When is Ana moving?\nGround truth: May 2024\nModel's prediction: in May\n\nAssign a score between 0 and 1, where 0 indicates the model's prediction is completely incorrect, and 1 indicates the model's prediction is completely correct.\nOutput in following JSON format:\n{\n    \"score\": <score>,\n}\n",
    );
    expect(readRealtalkJudgeReply('{"score": 0.8}')).toBe(0.8);
    expect(readRealtalkJudgeReply('{\n    "score": 1,\n}')).toBe(1);
    expect(readRealtalkJudgeReply('```json\n{"score": 0}\n```')).toBe(0);
    for (const bad of ['{"score": "0.8"}', '{"score": 2}', 'score: 1', '{"grade": 1}', 'null'])
      expect(readRealtalkJudgeReply(bad)).toBeNull();
    const record = {
      question_id: 'c_q1',
      question_type: 'realtalk-2-date',
      question: 'When?',
      answer: 'May',
    };
    expect(realtalkJudgeRubric.grades!(record)).toBe(true);
    expect(realtalkJudgeRubric.items(record, 'in May')[0]!.prompt).toContain("Model's prediction: in May\n");
  });

  it('averages lexical and GPT scores by category as evaluate_memory.py does', () => {
    const sample = (question_type: string, value: number, score: number | null) =>
      ({
        question_type,
        error: null,
        metrics: { [REALTALK_LEXICAL]: value },
        judge: score === null ? null : { score },
      }) as unknown as Sample;
    const block = aggregateRealtalk(
      [
        sample('realtalk-1-fact', 1, 1),
        sample('realtalk-1-fact', 0, 0.5),
        sample('realtalk-3-inference', 0.5, null),
      ],
      { judge: 'realtalk-gpt', judge_model: 'm' },
    )!.realtalk;
    expect(block.by_category).toEqual({
      1: { count: 2, lexical_mean: 0.5, gpt_mean: 0.75, gpt_scored: 2 },
      3: { count: 1, lexical_mean: 0.5, gpt_mean: null, gpt_scored: 0 },
    });
    expect(block.overall).toEqual({ count: 3, lexical_mean: 0.5, gpt_mean: 0.75, gpt_scored: 2 });
    expect(renderRealtalkTable(block)).toContain('| 1 | 2 | 0.5000 | 0.7500 | 2 |');
    expect(aggregateRealtalk([sample('locomo-4-single-hop', 1, 1)])).toBeUndefined();
  });
});
