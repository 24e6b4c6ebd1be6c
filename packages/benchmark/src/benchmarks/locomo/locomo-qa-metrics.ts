import type { LongMemEvalRecord } from '../longmemeval-record.js';
import { pyRound3 } from '../python-number.js';
import { scoreLocomoAnswer } from './locomo-answer-score.js';
import { locomoCategory } from './locomo-record.js';

/**
 * `qa.locomo_f1` of one LoCoMo answer: the official per-QA score rounded to 3 places, as
 * `evaluate_qa.py` stores it (`<model>_f1`). For category 5 it is the official adversarial
 * accuracy (1 when the answer says "not mentioned" / "no information available"). Empty for a
 * record that is not LoCoMo's. A category-5 record needs no gold (the official rule never reads
 * it, though the released records would make the official code crash first: they carry
 * `adversarial_answer`, not `answer`).
 */
export function locomoQaMetrics(
  record: Pick<LongMemEvalRecord, 'question_type' | 'answer'>,
  hypothesis: string,
): Record<string, number> {
  const category = locomoCategory(record);
  if (category === undefined) return {};
  const score = scoreLocomoAnswer({ category, answer: record.answer, prediction: hypothesis });
  return { 'qa.locomo_f1': pyRound3(score).value };
}
