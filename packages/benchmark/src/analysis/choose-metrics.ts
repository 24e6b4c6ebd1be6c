import { suggestNames } from '../config/close-names.js';
import { metricNames, sharedMetrics } from './comparison-groups.js';
import { ALL_METRICS, DEFAULT_COMPARE_METRICS, TURN_COMPARE_METRICS } from './comparison-result.js';
import type { Run } from './read-run.js';

/**
 * The metrics a comparison shows: `all` (every metric both runs have), the defaults both runs have
 * (the turn defaults when both runs rank turns), or the ones named, each checked to be in both runs.
 */
export function chooseMetrics(base: Run, other: Run, wanted: readonly string[] | undefined): string[] {
  const baseNames = metricNames(base);
  const otherNames = metricNames(other);
  if (wanted?.length === 1 && wanted[0] === ALL_METRICS) return sharedMetrics(base, other);
  if (wanted === undefined) {
    const defaults = [base, other].every((run) => run.config.config.granularity === 'turn')
      ? TURN_COMPARE_METRICS
      : DEFAULT_COMPARE_METRICS;
    const metrics: string[] = defaults.filter((metric) => baseNames.has(metric) && otherNames.has(metric));
    if (metrics.length === 0) {
      throw new Error(
        `Runs ${base.config.run_id} and ${other.config.run_id} share none of the default metrics (${defaults.join(', ')}); name some with --metrics.`,
      );
    }
    return metrics;
  }
  for (const metric of wanted) {
    for (const [run, names] of [
      [base, baseNames],
      [other, otherNames],
    ] as const) {
      if (!names.has(metric)) {
        throw new Error(
          `Run ${run.config.run_id} (${run.dir}) has no metric "${metric}"; ${suggestNames(metric, names)}.`,
        );
      }
    }
  }
  return [...wanted];
}
