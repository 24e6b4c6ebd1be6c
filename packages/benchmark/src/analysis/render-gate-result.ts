import { formatValue } from '../results/markdown-table.js';
import type { GateResult } from './gate.js';

/**
 * One line per check (`PASS  overall  session.recall_all@5  0.8934  >= 0.8500`) and a verdict;
 * `onlyFailures`: the failed checks' lines only (the verdict still counts every check).
 */
export function renderGateResult(result: GateResult, options: { onlyFailures?: boolean } = {}): string {
  const shown = options.onlyFailures ? result.checks.filter((check) => !check.passed) : result.checks;
  const rows = shown.map((check) => [
    check.missing && check.passed ? 'SKIP' : check.passed ? 'PASS' : 'FAIL',
    check.scope,
    check.metric,
    formatValue(check.observed),
    check.condition,
  ]);
  const widths = [0, 1, 2, 3].map((column) => Math.max(0, ...rows.map((cells) => cells[column]!.length)));
  const lines = rows.map((cells) =>
    cells
      .map((cell, column) =>
        column === 3 ? cell.padStart(widths[column]!) : column < 3 ? cell.padEnd(widths[column]!) : cell,
      )
      .join('  ')
      .trimEnd(),
  );
  const total = result.checks.length;
  const checks = `${total} check${total === 1 ? '' : 's'}`;
  if (lines.length > 0) lines.push('');
  const hidden = result.checks.length - shown.length;
  if (options.onlyFailures && hidden > 0) {
    lines.push(`(${hidden} passing check${hidden === 1 ? '' : 's'} not shown: --only-failures)`, '');
  }
  const skipped = result.checks.filter((check) => check.missing && check.passed).length;
  if (result.passed) {
    lines.push(
      `gate passed: ${checks}${skipped > 0 ? `, ${skipped} skipped as the run lacks their metric (--allow-missing-metrics)` : ''}`,
    );
  } else if (result.problems.length === 0) {
    lines.push(`gate failed: ${result.failed} of ${checks}`);
  } else {
    const failedChecks = result.failed === 0 ? [] : [`${result.failed} of ${checks} failed.`];
    const reasons = [...result.problems, ...failedChecks];
    lines.push(
      `gate failed (${reasons.length} ${reasons.length === 1 ? 'reason' : 'reasons'}):`,
      ...reasons.map((reason) => `- ${reason}`),
    );
  }
  return `${lines.join('\n')}\n`;
}

/** One check of `lme gate --format json`; a missing number is null (NaN has no JSON form). */
export type GateCheckJson = {
  kind: 'threshold' | 'drop';
  /** `overall`, `abstention` or a question type. */
  group: string;
  metric: string;
  value: number | null;
  /** Questions `value` is the mean of. */
  n: number;
  operator: string | null;
  threshold: number | null;
  baseline: number | null;
  baseline_n: number | null;
  max_drop: number | null;
  passed: boolean;
  /** The run lacks the metric: the check failed, or was skipped under --allow-missing-metrics. */
  missing: boolean;
  /** The check as the text output words it. */
  condition: string;
};

export type GateJson = {
  passed: boolean;
  exit_code: number;
  run: string;
  baseline: string | null;
  checks: GateCheckJson[];
  failed_checks: number;
  /** Reasons the gate fails besides its checks (failed questions, a partial run, ...), one sentence each. */
  problems: string[];
  warnings: string[];
  /** --allow-missing-metrics was given: checks of metrics the run lacks were skipped (passed, missing). */
  allow_missing_metrics: boolean;
};

/**
 * `lme gate --format json`: the verdict, the exit code it sets and every check (the failed ones
 * only with `onlyFailures`) with its group, value, n and bound or baseline, for CI annotations.
 */
export function gateResultJson(
  result: GateResult,
  where: { run: string; baseline?: string; exitCode: number; onlyFailures?: boolean },
): GateJson {
  const shown = where.onlyFailures ? result.checks.filter((check) => !check.passed) : result.checks;
  return {
    passed: result.passed,
    exit_code: where.exitCode,
    run: where.run,
    baseline: where.baseline ?? null,
    checks: shown.map((check) => ({
      kind: check.kind,
      group: check.scope,
      metric: check.metric,
      value: Number.isNaN(check.observed) ? null : check.observed,
      n: check.n,
      operator: check.threshold?.operator ?? null,
      threshold: check.threshold?.value ?? null,
      baseline: check.baseline?.value ?? null,
      baseline_n: check.baseline?.n ?? null,
      max_drop: check.baseline?.maxDrop ?? null,
      passed: check.passed,
      missing: check.missing ?? false,
      condition: check.condition,
    })),
    failed_checks: result.failed,
    problems: result.problems,
    warnings: result.warnings,
    allow_missing_metrics: result.allowMissingMetrics,
  };
}
