import { chatCompletionReply, type WireHandler } from '@lme/search-core/testing';
import type { GradedJudgeRubricDefinition } from '../qa/judge.js';

/**
 * A tiny rubric judge with partial credit, shaped as BEAM's (one call per rubric item, a JSON reply
 * `{"score": 0 | 0.5 | 1, "reason": ...}`, the question's score the mean of its items), for
 * loopback runs. A question's rubric is its gold answer split at `;` (one criterion each; a gold
 * with no `;` is one criterion).
 */
export const RUBRIC_ITEM_MARKER = 'Rubric item: ';

export const tinyRubricJudge: GradedJudgeRubricDefinition = {
  kind: 'graded',
  description: 'test rubric: the gold answer split at ";", each item scored 0, 0.5 or 1',
  items: (record, hypothesis) =>
    String(record.answer)
      .split(';')
      .map((part) => part.trim())
      .filter((part) => part !== '')
      .map((criterion) => ({
        name: criterion,
        prompt: `Grade one rubric item of an answer.\nQuestion: ${record.question}\n${RUBRIC_ITEM_MARKER}${criterion}\nResponse: ${hypothesis}\nReply with JSON {"score": 0, 0.5 or 1, "reason": "..."}.`,
      })),
  parseItem: (reply) => {
    try {
      const value = JSON.parse(reply) as { score?: unknown; reason?: unknown };
      if (typeof value.score !== 'number') return null;
      return { score: value.score, ...(typeof value.reason === 'string' ? { reason: value.reason } : {}) };
    } catch {
      return null;
    }
  },
  maxTokens: 100,
};

/**
 * The loopback judge's verdict on one item prompt of `tinyRubricJudge`: 1 when the response holds
 * the whole criterion (case ignored), 0.5 when it holds the criterion's first word only, else 0.
 */
export function rubricItemVerdict(prompt: string): string {
  const criterion = new RegExp(`\\n${RUBRIC_ITEM_MARKER}(.*)\\n`).exec(prompt)?.[1]?.toLowerCase() ?? '';
  const response = /\nResponse: ([\s\S]*)\nReply with JSON/.exec(prompt)?.[1]?.toLowerCase() ?? '';
  const first = criterion.split(/\s+/)[0] ?? '';
  const score =
    criterion !== '' && response.includes(criterion) ? 1 : first !== '' && response.includes(first) ? 0.5 : 0;
  return JSON.stringify({
    score,
    reason: score === 1 ? 'all there' : score === 0.5 ? 'partly there' : 'missing',
  });
}

/** The `/chat/completions` route answering `tinyRubricJudge` items with `rubricItemVerdict`. */
export const rubricJudgeHandler: WireHandler = (request) => {
  const messages = (request.body as { messages?: { content?: string }[] }).messages ?? [];
  return chatCompletionReply(rubricItemVerdict(messages[0]?.content ?? ''));
};
