import { BENCHMARKS, orderQuestionTypes } from '../../benchmarks/benchmark-registry.js';
import type { LoadedErrata } from '../../errata/load-errata.js';
import { addQaTaskAverages, qaAccuracyIntervals, qaScoreIntervals } from '../../qa/qa-metrics.js';
import { meanMetrics } from '../../results/metric-means.js';
import type { ProviderIdentity } from '../../results/provider-identity.js';
import type { Sample } from '../../results/sample.js';
import { inMeans } from '../../results/sample.js';
import type { Exclusion, MetricMeans, QaProvenance, Summary } from '../../results/summary.js';
import { percentile } from './percentile.js';
import { summarizeErrata } from './summarize-errata.js';
import { chargedIngests, summarizeIngest } from './summarize-ingest.js';

export { percentile } from './percentile.js';

/**
 * Whether a question counts in the means. Convention A (the official print_retrieval_metrics)
 * skips `_abs` questions; B (the average run_retrieval prints) also skips questions with no
 * user-side gold. The evidence convention skips `_abs` questions. Failed questions never count.
 */
export function inRetrievalMeans(sample: Sample, exclusion: Exclusion): boolean {
  if (!inMeans(sample) || sample.abstention) return false;
  return exclusion === 'A' || !sample.no_target;
}

/** QA metrics count `_abs` questions in their type and overall, as the official print_qa_metrics. */
export function isQaMetric(name: string): boolean {
  return name.startsWith('qa.');
}

/** Retrieval means over the questions `retrieval` keeps, QA means over every finished question. */
function groupMeans(group: readonly Sample[], retrieval: (sample: Sample) => boolean): MetricMeans {
  const retrievalMeans = meanMetrics(group.filter(retrieval), (name) => !isQaMetric(name));
  const qaMeans = meanMetrics(group.filter(inMeans), isQaMetric);
  const latencies = group
    .filter((sample) => sample.error === null && sample.hits.length > 0)
    .map((sample) => sample.latency_ms.retrieve);
  if (latencies.length > 0) {
    for (const [name, q] of [
      ['latency.retrieve_ms.p50', 0.5],
      ['latency.retrieve_ms.p95', 0.95],
    ] as const) {
      retrievalMeans.metrics[name] = percentile(latencies, q);
      retrievalMeans.counts[name] = latencies.length;
    }
  }
  // An external system's ingests, those charged to a question (a shared haystack counts once).
  const ingests = chargedIngests(group).map((sample) => sample.latency_ms.ingest!);
  if (ingests.length > 0) {
    for (const [name, q] of [
      ['latency.ingest_ms.p50', 0.5],
      ['latency.ingest_ms.p95', 0.95],
    ] as const) {
      retrievalMeans.metrics[name] = percentile(ingests, q);
      retrievalMeans.counts[name] = ingests.length;
    }
  }
  const hasRetrieval = Object.keys(retrievalMeans.metrics).length > 0;
  // Wilson intervals for a yes/no judge's accuracies, bootstrap ones for a graded judge's scores.
  const intervals = { ...qaAccuracyIntervals(qaMeans), ...qaScoreIntervals(group.filter(inMeans)) };
  return {
    n: hasRetrieval || Object.keys(qaMeans.metrics).length === 0 ? retrievalMeans.n : qaMeans.n,
    metrics: { ...retrievalMeans.metrics, ...qaMeans.metrics },
    counts: { ...retrievalMeans.counts, ...qaMeans.counts },
    errors: group.filter((sample) => sample.error !== null).length,
    no_target: group.filter((sample) => retrieval(sample) && sample.no_target).length,
    ...(Object.keys(intervals).length > 0 ? { ci95: intervals } : {}),
  };
}

/** Means overall, per question type and for abstention questions, in the dataset's type order. */
export function aggregateMetrics(options: {
  runId: string;
  dataset: string;
  convention: string;
  exclusion: Exclusion;
  samples: readonly Sample[];
  label?: string;
  /** The external memory system measured (config.json `provider`). */
  provider?: ProviderIdentity;
  /** The judge and reader of the run (from its config); recorded when QA ran. */
  qa?: QaProvenance;
  /** The dataset's errata, and whether the run applied them (its samples then carry the marks). */
  errata?: { file: LoadedErrata; applied: boolean };
}): Summary {
  const { exclusion } = options;
  // Questions set aside by applied errata are in no table row; summary.errata counts them.
  const samples = options.samples.filter((sample) => sample.errata?.excluded !== true);
  const counted = (sample: Sample) => inRetrievalMeans(sample, exclusion);
  const byType: Record<string, MetricMeans> = {};
  for (const type of orderQuestionTypes(samples.map((sample) => sample.question_type))) {
    byType[type] = groupMeans(
      samples.filter((sample) => sample.question_type === type),
      counted,
    );
  }
  const overall = groupMeans(samples, counted);
  // The official "task-averaged accuracy" (judge errors wrong) and lme's lenient one.
  addQaTaskAverages(overall, byType);
  const abstention = groupMeans(
    samples.filter((sample) => sample.abstention),
    inMeans,
  );
  const failed = samples.find((sample) => sample.error !== null);
  const qaRan = samples.some(
    (sample) => sample.hypothesis !== null || Object.keys(sample.metrics).some(isQaMetric),
  );
  const qa = qaRan && options.qa ? options.qa : undefined;
  const ingest = summarizeIngest(samples);
  const ownBlocks = Object.values(BENCHMARKS).map((benchmark) => benchmark.aggregate?.(samples, qa));
  return {
    run_id: options.runId,
    dataset: options.dataset,
    convention: options.convention,
    exclusion,
    ...(options.label === undefined ? {} : { label: options.label }),
    ...(options.provider === undefined ? {} : { provider: options.provider }),
    n: samples.length,
    errors: samples.filter((sample) => sample.error !== null).length,
    ...(failed ? { first_error: { question_id: failed.question_id, message: failed.error! } } : {}),
    metrics: { overall, by_type: byType, abstention },
    ...(qa ? { qa } : {}),
    ...(ingest ? { ingest } : {}),
    ...Object.assign({}, ...ownBlocks),
    ...(options.errata
      ? { errata: summarizeErrata(options.errata.file, options.errata.applied, options.samples) }
      : {}),
  };
}
