import { describe, expect, it } from 'vitest';
import {
  buildMem0JudgePrompt,
  MEM0_ACCURACY_PROMPT,
  mem0JudgeGrades,
  parseMem0JudgeReply,
} from './locomo-judge.js';

describe("Mem0's LoCoMo judge (locomo-llm)", () => {
  it('fills ACCURACY_PROMPT once: question, str() of the gold, the generated answer', () => {
    const prompt = buildMem0JudgePrompt({ question: 'Which year?', answer: 2022 }, 'It was {question} 2022');
    expect(
      prompt.startsWith('\nYour task is to label an answer to a question as ’CORRECT’ or ’WRONG’.'),
    ).toBe(true);
    expect(prompt).toContain(
      'Now it’s time for the real question:\nQuestion: Which year?\nGold answer: 2022\nGenerated answer: It was {question} 2022\n\n',
    );
    expect(
      prompt.endsWith('Just return the label CORRECT or WRONG in a json format with the key as "label".\n'),
    ).toBe(true);
    expect(prompt.length).toBe(
      MEM0_ACCURACY_PROMPT.length -
        '{question}{gold_answer}{generated_answer}'.length +
        'Which year?2022It was {question} 2022'.length,
    );
  });

  it('reads json.loads(reply)["label"] == "CORRECT"; anything else unreadable is null', () => {
    expect(
      ['{"label": "CORRECT"}', '{"label": "WRONG"}', '{"label": "correct"}', 'CORRECT', '{"x": 1}', '[]'].map(
        parseMem0JudgeReply,
      ),
    ).toEqual([true, false, false, null, null, null]);
  });

  it('grades LoCoMo categories 1-4 and leaves adversarial (5) out', () => {
    expect(
      ['locomo-4-single-hop', 'locomo-1-multi-hop', 'locomo-5-adversarial', 'multi-session'].map(
        (question_type) => mem0JudgeGrades({ question_type }),
      ),
    ).toEqual([true, true, false, false]);
  });
});
