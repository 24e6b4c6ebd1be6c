import { BENCHMARKS } from '../../benchmarks/benchmark-registry.js';
import { headlineMetrics } from '../../run/outputs/render-table.js';

/** Retrieval figures the index shows per run, at most. */
const RETRIEVAL_SHOWN = 3;

/** QA figures shown when the run has them: the official accuracy, a graded judge's score, each benchmark's own. */
const QA_HEADLINE: readonly string[] = [
  'qa.accuracy_strict',
  'qa.score_strict',
  ...Object.values(BENCHMARKS).flatMap((benchmark) => benchmark.comparedMetrics ?? []),
];

/**
 * A run's headline figures, as its own table leads with them: the convention's retrieval columns
 * (the turn ones first when the run ranks turns), the first three it has, then its QA figures.
 */
export function headlineMetricNames(
  convention: string,
  granularity: string,
  present: ReadonlySet<string>,
): string[] {
  const retrieval = headlineMetrics(convention).filter((metric) => !metric.startsWith('qa.'));
  const ordered =
    granularity === 'turn'
      ? [...retrieval.filter((metric) => metric.startsWith('turn.')), ...retrieval]
      : retrieval;
  const shown = [...new Set(ordered)].filter((metric) => present.has(metric)).slice(0, RETRIEVAL_SHOWN);
  return [...shown, ...QA_HEADLINE.filter((metric) => present.has(metric))];
}

/** Search and ingest latency percentiles (ms), null when the run did not record them. */
export type RunLatency = {
  search_p50: number | null;
  search_p95: number | null;
  ingest_p50: number | null;
  ingest_p95: number | null;
};

/** The latency figures of a summary's overall means (`latency.retrieve_ms.p50`, `latency.ingest_ms.p95`, …). */
export function latencyOf(metrics: Readonly<Record<string, number>>): RunLatency {
  const figure = (names: readonly string[]) => {
    for (const name of names) if (typeof metrics[name] === 'number') return metrics[name]!;
    return null;
  };
  return {
    search_p50: figure(['latency.retrieve_ms.p50', 'latency.search_ms.p50']),
    search_p95: figure(['latency.retrieve_ms.p95', 'latency.search_ms.p95']),
    ingest_p50: figure(['latency.ingest_ms.p50']),
    ingest_p95: figure(['latency.ingest_ms.p95']),
  };
}
