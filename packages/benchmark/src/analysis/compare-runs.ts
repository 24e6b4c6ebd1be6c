import { orderQuestionTypes } from '../benchmarks/benchmark-registry.js';
import { isQaMetric } from '../run/outputs/aggregate-metrics.js';
import { chooseMetrics } from './choose-metrics.js';
import { metricsToAdd } from './compare-added-metrics.js';
import {
  categorize,
  EMPTY_GROUP,
  type Group,
  isBinary,
  meanAndN,
  members,
  metricNames,
  OVERALL,
  pairUp,
} from './comparison-groups.js';
import type {
  CategoryComparison,
  CompareOptions,
  ComparisonResult,
  Flips,
  MetricTest,
  RunComparison,
} from './comparison-result.js';
import { comparisonWarnings, requireScoredQuestions } from './comparison-warnings.js';
import { configDifferences } from './config-differences.js';
import { givenDifferences, noiseWarning } from './equal-terms.js';
import { hiddenDifferences } from './hidden-differences.js';
import { mcnemar } from './mcnemar.js';
import { DEFAULT_RESAMPLES, DEFAULT_SEED, pairedBootstrap } from './paired-bootstrap.js';
import type { Run } from './read-run.js';
import { runLabel } from './run-label.js';

export * from './comparison-result.js';

function compareCategory(
  category: string,
  baseGroup: Group,
  otherGroup: Group,
  metrics: readonly string[],
  binary: ReadonlySet<string>,
  options: { resamples: number; seed: number },
): CategoryComparison {
  // The header counts are the retrieval questions, as the summary's n, unless only QA metrics are compared.
  const headerMetric = metrics.every(isQaMetric) ? metrics[0]! : 'retrieval';
  const baseHeader = members(baseGroup, headerMetric);
  const otherHeader = members(otherGroup, headerMetric);
  return {
    category,
    nBase: baseHeader.length,
    nOther: otherHeader.length,
    nPaired: pairUp(baseHeader, otherHeader).length,
    metrics: metrics.map((metric) => {
      const baseSamples = members(baseGroup, metric);
      const otherSamples = members(otherGroup, metric);
      const baseValues: number[] = [];
      const otherValues: number[] = [];
      for (const [baseSample, otherSample] of pairUp(baseSamples, otherSamples)) {
        const baseValue = baseSample.metrics[metric];
        const otherValue = otherSample.metrics[metric];
        if (baseValue === undefined || otherValue === undefined) continue;
        baseValues.push(baseValue);
        otherValues.push(otherValue);
      }
      const base = meanAndN(baseSamples, metric);
      const other = meanAndN(otherSamples, metric);
      let test: MetricTest | null = null;
      if (baseValues.length > 0) {
        test = binary.has(metric)
          ? { kind: 'mcnemar', ...mcnemar(baseValues, otherValues) }
          : { kind: 'bootstrap', ...pairedBootstrap(baseValues, otherValues, options) };
      }
      return {
        metric,
        base: base.mean,
        other: other.mean,
        delta: base.mean === undefined || other.mean === undefined ? undefined : other.mean - base.mean,
        nBase: base.n,
        nOther: other.n,
        nPaired: baseValues.length,
        test,
      };
    }),
  };
}

function flips(baseGroup: Group, otherGroup: Group, metric: string): Flips {
  const otherById = new Map(members(otherGroup, metric).map((sample) => [sample.question_id, sample]));
  const result: Flips = { metric, gained: [], lost: [] };
  for (const sample of members(baseGroup, metric)) {
    const baseValue = sample.metrics[metric];
    const otherValue = otherById.get(sample.question_id)?.metrics[metric];
    if (baseValue === undefined || otherValue === undefined || baseValue === otherValue) continue;
    const flipped = { question_id: sample.question_id, question_type: sample.question_type };
    (otherValue > baseValue ? result.gained : result.lost).push(flipped);
  }
  return result;
}

/** Compares one run with the base: per category means, deltas, paired tests, flipped questions. */
export function compareTwoRuns(base: Run, other: Run, options: CompareOptions = {}): RunComparison {
  for (const run of [base, other]) requireScoredQuestions(run);
  const baseIds = new Set(base.samples.map((sample) => sample.question_id));
  if (!other.samples.some((sample) => baseIds.has(sample.question_id))) {
    throw new Error(
      `Runs ${base.config.run_id} (${base.dir}) and ${other.config.run_id} (${other.dir}) share no questions; there is nothing to pair.`,
    );
  }
  const metrics = chooseMetrics(base, other, options.metrics);
  const binaryMetrics = metrics.filter((metric) => isBinary([base, other], metric));
  const binary = new Set(binaryMetrics);
  const testOptions = {
    resamples: options.resamples ?? DEFAULT_RESAMPLES,
    seed: options.seed ?? DEFAULT_SEED,
  };
  const types = orderQuestionTypes([...base.samples, ...other.samples].map((sample) => sample.question_type));
  const baseGroups = categorize(base, types);
  const otherGroups = categorize(other, types);
  const categories: CategoryComparison[] = [];
  for (const [category, baseGroup] of baseGroups) {
    const otherGroup = otherGroups.get(category) ?? EMPTY_GROUP;
    if ([baseGroup, otherGroup].every((group) => group.retrieval.length === 0 && group.qa.length === 0))
      continue;
    categories.push(compareCategory(category, baseGroup, otherGroup, metrics, binary, testOptions));
  }
  const overallBase = baseGroups.get(OVERALL) ?? EMPTY_GROUP;
  const overallOther = otherGroups.get(OVERALL) ?? EMPTY_GROUP;
  return {
    base: runLabel(base),
    other: runLabel(other),
    metrics,
    binaryMetrics,
    configDifferences: configDifferences([base.config, other.config]),
    categories,
    flips: binaryMetrics.map((metric) => flips(overallBase, overallOther, metric)),
    hiddenDifferences: hiddenDifferences(base, other, metrics, baseGroups, otherGroups),
    warnings: [
      ...givenDifferences(base, other),
      ...comparisonWarnings(base, other),
      ...[noiseWarning(categories)].filter((warning) => warning !== undefined),
    ],
  };
}

/** Compares every other run with the first (the base). */
export function compareRuns(runs: readonly Run[], options: CompareOptions = {}): ComparisonResult {
  const [base, ...others] = runs;
  if (base === undefined || others.length === 0) throw new Error('Give at least two run folders to compare.');
  const comparisons = others.map((other) => compareTwoRuns(base, other, options));
  const added = options.metrics === undefined ? metricsToAdd(comparisons, runs.map(metricNames)) : [];
  return {
    resamples: options.resamples ?? DEFAULT_RESAMPLES,
    seed: options.seed ?? DEFAULT_SEED,
    addedMetrics: added,
    // The table shows what moved: the defaults, then the hidden metrics that differ.
    comparisons:
      added.length === 0
        ? comparisons
        : others.map((other, index) =>
            compareTwoRuns(base, other, { ...options, metrics: [...comparisons[index]!.metrics, ...added] }),
          ),
  };
}
