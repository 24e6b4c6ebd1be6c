import { pythonJsonDumps } from '../dataset/python-compat.js';

export type HypothesisEntry = {
  questionId: string;
  hypothesis: string;
};

/**
 * One line of `hypotheses.jsonl`, byte for byte as run_generation.py writes it:
 * `json.dumps({'question_id': ..., 'hypothesis': ...})` (`", "`/`": "` separators, non-ASCII as
 * `\uXXXX`) and a newline. evaluate_qa.py reads it with `json.loads`.
 */
export function formatHypothesisLine(entry: HypothesisEntry): string {
  return `${pythonJsonDumps({ question_id: entry.questionId, hypothesis: entry.hypothesis })}\n`;
}
