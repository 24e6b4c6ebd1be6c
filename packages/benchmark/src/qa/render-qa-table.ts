import { formatValue, renderMarkdownTable } from '../results/markdown-table.js';
import type { MetricMeans, Summary } from '../results/summary.js';
import {
  QA_ACCURACY_LENIENT,
  QA_ACCURACY_STRICT,
  QA_JUDGE_AGREEMENT,
  QA_TASK_AVERAGE,
  QA_TASK_AVERAGE_LENIENT,
} from './qa-metrics.js';

/**
 * The QA table of a run, official figures first: per question type, abstention and overall, the
 * strict accuracy (print_qa_metrics.py: judge errors are wrong), the judge errors, then lme's own
 * lenient accuracy (judge errors left out); below it the official task-averaged accuracy and lme's
 * lenient one. Abstention questions are counted in their type and in overall, as officially.
 * Undefined when the run has no QA figures.
 */
export function renderQaTable(summary: Summary): string | undefined {
  const { overall, by_type: byType, abstention } = summary.metrics;
  if (overall.counts[QA_ACCURACY_STRICT] === undefined) return undefined;
  const rows: [string, MetricMeans][] = [
    ...Object.entries(byType),
    ['abstention (also in its type and overall)', abstention],
    ['overall', overall],
  ];
  // Beside the official figure: its 95% interval, and with --judge-samples k the judge's agreement.
  const intervals = overall.ci95?.[QA_ACCURACY_STRICT] !== undefined;
  const agreement = overall.metrics[QA_JUDGE_AGREEMENT] !== undefined;
  const header = [
    'question_type',
    'n',
    'accuracy (official, strict)',
    ...(intervals ? ['95% CI (Wilson)'] : []),
    ...(agreement ? ['judge agreement'] : []),
    'judge errors',
    "accuracy w/o judge errors (lme's own)",
  ];
  const body = rows
    .filter(([, means]) => means.counts[QA_ACCURACY_STRICT] !== undefined)
    .map(([label, means]) => {
      const graded = means.counts[QA_ACCURACY_STRICT] ?? 0;
      const interval = means.ci95?.[QA_ACCURACY_STRICT];
      return [
        label,
        String(graded),
        formatValue(means.metrics[QA_ACCURACY_STRICT]),
        ...(intervals ? [interval ? `${formatValue(interval.low)}-${formatValue(interval.high)}` : ''] : []),
        ...(agreement ? [formatValue(means.metrics[QA_JUDGE_AGREEMENT])] : []),
        String(graded - (means.counts[QA_ACCURACY_LENIENT] ?? 0)),
        formatValue(means.metrics[QA_ACCURACY_LENIENT]),
      ];
    });
  const taskAverage = formatValue(overall.metrics[QA_TASK_AVERAGE]);
  const lenientAverage = formatValue(overall.metrics[QA_TASK_AVERAGE_LENIENT]);
  return (
    `Question answering (official figures first: a judge error counts as wrong, as in print_qa_metrics.py)\n\n` +
    `${renderMarkdownTable(header, body)}\n\n` +
    `Task-averaged accuracy (official): ${taskAverage} over ${overall.counts[QA_TASK_AVERAGE] ?? 0} types; ` +
    `lme's own, judge errors left out: ${lenientAverage}.\n` +
    provenanceLine(summary) +
    ceilingLine(summary)
  );
}

/** Whose answers were judged, and how often the judge was asked. */
function provenanceLine(summary: Summary): string {
  const qa = summary.qa;
  if (!qa) return '';
  const answers =
    qa.answer_source === 'provider'
      ? "Answers: the provider's own (--answers provider), no lme reader"
      : `Answers: lme's reader${qa.reader_model ? ` (${qa.reader_model})` : ''}`;
  const votes =
    qa.judge_samples !== undefined && qa.judge_samples > 1
      ? `; each the majority of ${qa.judge_samples} judge calls at temperature ${qa.judge_temperature ?? 0} (judge agreement: the share of votes on the majority side, averaged over questions)`
      : '';
  const interval = summary.metrics.overall.ci95 ? '; 95% CI: Wilson score interval over the questions' : '';
  return `${answers}; judge ${qa.judge_model} (${qa.judge} rubric)${votes}${interval}.\n`;
}

/** The best overall accuracy reachable under the published answers, when errata know some are wrong. */
function ceilingLine(summary: Summary): string {
  const ceiling = summary.errata?.ceiling?.qa_accuracy;
  if (!ceiling || ceiling.wrong_labels === 0) return '';
  return (
    `Overall accuracy ${formatValue(summary.metrics.overall.metrics[QA_ACCURACY_STRICT])}, ceiling ${formatValue(ceiling.value)} ` +
    `under the published answers (${ceiling.wrong_labels} of ${ceiling.n} known wrong, errata ${summary.errata!.errata}).\n`
  );
}
