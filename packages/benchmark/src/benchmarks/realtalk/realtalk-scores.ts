import { inMeans, judgeScore, type Sample } from '../../results/sample.js';
import type { LongMemEvalRecord } from '../longmemeval-record.js';
import { scoreStemmedAnswer } from '../stemmed-answer-f1.js';
import { REALTALK_CATEGORY_ORDER, realtalkCategoryOf } from './realtalk-categories.js';

/** The per-question lexical score's metric name. */
export const REALTALK_LEXICAL = 'qa.realtalk_lexical';

/**
 * `compute_lexical_score` of the official `qa_tool.py` for one answer, unrounded (as
 * `evaluate_memory.py` averages it): LoCoMo's official stemmed token F1 (`../stemmed-answer-f1.ts`),
 * the same code. Empty for another benchmark's record.
 */
export function realtalkAnswerMetrics(
  record: Pick<LongMemEvalRecord, 'question_type' | 'answer'>,
  hypothesis: string,
): Record<string, number> {
  const category = realtalkCategoryOf(record.question_type);
  if (category === undefined) return {};
  return {
    [REALTALK_LEXICAL]: scoreStemmedAnswer({ category, answer: record.answer, prediction: hypothesis }).value,
  };
}

type Means = { count: number; lexical_mean: number | null; gpt_mean: number | null; gpt_scored: number };

export type RealtalkBlock = {
  judge: string | null;
  judge_model: string | null;
  /** `lexical_mean` and `gpt_mean` as `evaluate_memory.py` writes them, by category, and over all. */
  by_category: Record<string, Means>;
  overall: Means;
};

function means(samples: readonly Sample[]): Means {
  const lexical = samples.flatMap((sample) => {
    const value = sample.metrics?.[REALTALK_LEXICAL];
    return typeof value === 'number' ? [value] : [];
  });
  const gpt = samples.flatMap((sample) => {
    const score = sample.judge ? judgeScore(sample.judge) : null;
    return score === null ? [] : [score];
  });
  const mean = (values: number[]) =>
    values.length === 0 ? null : values.reduce((sum, value) => sum + value, 0) / values.length;
  return { count: samples.length, lexical_mean: mean(lexical), gpt_mean: mean(gpt), gpt_scored: gpt.length };
}

/** The `realtalk` block of summary.json over the run's answered REALTALK questions; undefined when there are none. */
export function aggregateRealtalk(
  samples: readonly Sample[],
  qa?: { judge: string; judge_model: string },
): { realtalk: RealtalkBlock } | undefined {
  const own = samples.filter(
    (sample) =>
      inMeans(sample) &&
      realtalkCategoryOf(sample.question_type) !== undefined &&
      typeof sample.metrics?.[REALTALK_LEXICAL] === 'number',
  );
  if (own.length === 0) return undefined;
  const by_category: Record<string, Means> = {};
  for (const category of REALTALK_CATEGORY_ORDER) {
    const inCategory = own.filter((sample) => realtalkCategoryOf(sample.question_type) === category);
    if (inCategory.length > 0) by_category[String(category)] = means(inCategory);
  }
  return {
    realtalk: {
      judge: qa?.judge ?? null,
      judge_model: qa?.judge_model ?? null,
      by_category,
      overall: means(own),
    },
  };
}

const cell = (value: number | null) => (value === null ? '-' : value.toFixed(4));

/** report.md's table of the official means, when the run answered REALTALK questions. */
export function renderRealtalkTable(block: RealtalkBlock | undefined): string {
  if (!block) return '';
  const row = (label: string, entry: Means) =>
    `| ${label} | ${entry.count} | ${cell(entry.lexical_mean)} | ${cell(entry.gpt_mean)} | ${entry.gpt_scored} |`;
  return [
    '',
    `### REALTALK memory probing (official lexical_mean and gpt_mean${block.judge ? `; judge ${block.judge}, ${block.judge_model}` : ''})`,
    '',
    '| category | questions | lexical | GPT score | GPT scored |',
    '| --- | ---: | ---: | ---: | ---: |',
    ...Object.entries(block.by_category).map(([category, entry]) => row(category, entry)),
    row('all', block.overall),
    '',
  ].join('\n');
}
