import { describe, expect, it } from 'vitest';
import { formatHypothesisLine } from './hypotheses.js';

describe('a hypotheses.jsonl line', () => {
  it('is formatted byte for byte like the official json.dumps', () => {
    // Python: json.dumps({'question_id': 'gpt4_2655b836_abs', 'hypothesis': 'You never mentioned a hamster \u2014 only Luna.\nDone'})
    expect(
      formatHypothesisLine({
        questionId: 'gpt4_2655b836_abs',
        hypothesis: 'You never mentioned a hamster — only Luna.\nDone',
      }),
    ).toBe(
      '{"question_id": "gpt4_2655b836_abs", "hypothesis": "You never mentioned a hamster \\u2014 only Luna.\\nDone"}\n',
    );
  });
});
