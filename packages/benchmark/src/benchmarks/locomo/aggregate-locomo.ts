import { meanMetrics } from '../../results/metric-means.js';
import type { Sample } from '../../results/sample.js';
import { LOCOMO_CATEGORY_NAMES, type LocomoCategoryId } from './locomo-categories.js';
import { aggregateLocomoOfficial, LOCOMO_PRINT_ORDER } from './locomo-official-aggregate.js';
import { locomoCategory } from './locomo-record.js';
import { locomoScoredQuestions } from './locomo-report.js';
import type { LocomoOfficialAggregate, LocomoSummary } from './locomo-summary.js';

const label = (category: number) =>
  `${category} ${LOCOMO_CATEGORY_NAMES[category as LocomoCategoryId] ?? 'unknown'}`;

/**
 * The LoCoMo block of a run's summary, or undefined when no sample is a LoCoMo question. `qa`
 * names the judge behind `qa.accuracy_strict` (set when QA ran).
 */
export function aggregateLocomo(
  samples: readonly Sample[],
  qa?: { judge: string; judge_model: string },
): LocomoSummary | undefined {
  const finished = samples.filter((sample) => sample.error === null && locomoCategory(sample) !== undefined);
  if (!samples.some((sample) => locomoCategory(sample) !== undefined)) return undefined;
  const groups = LOCOMO_PRINT_ORDER.map(
    (category) => [category, finished.filter((sample) => locomoCategory(sample) === category)] as const,
  ).filter(([, group]) => group.length > 0);
  const isRetrieval = (name: string) => name.startsWith('locomo.');
  const summary: LocomoSummary = {
    retrieval: {
      by_category: Object.fromEntries(
        groups.map(([category, group]) => [label(category), meanMetrics(group, isRetrieval)]),
      ),
      overall: meanMetrics(finished, isRetrieval),
    },
  };
  const recallMetric =
    ['locomo.recall_acc@context', 'locomo.session_recall_acc@context'].find((name) =>
      finished.some((sample) => name in sample.metrics),
    ) ?? null;
  const scored = locomoScoredQuestions(finished, recallMetric ?? undefined);
  if (scored.length > 0) {
    const aggregate = aggregateLocomoOfficial(scored);
    const produced_by =
      'official LoCoMo token F1 (task_eval/evaluation.py), no judge; category 5 = adversarial accuracy';
    if (recallMetric !== null)
      summary.official_f1 = { produced_by, recall_metric: recallMetric, ...aggregate };
    else {
      const byCategory = Object.fromEntries(
        Object.entries(aggregate.byCategory).map(([category, { recall, recallUnrounded, ...rest }]) => [
          category,
          rest,
        ]),
      );
      const end = aggregate.printedLines.findIndex((line) => line.startsWith('Overall accuracy'));
      summary.official_f1 = {
        produced_by,
        recall_metric: null,
        byCategory: byCategory as LocomoOfficialAggregate['byCategory'],
        overallAccuracy: aggregate.overallAccuracy,
        printedLines: aggregate.printedLines.slice(0, end + 1),
      };
    }
  }
  const strict = 'qa.accuracy_strict';
  const judged = groups
    .filter(([category]) => category !== 5)
    .map(([category, group]) => [category, group.filter((sample) => strict in sample.metrics)] as const);
  if (qa && judged.some(([, group]) => group.length > 0)) {
    const isStrict = (name: string) => name === strict;
    summary.judge_accuracy = {
      judge: qa.judge,
      judge_model: qa.judge_model,
      by_category: Object.fromEntries(
        judged.map(([category, group]) => [label(category), meanMetrics(group, isStrict)]),
      ),
      overall: meanMetrics(
        judged.flatMap(([, group]) => group),
        isStrict,
      ),
    };
  }
  return summary;
}
