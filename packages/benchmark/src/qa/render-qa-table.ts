import { formatValue, renderMarkdownTable } from '../results/markdown-table.js';
import type { MetricMeans, Summary } from '../results/summary.js';
import {
  QA_ACCURACY_STRICT,
  QA_FAMILIES,
  QA_JUDGE_AGREEMENT,
  type QaFamily,
  qaFamilyOf,
} from './qa-metrics.js';

/** The words of the table for a yes/no judge's accuracies and for a graded judge's mean scores. */
const WORDING = {
  wilson: {
    strict: 'accuracy (official, strict)',
    interval: '95% CI (Wilson)',
    lenient: "accuracy w/o judge errors (lme's own)",
    title:
      'Question answering (official figures first: a judge error counts as wrong, as in print_qa_metrics.py)',
    average: 'Task-averaged accuracy (official)',
    intervalLine: '95% CI: Wilson score interval over the questions',
  },
  bootstrap: {
    strict: 'mean score (judge errors 0)',
    interval: '95% CI (bootstrap)',
    lenient: "mean score w/o judge errors (lme's own)",
    title:
      'Question answering, graded judge (scores in [0, 1] with partial credit; a judge error scores 0 in the first column)',
    average: 'Task-averaged score',
    intervalLine: '95% CI: percentile bootstrap over the questions (10,000 resamples, seed 42)',
  },
} as const;

/**
 * The QA table of a run, official figures first: per question type, abstention and overall, the
 * strict accuracy (print_qa_metrics.py: judge errors are wrong), the judge errors, then lme's own
 * lenient accuracy (judge errors left out); below it the official task-averaged accuracy and lme's
 * lenient one. Abstention questions are counted in their type and in overall, as officially.
 * A graded judge's run gets the same table of mean scores (`qa.score_strict`, `qa.score`) with
 * bootstrap intervals. Undefined when the run has no QA figures.
 */
export function renderQaTable(summary: Summary): string | undefined {
  const { overall, by_type: byType, abstention } = summary.metrics;
  const family: QaFamily | undefined =
    overall.counts[QA_ACCURACY_STRICT] !== undefined ? QA_FAMILIES.binary : qaFamilyOf(overall.metrics);
  if (family === undefined) return undefined;
  const words = WORDING[family.interval];
  const { strict, lenient } = family;
  const rows: [string, MetricMeans][] = [
    ...Object.entries(byType),
    ['abstention (also in its type and overall)', abstention],
    ['overall', overall],
  ];
  // Beside the official figure: its 95% interval, and with --judge-samples k the judge's agreement.
  const intervals = overall.ci95?.[strict] !== undefined;
  const agreement = overall.metrics[QA_JUDGE_AGREEMENT] !== undefined;
  const header = [
    'question_type',
    'n',
    words.strict,
    ...(intervals ? [words.interval] : []),
    ...(agreement ? ['judge agreement'] : []),
    'judge errors',
    words.lenient,
  ];
  const body = rows
    .filter(([, means]) => means.counts[strict] !== undefined)
    .map(([label, means]) => {
      const graded = means.counts[strict] ?? 0;
      const interval = means.ci95?.[strict];
      return [
        label,
        String(graded),
        formatValue(means.metrics[strict]),
        ...(intervals ? [interval ? `${formatValue(interval.low)}-${formatValue(interval.high)}` : ''] : []),
        ...(agreement ? [formatValue(means.metrics[QA_JUDGE_AGREEMENT])] : []),
        String(graded - (means.counts[lenient] ?? 0)),
        formatValue(means.metrics[lenient]),
      ];
    });
  const taskAverage = formatValue(overall.metrics[family.taskAverage]);
  const lenientAverage = formatValue(overall.metrics[family.taskAverageLenient]);
  return (
    `${words.title}\n\n` +
    `${renderMarkdownTable(header, body)}\n\n` +
    `${words.average}: ${taskAverage} over ${overall.counts[family.taskAverage] ?? 0} types; ` +
    `lme's own, judge errors left out: ${lenientAverage}.\n` +
    provenanceLine(summary, words.intervalLine) +
    ceilingLine(summary)
  );
}

/** Whose answers were judged, and how often the judge was asked. */
function provenanceLine(summary: Summary, intervalLine: string): string {
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
  const interval = summary.metrics.overall.ci95 ? `; ${intervalLine}` : '';
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
