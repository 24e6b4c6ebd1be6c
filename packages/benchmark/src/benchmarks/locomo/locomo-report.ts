import { formatValue } from '../../results/markdown-table.js';
import { inMeans, type Sample } from '../../results/sample.js';
import type { Summary } from '../../results/summary.js';
import { pyFloat, pyInt } from '../python-number.js';
import { LOCOMO_CATEGORY_NAMES, type LocomoCategoryId } from './locomo-categories.js';
import {
  aggregateLocomoOfficial,
  LOCOMO_PRINT_ORDER,
  type LocomoScoredQuestion,
} from './locomo-official-aggregate.js';
import { locomoCategory } from './locomo-record.js';

/** What the LoCoMo tables read from a run's samples (samples.jsonl lines). */
export type LocomoSampleLike = {
  question_type: string;
  metrics: Record<string, number>;
  error?: string | null;
};

const label = (category: number) =>
  `${category} ${LOCOMO_CATEGORY_NAMES[category as LocomoCategoryId] ?? 'unknown'}`;

function byCategory(samples: readonly LocomoSampleLike[]): Map<number, LocomoSampleLike[]> {
  const groups = new Map<number, LocomoSampleLike[]>();
  for (const sample of samples) {
    const category = locomoCategory(sample);
    if (category === undefined || (sample.error ?? null) !== null) continue;
    const group = groups.get(category) ?? [];
    group.push(sample);
    groups.set(category, group);
  }
  return groups;
}

function mean(samples: readonly LocomoSampleLike[], metric: string): number | undefined {
  const values = samples.flatMap((sample) => (metric in sample.metrics ? [sample.metrics[metric]!] : []));
  return values.length === 0 ? undefined : values.reduce((sum, value) => sum + value, 0) / values.length;
}

const cell = (value: number | undefined) => (value === undefined ? '-' : value.toFixed(3));

/**
 * The LoCoMo retrieval table of a run: per category in the official order (4, 1, 2, 3, 5) and
 * overall (every category, adversarial included, as the official overall recall), for each
 * `locomo.<level>@<k>` asked: the official printed figure (`as printed`: QA without evidence add 0
 * to the sum but count) and the per-question mean (corrected: such QA count 1, their own value).
 */
export function renderLocomoRetrievalTable(
  samples: readonly LocomoSampleLike[],
  columns: readonly string[] = [
    'recall_acc@5',
    'recall_acc@10',
    'session_recall_acc@5',
    'session_recall_acc@10',
  ],
): string {
  const groups = byCategory(samples);
  const present = columns.filter((column) => samples.some((sample) => `locomo.${column}` in sample.metrics));
  const header = ['category', 'n', ...present.flatMap((column) => [`${column} printed`, `${column} per-QA`])];
  const rows = [
    ...LOCOMO_PRINT_ORDER.filter((category) => groups.has(category)).map(
      (category) => [label(category), groups.get(category)!] as const,
    ),
  ];
  const all = [...groups.values()].flat();
  rows.push(['overall', all]);
  const lines = [
    `| ${header.join(' | ')} |`,
    `|${header.map((_, index) => (index === 0 ? '---' : '---:')).join('|')}|`,
    ...rows.map(
      ([name, group]) =>
        `| ${[
          name,
          String(group.length),
          ...present.flatMap((column) => {
            const base = column.replace('@', '_as_printed@');
            return [cell(mean(group, `locomo.${base}`)), cell(mean(group, `locomo.${column}`))];
          }),
        ].join(' | ')} |`,
    ),
  ];
  return lines.join('\n');
}

/** The scored questions of a run for aggregateLocomoOfficial, from `qa.locomo_f1` (already rounded). */
export function locomoScoredQuestions(
  samples: readonly LocomoSampleLike[],
  recallMetric = 'locomo.recall_acc@context',
): LocomoScoredQuestion[] {
  const scored: LocomoScoredQuestion[] = [];
  for (const sample of samples) {
    const category = locomoCategory(sample);
    const score = sample.metrics['qa.locomo_f1'];
    if (category === undefined || score === undefined || (sample.error ?? null) !== null) continue;
    // Official ints: category 5, and the F1 of 0 that f1_score returns when nothing overlaps.
    const isInt = category === 5 || (category !== 1 && score === 0);
    const recall = sample.metrics[recallMetric];
    const printed = sample.metrics[recallMetric.replace('@', '_as_printed@')];
    // A QA without evidence: per-QA value 1, printed contribution 0 (otherwise round(1) = 1).
    const noEvidence = recall === undefined || (recall === 1 && printed === 0);
    scored.push({
      category,
      score: isInt ? pyInt(score) : pyFloat(score),
      recall: recall === undefined ? pyInt(1) : pyFloat(recall),
      evidence: noEvidence ? [] : ['evidence'],
    });
  }
  return scored;
}

/**
 * The QA tables of a LoCoMo run: the official F1 as `analyze_aggr_acc` prints it (every
 * category; category 5 is the official adversarial accuracy), and the LLM judge's accuracy on
 * categories 1–4 with category 5 marked excluded, each headed by what produced its numbers.
 */
export function renderLocomoQaTables(
  samples: readonly LocomoSampleLike[],
  options: { judge: string; recallMetric?: string },
): string {
  const official = aggregateLocomoOfficial(locomoScoredQuestions(samples, options.recallMetric));
  const groups = byCategory(samples);
  const f1Rows = LOCOMO_PRINT_ORDER.filter((category) => official.byCategory[category]).map((category) => {
    const figures = official.byCategory[category]!;
    return `| ${label(category)} | ${figures.count} | ${figures.accuracy.toFixed(3)} |`;
  });
  const judged = (group: readonly LocomoSampleLike[]) =>
    group.filter((sample) => 'qa.accuracy_strict' in sample.metrics);
  const judgeRows = LOCOMO_PRINT_ORDER.filter((category) => groups.has(category)).map((category) => {
    if (category === 5)
      return `| ${label(category)} | ${groups.get(category)!.length} | excluded (adversarial, as Mem0) |`;
    const group = judged(groups.get(category)!);
    return `| ${label(category)} | ${group.length} | ${cell(mean(group, 'qa.accuracy_strict'))} |`;
  });
  const graded = judged([1, 2, 3, 4].flatMap((category) => groups.get(category) ?? []));
  return [
    'Official LoCoMo F1 (task_eval/evaluation.py + evaluation_stats.py; category 5 = adversarial accuracy)',
    '',
    '| category | n | qa.locomo_f1 |',
    '|---|---:|---:|',
    ...f1Rows,
    `| overall | ${LOCOMO_PRINT_ORDER.reduce((sum, category) => sum + (official.byCategory[category]?.count ?? 0), 0)} | ${official.overallAccuracy.toFixed(3)} |`,
    '',
    `LLM judge accuracy, judge: ${options.judge} (categories 1-4; adversarial excluded)`,
    '',
    '| category | n | qa.accuracy_strict |',
    '|---|---:|---:|',
    ...judgeRows,
    `| overall (1-4) | ${graded.length} | ${cell(mean(graded, 'qa.accuracy_strict'))} |`,
  ].join('\n');
}

/** The LoCoMo retrieval table and, when QA ran, the official F1 and judge tables; '' otherwise. */
export function renderLocomoTables(summary: Summary, samples: readonly Sample[]): string {
  if (!summary.locomo) return '';
  const finished = samples.filter(inMeans);
  const parts: string[] = [];
  if (Object.keys(summary.locomo.retrieval.overall.metrics).length > 0) {
    parts.push(
      'LoCoMo retrieval (official recall_acc; "printed" = as evaluation_stats.py prints it, "per-QA" = the per-question mean)',
      renderLocomoRetrievalTable(finished),
    );
  }
  if (summary.locomo.official_f1 && summary.qa) {
    parts.push(renderLocomoQaTables(finished, { judge: `${summary.qa.judge} (${summary.qa.judge_model})` }));
    const ceiling = summary.errata?.ceiling?.locomo_judge_accuracy;
    const judged = summary.locomo.judge_accuracy?.overall.metrics['qa.accuracy_strict'];
    if (ceiling && ceiling.wrong_labels > 0 && judged !== undefined) {
      parts.push(
        `Judge accuracy (categories 1-4) ${formatValue(judged)}, ceiling ${formatValue(ceiling.value)} under the published answers ` +
          `(${ceiling.wrong_labels} of ${ceiling.n} known wrong, errata ${summary.errata!.errata}).`,
      );
    }
  }
  return parts.length === 0 ? '' : `\n${parts.join('\n\n')}\n`;
}
