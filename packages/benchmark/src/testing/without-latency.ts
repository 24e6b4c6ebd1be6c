import type { Summary } from '../results/summary.js';

/**
 * A summary's metrics without the latency percentiles, which differ from run to run by nature:
 * what tests compare when they say two runs give the same summary.
 */
export function withoutLatency(metrics: Summary['metrics']): Summary['metrics'] {
  const strip = <T extends { metrics: Record<string, number>; counts: Record<string, number> }>(
    means: T,
  ): T => ({
    ...means,
    metrics: Object.fromEntries(
      Object.entries(means.metrics).filter(([name]) => !name.startsWith('latency.')),
    ),
    counts: Object.fromEntries(Object.entries(means.counts).filter(([name]) => !name.startsWith('latency.'))),
  });
  return {
    overall: strip(metrics.overall),
    by_type: Object.fromEntries(Object.entries(metrics.by_type).map(([type, means]) => [type, strip(means)])),
    abstention: strip(metrics.abstention),
  };
}
