import type { GradedJudgeRubricDefinition, JudgeRecord } from '../judge-rubric.js';
import { realtalkCategoryOf } from './realtalk-categories.js';

/**
 * The "GPT score" prompt of `QATool.gpt_score` (danny911kr/REALTALK `eval_memory/qa_tool.py` at
 * b903e06), byte for byte: the f-string filled with the question, the gold as written (category 3
 * keeps its text after `;`, which only the lexical score cuts) and the prediction.
 */
export function realtalkJudgePrompt(question: string, answer: string | number, prediction: string): string {
  return `Given the question and its ground truth answer, evaluate the correctness of the model's prediction.

Question: ${question}
Ground truth: ${String(answer)}
Model's prediction: ${prediction}

Assign a score between 0 and 1, where 0 indicates the model's prediction is completely incorrect, and 1 indicates the model's prediction is completely correct.
Output in following JSON format:
{
    "score": <score>,
}
`;
}

/**
 * The score of a judge reply: the official code asks for a JSON object (`response_format`
 * json_object), `json.loads` it and reads `["score"]`. lme reads the same object from a reply
 * that may also be fenced or end `,}` as the template shows; the score must be a number in [0, 1]
 * (the official mean would fail on a string). Anything else is unreadable: null.
 */
export function readRealtalkJudgeReply(reply: string): number | null {
  const body = reply
    .trim()
    .replace(/^```(?:json)?\s*|\s*```$/g, '')
    .replace(/,\s*}\s*$/, '}');
  try {
    const parsed = JSON.parse(body) as unknown;
    const score = (parsed as { score?: unknown } | null)?.score;
    return typeof score === 'number' && score >= 0 && score <= 1 ? score : null;
  } catch {
    return null;
  }
}

/**
 * `--judge realtalk-gpt`: one call per question with the official prompt, the reply's score as
 * the question's. The official code sends it to the QA model, not `--evaluate_model`; lme sends
 * it to the judge model (`--judge-model`), so pass the reader's model to match their runs.
 */
export const realtalkJudgeRubric: GradedJudgeRubricDefinition = {
  kind: 'graded',
  description: "REALTALK's GPT score (eval_memory/qa_tool.py gpt_score): a 0-1 score in a JSON reply",
  items: (record, hypothesis) => [
    { name: 'gpt_score', prompt: realtalkJudgePrompt(record.question, record.answer, hypothesis) },
  ],
  parseItem: (reply) => {
    const score = readRealtalkJudgeReply(reply);
    return score === null ? null : { score };
  },
  // The official client sends no limit; the JSON object needs a few tokens.
  maxTokens: 100,
  grades: (record: JudgeRecord) => realtalkCategoryOf(record.question_type) !== undefined,
};
