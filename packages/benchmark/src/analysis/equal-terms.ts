import { formatValue } from '../results/markdown-table.js';
import type { CategoryComparison } from './comparison-result.js';
import type { Run } from './read-run.js';

/**
 * Fewer shared questions than this cannot tell two systems apart: exact McNemar's smallest two-sided
 * p on n questions is 2 * 0.5^n, under 0.05 only from n = 6 (every question flipping one way).
 */
export const FEW_QUESTIONS = 6;

const setting = (run: Run, key: 'indexRoles' | 'granularity' | 'topK') =>
  (run.config.config as Record<string, unknown>)[key];

const rolesOf = (run: Run) => (setting(run, 'indexRoles') === 'all' ? 'every role' : 'user turns only');

/**
 * What the two systems were given, when it differs: the turns indexed (lme's presets index user
 * turns, an external system gets every role) and the granularity graded. One sentence each,
 * with the flag that puts them on equal terms.
 */
export function givenDifferences(base: Run, other: Run): string[] {
  const [a, b] = [base.config.run_id, other.config.run_id];
  const differences: string[] = [];
  if (rolesOf(base) !== rolesOf(other))
    differences.push(
      `The systems were given different turns: ${a} indexed ${rolesOf(base)}, ${b} ${rolesOf(other)}; run the one with user turns only again with --index-roles all to compare on equal terms.`,
    );
  if (setting(base, 'granularity') !== setting(other, 'granularity'))
    differences.push(
      `The runs rank at different granularities (${a} ${String(setting(base, 'granularity'))}, ${b} ${String(setting(other, 'granularity'))}): session and turn figures measure different things.`,
    );
  return differences;
}

/**
 * Whether the overall differences could be noise: too few shared questions to tell systems apart,
 * or no overall difference significant at p < 0.05 by the paired test (McNemar or bootstrap).
 */
export function noiseWarning(categories: readonly CategoryComparison[]): string | undefined {
  const overall = categories.find((category) => category.category === 'overall');
  if (overall === undefined) return undefined;
  if (overall.nPaired < FEW_QUESTIONS)
    return `Only ${overall.nPaired} questions are shared and scored: too few for any paired test to reach p < 0.05, so neither equal nor different figures tell the systems apart; compare on more questions (--limit, or the whole dataset).`;
  const differing = overall.metrics.filter((metric) => metric.test !== null && (metric.delta ?? 0) !== 0);
  if (differing.length === 0 || differing.some((metric) => metric.test!.pValue < 0.05)) return undefined;
  const largest = differing.reduce((best, metric) =>
    Math.abs(metric.delta!) > Math.abs(best.delta!) ? metric : best,
  );
  return `Every overall difference is inside the noise (paired test p >= 0.05 on ${overall.nPaired} questions; the largest, ${largest.metric} ${largest.delta! > 0 ? '+' : ''}${formatValue(largest.delta!)}, has p ${formatValue(largest.test!.pValue)}).`;
}
