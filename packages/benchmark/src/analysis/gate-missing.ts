import { closeNames } from '../config/close-names.js';
import { formatValue } from '../results/markdown-table.js';
import type { ComparisonOperator } from './gate-threshold.js';

/** What a gate check of a metric the run lacks says, and whether it passes. */
export type MissingMetricCheck = {
  observed: number;
  n: number;
  passed: boolean;
  missing: true;
  condition: string;
};

/**
 * A metric the gate names (a threshold, the baseline, `metrics`) that the run's summary row lacks:
 * a failed check naming it, or with `--allow-missing-metrics` a skipped one that says so. The gate
 * never drops a check silently (a run without context packing would pass a context check).
 */
export function missingMetricCheck(options: {
  metric: string;
  /** The metrics the run has, for "close names". */
  known: Iterable<string>;
  allowed: boolean;
  threshold?: { operator: ComparisonOperator; value: number };
  baseline?: number;
}): MissingMetricCheck {
  const { metric, threshold, baseline, allowed } = options;
  const bound =
    threshold !== undefined
      ? `${threshold.operator} ${formatValue(threshold.value)}`
      : `baseline ${formatValue(baseline ?? Number.NaN)}`;
  const close = closeNames(metric, options.known);
  const absent = `not in the run${close.length > 0 ? ` (close names: ${close.join(', ')})` : ''}`;
  const verdict = allowed
    ? `${absent}, skipped (--allow-missing-metrics)`
    : `${absent}; pass --allow-missing-metrics to skip it`;
  return { observed: Number.NaN, n: 0, passed: allowed, missing: true, condition: `${bound}, ${verdict}` };
}
