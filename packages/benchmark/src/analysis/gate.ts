import { orderQuestionTypes } from '../benchmarks/benchmark-registry.js';
import { QUESTION_TYPES } from '../benchmarks/longmemeval-record.js';
import { suggestNames } from '../config/close-names.js';
import { formatDelta, formatValue } from '../results/markdown-table.js';
import type { MetricMeans, Summary } from '../results/summary.js';
import { type FailedQuestions, failedQuestions } from './failed-questions.js';
import { missingMetricCheck } from './gate-missing.js';
import { gateProblems } from './gate-problems.js';
import { type ComparisonOperator, formatThreshold, holds, type Threshold } from './gate-threshold.js';
import type { Run } from './read-run.js';

export {
  type ComparisonOperator,
  formatThreshold,
  parseBound,
  parseThreshold,
  type Threshold,
} from './gate-threshold.js';

export type GateCheck = {
  kind: 'threshold' | 'drop';
  scope: string;
  metric: string;
  /** NaN when the scope has no finished question to measure (all of them failed). */
  observed: number;
  /** Questions `observed` is the mean of (retrieval and QA metrics count different questions). */
  n: number;
  /** A threshold check's bound. */
  threshold?: { operator: ComparisonOperator; value: number };
  /** A drop check's baseline value and its n, and the drop allowed. */
  baseline?: { value: number; n: number; maxDrop: number };
  passed: boolean;
  /** The run lacks the metric: failed, or skipped (passed) with `allowMissingMetrics`. */
  missing?: boolean;
  /** `>= 0.8500` or `baseline 0.7910, change -0.0100, may drop 0.0200`. */
  condition: string;
};

export type GateResult = {
  checks: GateCheck[];
  /** Failed checks. */
  failed: number;
  /**
   * Reasons the gate fails besides its checks, one sentence each: failed questions beyond
   * `allowErrors`, no check evaluated, a question set that differs from the baseline's.
   */
  problems: string[];
  passed: boolean;
  warnings: string[];
  /** `--allow-missing-metrics` was given: checks of metrics the run lacks are skipped, not failed. */
  allowMissingMetrics: boolean;
};

export type GateOptions = {
  summary: Summary;
  /** Where the summary came from, for messages. */
  summaryPath: string;
  /** The run folder, when one was read: its failed questions and question ids come from it. */
  run?: Run;
  thresholds?: readonly Threshold[];
  baseline?: { summary: Summary; path: string; run?: Run };
  /** Largest allowed absolute drop from the baseline (default 0). */
  maxDrop?: number;
  /** Also check the drop per question type. */
  perType?: boolean;
  /** Metrics the baseline check covers (default: every score metric both summaries have). */
  metrics?: readonly string[];
  /** Failed questions the run may have and still pass (default 0). */
  allowErrors?: number;
  /** Pass although the run's questions differ from the baseline's (default: fail). */
  allowSubset?: boolean;
  /** Pass a run that stopped before its last question (default: fail). */
  allowPartial?: boolean;
  /** Skip (and report) the checks of metrics the run lacks, instead of failing them (default: fail). */
  allowMissingMetrics?: boolean;
};

/** Summary rows that are not question types. */
const GROUP_SCOPES = ['overall', 'abstention'];

/**
 * Slack on the baseline comparison: means are floating-point sums, so 0.87 - 0.85 exceeds 0.02 by
 * 2e-17. A drop counts as larger than the allowed one only beyond this.
 */
export const DROP_TOLERANCE = 1e-9;

/** Metrics where lower is better (time, tokens, money); a baseline "drop" does not apply to them. */
const LOWER_IS_BETTER = /^(latency|usage|cost|tokens)[._]/;

function row(summary: Summary, scope: string): MetricMeans | undefined {
  if (scope === 'overall') return summary.metrics.overall;
  if (scope === 'abstention') return summary.metrics.abstention;
  return summary.metrics.by_type[scope];
}

/** The questions a summary row's mean of `metric` is over (a summary without counts: the row's n). */
function metricN(means: MetricMeans | undefined, metric: string): number {
  return means?.counts[metric] ?? means?.n ?? 0;
}

function allMetricNames(summary: Summary): Set<string> {
  return new Set(
    [summary.metrics.overall, summary.metrics.abstention, ...Object.values(summary.metrics.by_type)].flatMap(
      (means) => Object.keys(means?.metrics ?? {}),
    ),
  );
}

function checkThreshold(
  summary: Summary,
  summaryPath: string,
  threshold: Threshold,
  failed: FailedQuestions,
  allowMissingMetrics: boolean,
): GateCheck {
  const means = row(summary, threshold.scope);
  if (means === undefined && !(QUESTION_TYPES as readonly string[]).includes(threshold.scope)) {
    const scopes = [...GROUP_SCOPES, ...QUESTION_TYPES, ...Object.keys(summary.metrics.by_type)];
    throw new Error(
      `Threshold "${formatThreshold(threshold)}" names an unknown question type "${threshold.scope}"; ${suggestNames(threshold.scope, scopes)}.`,
    );
  }
  if ((means === undefined || means.n === 0) && (failed.count ?? 0) > 0) {
    // Its questions failed: nothing to measure is a failed check, not a mistake in the threshold.
    return {
      kind: 'threshold',
      scope: threshold.scope,
      metric: threshold.metric,
      observed: Number.NaN,
      n: 0,
      threshold: { operator: threshold.operator, value: threshold.value },
      passed: false,
      condition: `${threshold.operator} ${formatValue(threshold.value)} (no finished ${threshold.scope} question)`,
    };
  }
  if (means === undefined || means.n === 0) {
    throw new Error(
      `Threshold "${formatThreshold(threshold)}" needs ${threshold.scope} questions, and ${summaryPath} has none.`,
    );
  }
  const observed = means.metrics[threshold.metric];
  const bound = { operator: threshold.operator, value: threshold.value };
  if (observed === undefined) {
    const missing = missingMetricCheck({
      metric: threshold.metric,
      known: allMetricNames(summary),
      allowed: allowMissingMetrics,
      threshold: bound,
    });
    return {
      kind: 'threshold',
      scope: threshold.scope,
      metric: threshold.metric,
      threshold: bound,
      ...missing,
    };
  }
  return {
    kind: 'threshold',
    scope: threshold.scope,
    metric: threshold.metric,
    observed,
    n: metricN(means, threshold.metric),
    threshold: { operator: threshold.operator, value: threshold.value },
    passed: holds(observed, threshold.operator, threshold.value),
    condition: `${threshold.operator} ${formatValue(threshold.value)}`,
  };
}

function dropMetrics(options: GateOptions, baseline: Summary): string[] {
  const before = baseline.metrics.overall.metrics;
  // Every metric the baseline has is checked: one the run lacks is a missing check, never dropped.
  if (options.metrics === undefined)
    return Object.keys(before).filter((metric) => !LOWER_IS_BETTER.test(metric));
  for (const metric of options.metrics) {
    if (LOWER_IS_BETTER.test(metric)) {
      throw new Error(
        `Metric "${metric}" is lower-is-better, so a baseline drop does not apply; bound it with --max.`,
      );
    }
    if (!(metric in before)) {
      throw new Error(
        `Unknown metric "${metric}" in --metrics (not in ${options.baseline?.path ?? 'the baseline'}); ${suggestNames(metric, allMetricNames(baseline))}.`,
      );
    }
  }
  return [...options.metrics];
}

function checkDrop(
  scope: string,
  metric: string,
  now: MetricMeans,
  then: MetricMeans,
  maxDrop: number,
): GateCheck {
  const observed = now.metrics[metric]!;
  const before = then.metrics[metric]!;
  return {
    kind: 'drop',
    scope,
    metric,
    observed,
    n: metricN(now, metric),
    baseline: { value: before, n: metricN(then, metric), maxDrop },
    passed: before - observed <= maxDrop + DROP_TOLERANCE,
    condition: `baseline ${formatValue(before)}, change ${formatDelta(observed - before)}, may drop ${formatValue(maxDrop)}`,
  };
}

function baselineWarnings(summary: Summary, baseline: Summary, path: string): string[] {
  const warnings: string[] = [];
  for (const key of ['dataset', 'convention', 'exclusion'] as const) {
    if (summary[key] !== baseline[key]) {
      warnings.push(
        `The baseline ${path} has ${key} ${String(baseline[key])}, the run ${String(summary[key])}.`,
      );
    }
  }
  return warnings;
}

/**
 * Checks a run summary against thresholds and, optionally, a baseline summary: every metric both
 * have (or the given ones) may drop by at most `maxDrop` (absolute), overall and, with `perType`,
 * per question type. Throws on bad input (unknown metric or question type); failed checks are
 * results, not errors.
 */
export function evaluateGate(options: GateOptions): GateResult {
  const { summary, summaryPath } = options;
  const thresholds = options.thresholds ?? [];
  if (thresholds.length === 0 && options.baseline === undefined) {
    throw new Error('The gate has nothing to check: give --min, --max, --baseline or a --config file.');
  }
  const failed = failedQuestions({ summary, ...(options.run === undefined ? {} : { run: options.run }) });
  const allowMissing = options.allowMissingMetrics ?? false;
  const checks = thresholds.map((threshold) =>
    checkThreshold(summary, summaryPath, threshold, failed, allowMissing),
  );
  const warnings: string[] = [];
  const problems: string[] = [];
  if (options.baseline !== undefined) {
    const baseline = options.baseline.summary;
    const maxDrop = options.maxDrop ?? 0;
    warnings.push(...baselineWarnings(summary, baseline, options.baseline.path));
    const metrics = dropMetrics(options, baseline);
    const scopes: string[] = ['overall'];
    if (options.perType) {
      const types = orderQuestionTypes(Object.keys(summary.metrics.by_type));
      scopes.push(...types.filter((type) => type in baseline.metrics.by_type));
    }
    for (const scope of scopes) {
      const now = row(summary, scope);
      const then = row(baseline, scope);
      // A row with no finished question measures nothing: the failed questions fail the gate.
      if (now === undefined || then === undefined || now.n === 0) continue;
      for (const metric of metrics) {
        const before = then.metrics[metric];
        if (before === undefined) continue;
        if (now.metrics[metric] !== undefined) {
          checks.push(checkDrop(scope, metric, now, then, maxDrop));
          continue;
        }
        const missing = missingMetricCheck({
          metric,
          known: allMetricNames(summary),
          allowed: allowMissing,
          baseline: before,
        });
        checks.push({
          kind: 'drop',
          scope,
          metric,
          baseline: { value: before, n: metricN(then, metric), maxDrop },
          ...missing,
        });
      }
    }
  }
  const skipped = checks.filter((check) => check.missing && check.passed);
  if (skipped.length > 0)
    warnings.push(
      `${skipped.length} ${skipped.length === 1 ? 'check' : 'checks'} skipped as the run lacks the metric (--allow-missing-metrics): ${skipped.map((check) => `${check.metric} (${check.scope})`).join(', ')}.`,
    );
  const verdict = gateProblems({ ...options, failed, checkCount: checks.length - skipped.length });
  problems.push(...verdict.problems);
  warnings.push(...verdict.warnings);
  const failedChecks = checks.filter((check) => !check.passed).length;
  return {
    checks,
    failed: failedChecks,
    problems,
    passed: failedChecks === 0 && problems.length === 0,
    warnings,
    allowMissingMetrics: allowMissing,
  };
}
