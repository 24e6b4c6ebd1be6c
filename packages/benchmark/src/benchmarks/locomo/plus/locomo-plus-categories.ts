import type { LocomoCategoryId } from '../locomo-categories.js';

/*
 * LoCoMo-Plus's six categories, named as its official code names them (xjtuleeyf/Locomo-Plus
 * `data/unified_input.py` at commit 143cdeb649231612abc3304793bb36a122f94229:
 * `LOCOMO_CATEGORY_NAMES` for LoCoMo's integer categories and `CATEGORY_SIXTH = "Cognitive"`).
 * Its names differ from lme's LoCoMo ones in one place: category 3 is "common-sense" there
 * ("open-domain" in lme's LoCoMo folder), and each name picks its judge prompt (prompt.py).
 */
export const LOCOMO_PLUS_LOCOMO_NAMES = {
  1: 'multi-hop',
  2: 'temporal',
  3: 'common-sense',
  4: 'single-hop',
  5: 'adversarial',
} as const satisfies Record<LocomoCategoryId, string>;

export const LOCOMO_PLUS_COGNITIVE = 'Cognitive';

/** An official category name: a key of the judge's `PROMPT_TEMPLATES` (prompt.py). */
export type LocomoPlusCategory =
  | (typeof LOCOMO_PLUS_LOCOMO_NAMES)[LocomoCategoryId]
  | typeof LOCOMO_PLUS_COGNITIVE;

/** Report order: LoCoMo's paper order (single-hop first), then Cognitive. */
export const LOCOMO_PLUS_CATEGORY_ORDER: readonly LocomoPlusCategory[] = [
  'single-hop',
  'multi-hop',
  'temporal',
  'common-sense',
  'adversarial',
  'Cognitive',
];

/** The lme question type of a category: `locomo-plus-single-hop`, …, `locomo-plus-cognitive`. */
export function locomoPlusQuestionType(category: LocomoPlusCategory): string {
  return `locomo-plus-${category.toLowerCase()}`;
}

/** The official category name of an lme question type, or undefined for another benchmark's. */
export function locomoPlusCategoryOf(questionType: string): LocomoPlusCategory | undefined {
  return LOCOMO_PLUS_CATEGORY_ORDER.find((category) => locomoPlusQuestionType(category) === questionType);
}
