import { MAX_ADDED_METRICS, type RunComparison } from './comparison-result.js';

/** Whether no shown cell of the comparison moved: every delta 0 and no question flipped. */
export function shownCellsEqual(comparison: RunComparison): boolean {
  return (
    comparison.categories.every((category) =>
      category.metrics.every((metric) => (metric.delta ?? 0) === 0),
    ) && comparison.flips.every(({ gained, lost }) => gained.length === 0 && lost.length === 0)
  );
}

/**
 * The metrics to add to a default comparison whose every shown cell is equal while metrics it does
 * not show differ: those differences, largest change first, that every run has, at most
 * MAX_ADDED_METRICS. Empty when some shown cell moved or nothing hidden differs.
 */
export function metricsToAdd(
  comparisons: readonly RunComparison[],
  metricsOfRuns: readonly ReadonlySet<string>[],
): string[] {
  if (!comparisons.every(shownCellsEqual)) return [];
  const hidden = comparisons.flatMap((comparison) => comparison.hiddenDifferences);
  const everyRunHas = (metric: string) => metricsOfRuns.every((names) => names.has(metric));
  return [...new Set(hidden.map(({ metric }) => metric))].filter(everyRunHas).slice(0, MAX_ADDED_METRICS);
}
