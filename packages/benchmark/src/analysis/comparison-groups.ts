import { meanMetrics } from '../results/metric-means.js';
import { inMeans, type Sample } from '../results/sample.js';
import type { Exclusion } from '../results/summary.js';
import { inRetrievalMeans, isQaMetric } from '../run/outputs/aggregate-metrics.js';
import { inDatasetOrder, type Run, runExclusion } from './read-run.js';

export const ABSTENTION = 'abstention';
export const OVERALL = 'overall';

/**
 * The questions a category's means are over, as aggregateMetrics() counts them: retrieval metrics over
 * the questions the run's exclusion keeps, QA metrics over every finished question (`_abs` ones
 * too, as the official QA scripts), abstention questions as their own group. Dataset order.
 */
export type Group = { retrieval: Sample[]; qa: Sample[] };

export function members(group: Group, metric: string): Sample[] {
  return isQaMetric(metric) ? group.qa : group.retrieval;
}

export function categorize(run: Run, types: readonly string[]): Map<string, Group> {
  const exclusion: Exclusion = runExclusion(run.config);
  const samples = inDatasetOrder(run.samples);
  const finished = samples.filter(inMeans);
  const counted = samples.filter((sample) => inRetrievalMeans(sample, exclusion));
  const groups = new Map<string, Group>();
  for (const type of types) {
    groups.set(type, {
      retrieval: counted.filter((sample) => sample.question_type === type),
      qa: finished.filter((sample) => sample.question_type === type),
    });
  }
  const abstention = finished.filter((sample) => sample.abstention);
  groups.set(ABSTENTION, { retrieval: abstention, qa: abstention });
  groups.set(OVERALL, { retrieval: counted, qa: finished });
  return groups;
}

export function metricNames(run: Run): Set<string> {
  return new Set(run.samples.flatMap((sample) => Object.keys(sample.metrics)));
}

/** A metric's mean over the samples that have it and how many those are, as aggregateMetrics computes it. */
export function meanAndN(
  samples: readonly Sample[],
  metric: string,
): { mean: number | undefined; n: number } {
  const means = meanMetrics(samples, (name) => name === metric);
  return { mean: means.metrics[metric], n: means.counts[metric] ?? 0 };
}

export function isBinary(runs: readonly Run[], metric: string): boolean {
  return runs.every((run) =>
    run.samples.every((sample) => {
      const value = sample.metrics[metric];
      return value === undefined || value === 0 || value === 1;
    }),
  );
}

/** The metrics both runs have, in the base's order. */
export function sharedMetrics(base: Run, other: Run): string[] {
  const otherNames = metricNames(other);
  return [...metricNames(base)].filter((metric) => otherNames.has(metric));
}

/** The questions both sample lists hold, paired, in the base's order. */
export function pairUp(baseSamples: readonly Sample[], otherSamples: readonly Sample[]) {
  const otherById = new Map(otherSamples.map((sample) => [sample.question_id, sample]));
  return baseSamples.flatMap((sample) => {
    const other = otherById.get(sample.question_id);
    return other === undefined ? [] : [[sample, other] as const];
  });
}

/** A category with no question in it. */
export const EMPTY_GROUP: Group = { retrieval: [], qa: [] };
