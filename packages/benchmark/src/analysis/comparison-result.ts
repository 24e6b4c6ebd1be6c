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
  // A graded judge's mean score (partial credit): paired bootstrap, its values are not 0/1.
  'qa.score_strict',
  ...Object.values(BENCHMARKS).flatMap((benchmark) => benchmark.comparedMetrics ?? []),
];

/**
 * Compared when no metrics are named and both runs rank turns (their own tables lead with these):
 * the turn figures first, then the QA and benchmark figures of DEFAULT_COMPARE_METRICS.
 */
export const TURN_COMPARE_METRICS: readonly string[] = [
  'turn.recall_any@5',
  'turn.recall_all@10',
  'turn.ndcg_any@10',
  ...DEFAULT_COMPARE_METRICS.filter((metric) => !metric.startsWith('session.')),
];

/** Hidden metrics moved into the table when every default cell is equal (the rest stay named below it). */
export const MAX_ADDED_METRICS = 4;

/** `--metrics all`: every metric both runs have. */
export const ALL_METRICS = 'all';

export type CompareOptions = {
  /** Metrics to compare (default: DEFAULT_COMPARE_METRICS that both runs have; `['all']`: every metric both have). */
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

/** Where a metric the comparison does not show differs: a category, its delta and its changed questions. */
export type HiddenCategoryDifference = {
  category: string;
  /** Difference of the means, other - base (0 when only paired values swapped). */
  delta: number;
  /** Questions of the category both runs have a value for. */
  nPaired: number;
  /** Of those, the questions whose value differs. */
  changed: number;
};

/**
 * A metric both runs have but the comparison does not show (not in its metrics), whose values
 * differ on some question: said below the table so that an all-zero table is never silent.
 */
export type HiddenDifference = {
  metric: string;
  /** Distinct questions whose value differs, over every category. */
  changed: number;
  /** The categories where it differs, in the comparison's category order. */
  categories: HiddenCategoryDifference[];
};

export type RunComparison = {
  base: RunLabel;
  other: RunLabel;
  metrics: string[];
  /** Metrics whose values are all 0 or 1 in both runs (tested with McNemar). */
  binaryMetrics: string[];
  configDifferences: ConfigDifference[];
  categories: CategoryComparison[];
  flips: Flips[];
  /** Metrics not compared whose values differ (`--metrics all` shows and tests them), largest change first. */
  hiddenDifferences: HiddenDifference[];
  warnings: string[];
};

export type ComparisonResult = {
  resamples: number;
  seed: number;
  /**
   * Metrics outside the defaults shown because no default metric differed while these did (no
   * `--metrics` given); empty or absent otherwise.
   */
  addedMetrics?: string[];
  comparisons: RunComparison[];
};
