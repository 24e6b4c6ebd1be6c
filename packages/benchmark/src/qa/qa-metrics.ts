import { bootstrapMeans, quantile } from '../dataset/bootstrap-means.js';

/**
 * The QA figures, defined once. Per question, `qaSampleMetrics` turns a yes/no judge's label into
 * `qa.accuracy_strict` (the official figure: a judge error is a wrong answer) and `qa.accuracy`
 * (lme's own lenient figure: judge errors left out); `judgedSampleMetrics` does the same for any
 * judge, a graded one (scores in [0, 1], partial credit) giving `qa.score_strict` and `qa.score`.
 * aggregate-metrics.ts averages them per type, overall and for abstention like every other metric
 * (QA means count `_abs` questions in their type and in overall, as print_qa_metrics.py does), then
 * `addQaTaskAverages` adds the task averages.
 */

/** Strict (official) accuracy: judge errors count as wrong. */
export const QA_ACCURACY_STRICT = 'qa.accuracy_strict';
/** lme's own lenient accuracy: judge errors left out. */
export const QA_ACCURACY_LENIENT = 'qa.accuracy';
/** print_qa_metrics.py "Task-averaged Accuracy": the mean of the per-type strict accuracies. */
export const QA_TASK_AVERAGE = 'qa.accuracy_task_avg';
/** lme's own: the mean of the per-type lenient accuracies. */
export const QA_TASK_AVERAGE_LENIENT = 'qa.accuracy_lenient_task_avg';

/** Graded judges: the mean score in [0, 1], judge errors counted 0 (as the strict accuracy). */
export const QA_SCORE_STRICT = 'qa.score_strict';
/** Graded judges: the mean score, judge errors left out (as the lenient accuracy). */
export const QA_SCORE_LENIENT = 'qa.score';
/** Graded judges: the mean of the per-type strict mean scores. */
export const QA_SCORE_TASK_AVERAGE = 'qa.score_task_avg';
/** Graded judges: the mean of the per-type lenient mean scores. */
export const QA_SCORE_TASK_AVERAGE_LENIENT = 'qa.score_lenient_task_avg';

/**
 * A QA figure family: a yes/no judge's accuracies (Wilson intervals: each question a Bernoulli
 * trial) or a graded judge's mean scores (bootstrap intervals: a score is not 0/1).
 */
export type QaFamily = {
  strict: string;
  lenient: string;
  taskAverage: string;
  taskAverageLenient: string;
  interval: 'wilson' | 'bootstrap';
};

export const QA_FAMILIES = {
  binary: {
    strict: QA_ACCURACY_STRICT,
    lenient: QA_ACCURACY_LENIENT,
    taskAverage: QA_TASK_AVERAGE,
    taskAverageLenient: QA_TASK_AVERAGE_LENIENT,
    interval: 'wilson',
  },
  graded: {
    strict: QA_SCORE_STRICT,
    lenient: QA_SCORE_LENIENT,
    taskAverage: QA_SCORE_TASK_AVERAGE,
    taskAverageLenient: QA_SCORE_TASK_AVERAGE_LENIENT,
    interval: 'bootstrap',
  },
} as const satisfies Record<'binary' | 'graded', QaFamily>;

/** The family of a group's QA figures (by which strict mean it has), or undefined when it has none. */
export function qaFamilyOf(metrics: Readonly<Record<string, number>>): QaFamily | undefined {
  return Object.values(QA_FAMILIES).find((family) => metrics[family.strict] !== undefined);
}

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

/**
 * One question's QA metrics from its judge score: a yes/no judge's 1/0 (null a judge error) gives
 * exactly `qaSampleMetrics`; a graded judge's score in [0, 1] gives `qa.score_strict` (null
 * counted 0) and `qa.score` (null left out).
 */
export function judgedSampleMetrics(
  score: number | null,
  scale: 'binary' | 'graded',
): Record<string, number> {
  if (scale === 'binary') return qaSampleMetrics(score === null ? null : score === 1);
  const metrics: Record<string, number> = { [QA_SCORE_STRICT]: score ?? 0 };
  if (score !== null) metrics[QA_SCORE_LENIENT] = score;
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
  for (const [average, perType] of Object.values(QA_FAMILIES).flatMap(
    (family) =>
      [
        [family.taskAverage, family.strict],
        [family.taskAverageLenient, family.lenient],
      ] as const,
  )) {
    const values = Object.values(byType)
      .map((means) => means.metrics[perType])
      .filter((value): value is number => value !== undefined);
    if (values.length === 0) continue;
    overall.metrics[average] = values.reduce((sum, value) => sum + value, 0) / values.length;
    overall.counts[average] = values.length;
  }
}

/** A 95% interval around an accuracy or a mean score, over the questions it is computed on. */
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

/** Resamples of `bootstrapMeanInterval` (fixed, so a summary is reproducible). */
export const MEAN_BOOTSTRAP_RESAMPLES = 10_000;
/** Seed of `bootstrapMeanInterval`'s mulberry32 generator. */
export const MEAN_BOOTSTRAP_SEED = 42;

/**
 * The 95% percentile bootstrap interval of a mean of scores in [0, 1]: questions resampled with
 * replacement (10 000 times, mulberry32 seeded 42), the 2.5th and 97.5th percentiles of the
 * resampled means (linear interpolation). For graded judges, whose scores are not 0/1 trials (the
 * Wilson interval assumes they are). Undefined for no value.
 */
export function bootstrapMeanInterval(values: readonly number[]): AccuracyInterval | undefined {
  if (values.length === 0) return undefined;
  const means = bootstrapMeans(values, MEAN_BOOTSTRAP_RESAMPLES, MEAN_BOOTSTRAP_SEED);
  return { low: quantile(means, 0.025), high: quantile(means, 0.975) };
}

/**
 * The 95% bootstrap intervals of a group's strict and lenient mean scores (graded judges), keyed
 * by metric name, from the per-question values; empty when no question has a score.
 */
export function qaScoreIntervals(
  samples: readonly { metrics: Readonly<Record<string, number>> }[],
): Record<string, AccuracyInterval> {
  const intervals: Record<string, AccuracyInterval> = {};
  for (const name of [QA_SCORE_STRICT, QA_SCORE_LENIENT]) {
    const values = samples.flatMap((sample) =>
      sample.metrics[name] === undefined ? [] : [sample.metrics[name]],
    );
    const interval = bootstrapMeanInterval(values);
    if (interval) intervals[name] = interval;
  }
  return intervals;
}
