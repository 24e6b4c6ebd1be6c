/**
 * REALTALK's memory-probing categories. The data stores only the integer and the official code
 * names none; it scores them as LoCoMo scores the same integers (`compute_lexical_score` of
 * danny911kr/REALTALK `eval_memory/qa_tool.py`): 1 splits answers on commas (several facts), 2 is
 * a plain token F1 (the questions ask "when"), 3 keeps the answer before the first `;` (an
 * inference with its reason after it). Categories 4 and 5 exist only in LoCoMo's files;
 * `evaluate_memory.py` skips them.
 */
export const REALTALK_CATEGORY_NAMES = { 1: 'fact', 2: 'date', 3: 'inference' } as const;

export type RealtalkCategoryId = keyof typeof REALTALK_CATEGORY_NAMES;

/** Categories the official script skips (`if category in [4, 5]: continue`). */
export const REALTALK_SKIPPED_CATEGORIES: readonly number[] = [4, 5];

export const REALTALK_CATEGORY_ORDER: readonly RealtalkCategoryId[] = [1, 2, 3];

/** The lme question type of a category: `realtalk-1-fact`. */
export function realtalkQuestionType(id: RealtalkCategoryId): string {
  return `realtalk-${id}-${REALTALK_CATEGORY_NAMES[id]}`;
}

/** The category of a question type, or undefined for another benchmark's type. */
export function realtalkCategoryOf(questionType: string): RealtalkCategoryId | undefined {
  const match = /^realtalk-([1-3])-/.exec(questionType);
  if (!match) return undefined;
  const id = Number(match[1]) as RealtalkCategoryId;
  return questionType === realtalkQuestionType(id) ? id : undefined;
}
