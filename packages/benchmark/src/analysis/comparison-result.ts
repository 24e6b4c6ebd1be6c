import { BENCHMARKS } from '../benchmarks/benchmark-registry.js';
import type { ConfigDifference } from './config-differences.js';
import type { McNemarResult } from './mcnemar.js';
import type { PairedBootstrapResult } from './paired-bootstrap.js';
import type { RunLabel } from './run-label.js';

// The shapes `lme compare` produces (compareRuns), shared by its renderers and the HTML report.
/**
 * Compared when no metrics are named, each if both runs have it (QA figures when both runs ran
 * QA): the shared headline figures, then each benchmark's own (`Benchmark.comparedMetrics`).
 */
export const DEFAULT_COMPARE_METRICS: readonly string[] = [
  'session.recall_all@5',
  'session.recall_any@5',
  'session.ndcg_any@5',
  'qa.accuracy_strict',
  ...Object.values(BENCHMARKS).flatMap((benchmark) => benchmark.comparedMetrics ?? []),
];

export type CompareOptions = {
  /** Metrics to compare (default: DEFAULT_COMPARE_METRICS that both runs have). */
  metrics?: readonly string[];
  /** Paired bootstrap resamples (default 10 000). */
  resamples?: number;
  /** Paired bootstrap seed (default 42). */
  seed?: number;
};

export type MetricTest =
  | ({ kind: 'mcnemar' } & McNemarResult)
  | ({ kind: 'bootstrap' } & PairedBootstrapResult);

export type MetricComparison = {
  metric: string;
  /** Mean over the base run's questions of the category (its summary's value). */
  base: number | undefined;
  /** Mean over the other run's questions of the category. */
  other: number | undefined;
  delta: number | undefined;
  /** Questions `base` is the mean of (retrieval and QA metrics count different questions). */
  nBase: number;
  /** Questions `other` is the mean of. */
  nOther: number;
  /** Questions of the category both runs have a value for; the test runs on these. */
  nPaired: number;
  /** Null when no question is paired. */
  test: MetricTest | null;
};

export type CategoryComparison = {
  /** A question type, `abstention` or `overall`. */
  category: string;
  /**
   * Questions of the category in each run's retrieval means (its QA means when only QA metrics are
   * compared); each metric carries its own n (`MetricComparison.nBase`, ...), which is the one to show.
   */
  nBase: number;
  nOther: number;
  nPaired: number;
  metrics: MetricComparison[];
};

export type FlippedQuestion = { question_id: string; question_type: string };

/** Questions counted in `overall` whose binary metric changed: gained 0 → 1, lost 1 → 0. */
export type Flips = { metric: string; gained: FlippedQuestion[]; lost: FlippedQuestion[] };

export type { RunLabel } from './run-label.js';

export type RunComparison = {
  base: RunLabel;
  other: RunLabel;
  metrics: string[];
  /** Metrics whose values are all 0 or 1 in both runs (tested with McNemar). */
  binaryMetrics: string[];
  configDifferences: ConfigDifference[];
  categories: CategoryComparison[];
  flips: Flips[];
  warnings: string[];
};

export type ComparisonResult = {
  resamples: number;
  seed: number;
  comparisons: RunComparison[];
};
