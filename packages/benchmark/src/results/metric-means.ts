import type { Sample } from './sample.js';
import type { MetricMeans } from './summary.js';

/**
 * The mean of every metric the samples hold (those `includeMetric` keeps), each over the samples
 * that have it, summed in sample order; `counts` says how many that is per metric, `n` how many
 * samples were given. The one mean loop of summaries, comparisons and benchmark blocks.
 */
export function meanMetrics(
  samples: readonly Sample[],
  includeMetric: (name: string) => boolean = () => true,
): MetricMeans {
  const sums = new Map<string, { total: number; n: number }>();
  for (const sample of samples) {
    for (const [name, value] of Object.entries(sample.metrics)) {
      if (!includeMetric(name)) continue;
      const entry = sums.get(name) ?? { total: 0, n: 0 };
      entry.total += value;
      entry.n++;
      sums.set(name, entry);
    }
  }
  const metrics: Record<string, number> = {};
  const counts: Record<string, number> = {};
  for (const [name, { total, n }] of sums) {
    metrics[name] = total / n;
    counts[name] = n;
  }
  return { n: samples.length, metrics, counts };
}
