import { BENCHMARKS, orderQuestionTypes } from '../benchmarks/benchmark-registry.js';
import type { LoadedErrata } from '../errata/load-errata.js';
import { addQaTaskAverages, qaAccuracyIntervals, qaScoreIntervals } from '../qa/qa-metrics.js';
import { meanMetrics } from '../results/metric-means.js';
import type { Sample } from '../results/sample.js';
import { inMeans } from '../results/sample.js';
import type { Exclusion, MetricMeans, QaProvenance, Summary } from '../results/summary.js';
import { summarizeErrata } from './summarize-errata.js';

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

/** The q-quantile with linear interpolation between order statistics (numpy's default). */
export function percentile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((left, right) => left - right);
  const position = (sorted.length - 1) * q;
  const below = Math.floor(position);
  const above = Math.min(below + 1, sorted.length - 1);
  return sorted[below]! + (sorted[above]! - sorted[below]!) * (position - below);
}

/** Means overall, per question type and for abstention questions, in the dataset's type order. */
export function aggregateMetrics(options: {
  runId: string;
  dataset: string;
  convention: string;
  exclusion: Exclusion;
  samples: readonly Sample[];
  label?: string;
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
  const ownBlocks = Object.values(BENCHMARKS).map((benchmark) => benchmark.aggregate?.(samples, qa));
  return {
    run_id: options.runId,
    dataset: options.dataset,
    convention: options.convention,
    exclusion,
    ...(options.label === undefined ? {} : { label: options.label }),
    n: samples.length,
    errors: samples.filter((sample) => sample.error !== null).length,
    ...(failed ? { first_error: { question_id: failed.question_id, message: failed.error! } } : {}),
    metrics: { overall, by_type: byType, abstention },
    ...(qa ? { qa } : {}),
    ...Object.assign({}, ...ownBlocks),
    ...(options.errata
      ? { errata: summarizeErrata(options.errata.file, options.errata.applied, options.samples) }
      : {}),
  };
}
