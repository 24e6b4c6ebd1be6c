import { inMeans, judgeScore, type Sample } from '../../../results/sample.js';
import { locomoPlusCategoryOf } from './locomo-plus-categories.js';
import { computeLocomoPlusSummary, type LocomoPlusSummary } from './locomo-plus-summary.js';

export type LocomoPlusBlock = LocomoPlusSummary & {
  judge: string;
  judge_model: string;
  /** Questions whose judge reply had no label (scored 0 here, as the official summary does). */
  judge_errors: number;
};

/**
 * The `locomo_plus` block of summary.json: the official judge_summary.json (`_compute_summary`)
 * over the run's judged LoCoMo-Plus questions, a judge error scored 0 as the official script
 * scores a reply without a label. Undefined when no such question was judged.
 */
export function aggregateLocomoPlus(
  samples: readonly Sample[],
  qa?: { judge: string; judge_model: string },
): { locomo_plus: LocomoPlusBlock } | undefined {
  if (!qa) return undefined;
  const judged = samples.filter(
    (sample) =>
      inMeans(sample) && sample.judge !== null && locomoPlusCategoryOf(sample.question_type) !== undefined,
  );
  if (judged.length === 0) return undefined;
  const scores = judged.map((sample) => judgeScore(sample.judge!));
  const summary = computeLocomoPlusSummary(
    judged.map((sample, index) => ({
      category: locomoPlusCategoryOf(sample.question_type)!,
      judge_score: scores[index] ?? 0,
    })),
  );
  return {
    locomo_plus: {
      judge: qa.judge,
      judge_model: qa.judge_model,
      judge_errors: scores.filter((score) => score === null).length,
      ...summary,
    },
  };
}

/** report.md's table of the official summary, when the run has one. */
export function renderLocomoPlusTable(block: LocomoPlusBlock | undefined): string {
  if (!block) return '';
  const rows = Object.entries(block.by_category).map(
    ([category, entry]) => `| ${category} | ${entry.count} | ${entry.score} | ${entry.avg} |`,
  );
  return [
    '',
    `### LoCoMo-Plus judge summary (official judge_summary.json; judge ${block.judge}, ${block.judge_model})`,
    '',
    '| category | questions | score | avg |',
    '| --- | ---: | ---: | ---: |',
    ...rows,
    `| all | ${block.total_samples} | ${block.total_score} | ${block.overall_avg} |`,
    '',
    `correct 1, partial 0.5, wrong 0; ${block.judge_errors} replies without a label scored 0.`,
    '',
  ].join('\n');
}
