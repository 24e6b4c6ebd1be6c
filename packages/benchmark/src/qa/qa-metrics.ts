/**
 * The QA figures, defined once. Per question, `qaSampleMetrics` turns the judge label into
 * `qa.accuracy_strict` (the official figure: a judge error is a wrong answer) and `qa.accuracy`
 * (lme's own lenient figure: judge errors left out); aggregate-metrics.ts averages them per type, overall
 * and for abstention like every other metric (QA means count `_abs` questions in their type and in
 * overall, as print_qa_metrics.py does), then `addQaTaskAverages` adds the task averages.
 */

/** Strict (official) accuracy: judge errors count as wrong. */
export const QA_ACCURACY_STRICT = 'qa.accuracy_strict';
/** lme's own lenient accuracy: judge errors left out. */
export const QA_ACCURACY_LENIENT = 'qa.accuracy';
/** print_qa_metrics.py "Task-averaged Accuracy": the mean of the per-type strict accuracies. */
export const QA_TASK_AVERAGE = 'qa.accuracy_task_avg';
/** lme's own: the mean of the per-type lenient accuracies. */
export const QA_TASK_AVERAGE_LENIENT = 'qa.accuracy_lenient_task_avg';

/**
 * With `--judge-samples` above 1: the share of the judge's votes on the side of its label (the
 * larger side), per question; its mean is the judge's agreement rate.
 */
export const QA_JUDGE_AGREEMENT = 'qa.judge_agreement';

/** One question's QA metrics from its judge label (true correct, false wrong, null a judge error). */
export function qaSampleMetrics(label: boolean | null): Record<string, number> {
  const metrics: Record<string, number> = { [QA_ACCURACY_STRICT]: label === true ? 1 : 0 };
  if (label !== null) metrics[QA_ACCURACY_LENIENT] = label ? 1 : 0;
  return metrics;
}

type Means = { metrics: Record<string, number>; counts: Record<string, number> };

/**
 * Adds the task averages to `overall`: `qa.accuracy_task_avg` as print_qa_metrics.py computes it
 * (`np.mean` of the per-type accuracies, judge errors wrong, abstention questions inside their
 * type) over the types that have QA questions, and lme's lenient counterpart. A type with no
 * QA question is left out (the official script would print nan).
 */
export function addQaTaskAverages(overall: Means, byType: Readonly<Record<string, Means>>): void {
  for (const [average, perType] of [
    [QA_TASK_AVERAGE, QA_ACCURACY_STRICT],
    [QA_TASK_AVERAGE_LENIENT, QA_ACCURACY_LENIENT],
  ] as const) {
    const values = Object.values(byType)
      .map((means) => means.metrics[perType])
      .filter((value): value is number => value !== undefined);
    if (values.length === 0) continue;
    overall.metrics[average] = values.reduce((sum, value) => sum + value, 0) / values.length;
    overall.counts[average] = values.length;
  }
}

/** A 95% interval around an accuracy, over the questions it is computed on. */
export type AccuracyInterval = { low: number; high: number };

/** The two-sided 95% normal quantile. */
const Z_95 = 1.959963984540054;

/**
 * The Wilson score interval (95%) of a proportion `accuracy` over `n` questions: each question is
 * one Bernoulli trial (right or wrong by the judge's majority label). Unlike the normal-approximation
 * interval it stays inside [0, 1] and is not empty at 0% or 100%. Undefined for n = 0.
 */
export function wilsonInterval(accuracy: number, n: number): AccuracyInterval | undefined {
  if (n <= 0) return undefined;
  const z2 = Z_95 * Z_95;
  const centre = (accuracy + z2 / (2 * n)) / (1 + z2 / n);
  const half = (Z_95 / (1 + z2 / n)) * Math.sqrt((accuracy * (1 - accuracy)) / n + z2 / (4 * n * n));
  return { low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}

/**
 * The 95% Wilson intervals of a group's strict (official) and lenient QA accuracy, keyed by metric
 * name, from the group's means and counts; empty when the group has no QA figure.
 */
export function qaAccuracyIntervals(means: Means): Record<string, AccuracyInterval> {
  const intervals: Record<string, AccuracyInterval> = {};
  for (const name of [QA_ACCURACY_STRICT, QA_ACCURACY_LENIENT]) {
    const value = means.metrics[name];
    const interval = value === undefined ? undefined : wilsonInterval(value, means.counts[name] ?? 0);
    if (interval) intervals[name] = interval;
  }
  return intervals;
}
