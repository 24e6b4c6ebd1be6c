import { orderQuestionTypes } from '../benchmarks/benchmark-registry.js';
import { suggestNames } from '../config/close-names.js';
import { meanMetrics } from '../results/metric-means.js';
import type { Sample } from '../results/sample.js';
import { inMeans } from '../results/sample.js';
import type { Exclusion } from '../results/summary.js';
import { inRetrievalMeans, isQaMetric } from '../run/outputs/aggregate-metrics.js';
import { metricsToAdd } from './compare-added-metrics.js';
import {
  ALL_METRICS,
  type CategoryComparison,
  type CompareOptions,
  type ComparisonResult,
  DEFAULT_COMPARE_METRICS,
  type Flips,
  type HiddenCategoryDifference,
  type HiddenDifference,
  type MetricTest,
  type RunComparison,
  TURN_COMPARE_METRICS,
} from './comparison-result.js';
import { configDifferences, sharedDatasetHash } from './config-differences.js';
import { mcnemar } from './mcnemar.js';
import { DEFAULT_RESAMPLES, DEFAULT_SEED, pairedBootstrap } from './paired-bootstrap.js';
import { inDatasetOrder, type Run, runExclusion } from './read-run.js';
import { runLabel } from './run-label.js';

export * from './comparison-result.js';

const ABSTENTION = 'abstention';
const OVERALL = 'overall';

/**
 * The questions a category's means are over, as aggregateMetrics() counts them: retrieval metrics over
 * the questions the run's exclusion keeps, QA metrics over every finished question (`_abs` ones
 * too, as the official QA scripts), abstention questions as their own group. Dataset order.
 */
type Group = { retrieval: Sample[]; qa: Sample[] };

function members(group: Group, metric: string): Sample[] {
  return isQaMetric(metric) ? group.qa : group.retrieval;
}

function categorize(run: Run, types: readonly string[]): Map<string, Group> {
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

function metricNames(run: Run): Set<string> {
  return new Set(run.samples.flatMap((sample) => Object.keys(sample.metrics)));
}

/** A metric's mean over the samples that have it and how many those are, as aggregateMetrics computes it. */
function meanAndN(samples: readonly Sample[], metric: string): { mean: number | undefined; n: number } {
  const means = meanMetrics(samples, (name) => name === metric);
  return { mean: means.metrics[metric], n: means.counts[metric] ?? 0 };
}

function isBinary(runs: readonly Run[], metric: string): boolean {
  return runs.every((run) =>
    run.samples.every((sample) => {
      const value = sample.metrics[metric];
      return value === undefined || value === 0 || value === 1;
    }),
  );
}

/** The metrics both runs have, in the base's order. */
function sharedMetrics(base: Run, other: Run): string[] {
  const otherNames = metricNames(other);
  return [...metricNames(base)].filter((metric) => otherNames.has(metric));
}

function chooseMetrics(base: Run, other: Run, wanted: readonly string[] | undefined): string[] {
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

/** A run with no finished question has no figure to compare: say why, naming its first error. */
function requireScoredQuestions(run: Run): void {
  if (run.samples.some(inMeans)) return;
  const where = `${run.config.run_id} (${run.dir})`;
  if (run.samples.length === 0) throw new Error(`Run ${where} has no questions in its samples.jsonl.`);
  const failed = run.samples.filter((sample) => sample.error !== null);
  const first = failed[0];
  const cause =
    failed.length === run.samples.length && first !== undefined
      ? `all ${failed.length} failed (first: ${first.question_id}: ${first.error}); see the "error" field of its samples.jsonl`
      : `none of its ${run.samples.length} questions is in the means (errata excluded them)`;
  throw new Error(`Run ${where} has no scored questions: ${cause}.`);
}

function comparisonWarnings(base: Run, other: Run): string[] {
  const warnings: string[] = [];
  const hash = sharedDatasetHash([base.config, other.config]);
  const baseDataset = base.config.config.dataset;
  const otherDataset = other.config.config.dataset;
  if (hash === 'differ') {
    warnings.push(
      `The runs read different dataset files (${String(baseDataset)} vs ${String(otherDataset)}, SHA-256 differs).`,
    );
  } else if (hash === null && baseDataset !== otherDataset) {
    warnings.push(`The runs name different datasets (${String(baseDataset)} vs ${String(otherDataset)}).`);
  }
  const baseConvention = base.config.config.convention;
  const otherConvention = other.config.config.convention;
  if (baseConvention !== otherConvention) {
    warnings.push(
      `The runs grade with different conventions (${String(baseConvention)} vs ${String(otherConvention)}); their metrics are not comparable.`,
    );
  } else if (runExclusion(base.config) !== runExclusion(other.config)) {
    warnings.push(
      `The runs' means skip different questions (exclusion ${runExclusion(base.config)} vs ${runExclusion(other.config)}).`,
    );
  }
  const otherIds = new Set(other.samples.map((sample) => sample.question_id));
  const baseIds = new Set(base.samples.map((sample) => sample.question_id));
  const onlyBase = base.samples.filter((sample) => !otherIds.has(sample.question_id)).length;
  const onlyOther = other.samples.filter((sample) => !baseIds.has(sample.question_id)).length;
  if (onlyBase > 0 || onlyOther > 0) {
    warnings.push(
      `${onlyBase} questions are only in ${base.config.run_id} and ${onlyOther} only in ${other.config.run_id}; the tests use the questions both hold.`,
    );
  }
  for (const run of [base, other]) {
    const failed = run.samples.filter((sample) => sample.error !== null).length;
    if (failed > 0) warnings.push(`${failed} questions failed in ${run.config.run_id} and are left out.`);
  }
  return warnings;
}

function pairUp(baseSamples: readonly Sample[], otherSamples: readonly Sample[]) {
  const otherById = new Map(otherSamples.map((sample) => [sample.question_id, sample]));
  return baseSamples.flatMap((sample) => {
    const other = otherById.get(sample.question_id);
    return other === undefined ? [] : [[sample, other] as const];
  });
}

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

/**
 * The metrics both runs have that `metrics` leaves out, where some question's value differs or a
 * category's mean moves: what an all-zero table would otherwise hide. Largest change first.
 */
function hiddenDifferences(
  base: Run,
  other: Run,
  metrics: readonly string[],
  baseGroups: Map<string, Group>,
  otherGroups: Map<string, Group>,
): HiddenDifference[] {
  const shown = new Set(metrics);
  const empty: Group = { retrieval: [], qa: [] };
  const found: HiddenDifference[] = [];
  for (const metric of sharedMetrics(base, other)) {
    if (shown.has(metric)) continue;
    const changedIds = new Set<string>();
    const categories: HiddenCategoryDifference[] = [];
    for (const [category, baseGroup] of baseGroups) {
      const baseSamples = members(baseGroup, metric);
      const otherSamples = members(otherGroups.get(category) ?? empty, metric);
      let nPaired = 0;
      let changed = 0;
      for (const [baseSample, otherSample] of pairUp(baseSamples, otherSamples)) {
        const baseValue = baseSample.metrics[metric];
        const otherValue = otherSample.metrics[metric];
        if (baseValue === undefined || otherValue === undefined) continue;
        nPaired += 1;
        if (baseValue !== otherValue) {
          changed += 1;
          changedIds.add(baseSample.question_id);
        }
      }
      const baseMean = meanAndN(baseSamples, metric).mean;
      const otherMean = meanAndN(otherSamples, metric).mean;
      const delta = baseMean === undefined || otherMean === undefined ? 0 : otherMean - baseMean;
      if (changed > 0 || Math.abs(delta) > 1e-12) categories.push({ category, delta, nPaired, changed });
    }
    if (categories.length > 0) found.push({ metric, changed: changedIds.size, categories });
  }
  const largest = (difference: HiddenDifference) =>
    Math.max(...difference.categories.map(({ delta }) => Math.abs(delta)));
  return found.sort((left, right) => largest(right) - largest(left) || right.changed - left.changed);
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
  const empty: Group = { retrieval: [], qa: [] };
  const categories: CategoryComparison[] = [];
  for (const [category, baseGroup] of baseGroups) {
    const otherGroup = otherGroups.get(category) ?? empty;
    if ([baseGroup, otherGroup].every((group) => group.retrieval.length === 0 && group.qa.length === 0))
      continue;
    categories.push(compareCategory(category, baseGroup, otherGroup, metrics, binary, testOptions));
  }
  const overallBase = baseGroups.get(OVERALL) ?? empty;
  const overallOther = otherGroups.get(OVERALL) ?? empty;
  return {
    base: runLabel(base),
    other: runLabel(other),
    metrics,
    binaryMetrics,
    configDifferences: configDifferences([base.config, other.config]),
    categories,
    flips: binaryMetrics.map((metric) => flips(overallBase, overallOther, metric)),
    hiddenDifferences: hiddenDifferences(base, other, metrics, baseGroups, otherGroups),
    warnings: comparisonWarnings(base, other),
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
