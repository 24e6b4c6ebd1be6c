/**
 * LoCoMo's QA categories. locomo10.json stores only the integer; the names follow the LoCoMo paper
 * (Maharana et al., ACL 2024, table of QA results: single-hop, multi-hop, temporal, open-domain,
 * adversarial), matched to the integers by the official evaluation code, snap-research/locomo:
 * - task_eval/evaluation_stats.py `analyze_aggr_acc` prints categories in the order
 *   `keys = [4, 1, 2, 3, 5]`, the paper's column order: 4 single-hop, 1 multi-hop, 2 temporal,
 *   3 open-domain, 5 adversarial (../shared/reference/locomo-official/README.md records the
 *   same print order);
 * - task_eval/evaluate_gpts.py appends "Use DATE of CONVERSATION to answer with an approximate
 *   date" to category 2 (temporal) and offers "Not mentioned in the conversation" as an option to
 *   category 5 (adversarial);
 * - task_eval/evaluation.py scores category 1 with the multi-answer F1 (answers split on commas:
 *   multi-hop), 2-4 with token F1 (category 3 keeps the answer before ';'), and 5 by whether the
 *   output says "not mentioned" / "no information available".
 * The data agree: category 2 questions ask "When did ...", category 1 questions list evidence
 * from several sessions.
 */
export const LOCOMO_CATEGORY_NAMES = {
  1: 'multi-hop',
  2: 'temporal',
  3: 'open-domain',
  4: 'single-hop',
  5: 'adversarial',
} as const satisfies Record<number, string>;

export type LocomoCategoryId = keyof typeof LOCOMO_CATEGORY_NAMES;

/** Category 5: unanswerable from the conversation; its questions get an `_abs` id suffix. */
export const LOCOMO_ADVERSARIAL = 5;

/** The order the official scripts (and the paper's tables) list the categories in. */
export const LOCOMO_CATEGORY_ORDER: readonly LocomoCategoryId[] = [4, 1, 2, 3, 5];

/** The lme question type of a LoCoMo category: `locomo-4-single-hop`, name and numeric id. */
export function locomoQuestionType(id: LocomoCategoryId): string {
  return `locomo-${id}-${LOCOMO_CATEGORY_NAMES[id]}`;
}

/** LoCoMo category id → lme question type (the row label in tables). */
export const LOCOMO_CATEGORIES = Object.fromEntries(
  LOCOMO_CATEGORY_ORDER.map((id) => [id, locomoQuestionType(id)]),
) as Record<LocomoCategoryId, string>;

/** The category a question type stands for, or undefined for a non-LoCoMo type. */
export function locomoCategoryOf(questionType: string): { id: LocomoCategoryId; name: string } | undefined {
  const match = /^locomo-([1-5])-/.exec(questionType);
  if (!match) return undefined;
  const id = Number(match[1]) as LocomoCategoryId;
  return questionType === locomoQuestionType(id) ? { id, name: LOCOMO_CATEGORY_NAMES[id] } : undefined;
}
