import { formatValue } from '../results/markdown-table.js';
import type { GateResult } from './gate.js';

/** One line per check (`PASS  overall  session.recall_all@5  0.8934  >= 0.8500`) and a verdict. */
export function renderGateResult(result: GateResult): string {
  const rows = result.checks.map((check) => [
    check.passed ? 'PASS' : 'FAIL',
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
  if (result.passed) {
    lines.push(`gate passed: ${checks}`);
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
