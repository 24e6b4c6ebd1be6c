import { pyAdd, pyFloat, pyInt, pyRound3, pyStr, roundFloat3 } from '../python-number.js';
import type { LocomoCategoryFigures, LocomoOfficialAggregate, PythonNumber } from './locomo-summary.js';

/** One scored QA, in the order of the output file (conversations, then their `qa`). */
export type LocomoScoredQuestion = {
  category: number;
  /** The official per-QA score, unrounded (int for category 5 and for a no-overlap F1 of 0). */
  score: PythonNumber;
  /** The official per-QA recall_acc, unrounded (int 1 without context or evidence). */
  recall: PythonNumber;
  /** The QA's `evidence` list (only its length matters here). */
  evidence: readonly string[];
};

/** Plain per-QA means without the official aggregation's quirks (the corrected figures). */
export type LocomoPerQuestionMeans = {
  count: number;
  /** Mean of the unrounded per-QA scores. */
  meanScore: number;
  /** Mean of the unrounded per-QA recall_acc, counting a QA without evidence as 1 as the per-QA value says. */
  meanRecallAcc: number;
  /** QA whose evidence list is empty (the official printed recall adds 0 for them). */
  emptyEvidence: number;
};

/** The order `analyze_aggr_acc` prints categories in (the LoCoMo paper's column order). */
export const LOCOMO_PRINT_ORDER = [4, 1, 2, 3, 5] as const;

/**
 * `evaluate_qa.py` (per QA: `round(score, 3)`, `round(recall, 3)`) followed by
 * `evaluation_stats.py` `analyze_aggr_acc(..., rag=True)`, with its summation orders: category
 * sums in file order; the overall accuracy sums categories in print order; the overall recall
 * sums categories in the order they first had a QA with evidence (Python dict order).
 */
export function aggregateLocomoOfficial(questions: readonly LocomoScoredQuestion[]): LocomoOfficialAggregate {
  const counts = new Map<number, number>();
  const accuracy = new Map<number, PythonNumber>();
  const recall = new Map<number, PythonNumber>();
  for (const question of questions) {
    const { category } = question;
    counts.set(category, (counts.get(category) ?? 0) + 1);
    accuracy.set(category, pyAdd(accuracy.get(category) ?? pyInt(0), pyRound3(question.score)));
    if (question.evidence.length > 0) {
      recall.set(category, pyAdd(recall.get(category) ?? pyInt(0), pyRound3(question.recall)));
    }
  }
  const recallUnrounded = new Map(
    [...recall].map(([category, sum]) => [category, sum.value / counts.get(category)!]),
  );

  const lines = ['Total number of questions and corresponding accuracy in each category: '];
  const byCategory: Record<number, LocomoCategoryFigures> = {};
  let total = pyInt(0);
  let totalCount = 0;
  for (const category of LOCOMO_PRINT_ORDER) {
    const count = counts.get(category) ?? 0;
    const cumulative = accuracy.get(category) ?? pyInt(0);
    if (count === 0) lines.push(`No questions found in category ${category}`);
    else {
      const rounded = roundFloat3(cumulative.value / count);
      lines.push(`${category} ${count} ${pyStr(cumulative)} ${pyStr(pyFloat(rounded))}`);
      const recallSum = recall.get(category)?.value ?? 0;
      byCategory[category] = {
        count,
        cumAccuracy: cumulative,
        accuracy: rounded,
        recall: roundFloat3(recallSum / count),
        ...(recallUnrounded.has(category) ? { recallUnrounded: recallUnrounded.get(category)! } : {}),
      };
    }
    total = pyAdd(total, cumulative);
    totalCount += count;
  }
  const overallAccuracy = roundFloat3(total.value / totalCount);
  lines.push(`Overall accuracy:  ${pyStr(pyFloat(overallAccuracy))}`);
  lines.push('Category and corresponding recall accuracy in each category: ');
  for (const category of LOCOMO_PRINT_ORDER) {
    const figures = byCategory[category];
    if (figures === undefined) lines.push(`No questions found in category ${category}`);
    else lines.push(`${category} ${pyStr(pyFloat(figures.recall))}`);
  }
  let recallTotal = pyInt(0);
  for (const sum of recall.values()) recallTotal = pyAdd(recallTotal, sum);
  const overallRecallAccuracy = recallTotal.value / questions.length;
  lines.push(`Overall recall accuracy:  ${pyStr(pyFloat(overallRecallAccuracy))}`);
  return { byCategory, overallAccuracy, overallRecallAccuracy, printedLines: lines };
}

/** Per category and overall: plain means of the unrounded per-QA values (the corrected figures). */
export function locomoPerQuestionMeans(questions: readonly LocomoScoredQuestion[]): {
  byCategory: Record<number, LocomoPerQuestionMeans>;
  overall: LocomoPerQuestionMeans;
} {
  const groups = new Map<number, LocomoScoredQuestion[]>();
  for (const question of questions) {
    const group = groups.get(question.category) ?? [];
    group.push(question);
    groups.set(question.category, group);
  }
  const means = (group: readonly LocomoScoredQuestion[]): LocomoPerQuestionMeans => ({
    count: group.length,
    meanScore: group.reduce((sum, question) => sum + question.score.value, 0) / group.length,
    meanRecallAcc: group.reduce((sum, question) => sum + question.recall.value, 0) / group.length,
    emptyEvidence: group.filter((question) => question.evidence.length === 0).length,
  });
  return {
    byCategory: Object.fromEntries([...groups].map(([category, group]) => [category, means(group)])),
    overall: means(questions),
  };
}
