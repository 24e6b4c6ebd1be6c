import { type Run, runExclusion } from '../../analysis/read-run.js';
import type { ComparisonTable } from '../../analysis/render-comparison-table.js';
import { orderQuestionTypes } from '../../benchmarks/benchmark-registry.js';
import type { Sample } from '../../results/sample.js';
import type { Summary } from '../../results/summary.js';
import { aggregateMetrics } from '../../run/outputs/aggregate-metrics.js';
import type { QuestionDetails } from './question-details.js';
import { type QuestionRun, questionRun, round } from './report-question-run.js';

export type { GoldRank, HitRow, QuestionRun } from './report-question-run.js';

import { describeRun, type RunProvenance } from './run-provenance.js';

/** Tableau 10: each run keeps its colour in every chart and table. */
export const RUN_COLOURS = [
  '#4e79a7',
  '#f28e2b',
  '#e15759',
  '#76b7b2',
  '#59a14f',
  '#edc948',
  '#b07aa1',
  '#ff9da7',
  '#9c755f',
  '#bab0ac',
] as const;

const HEADLINE_METRICS = [
  'session.recall_all@5',
  'session.recall_any@5',
  'session.ndcg_any@5',
  'turn.recall_all@5',
  'turn.recall_any@5',
  'turn.ndcg_any@5',
  // The official figure (a judge error counts as wrong) first, as the CLI's QA table leads with it.
  'qa.accuracy_strict',
  'qa.accuracy',
  // A graded judge's mean scores (partial credit), the strict one first.
  'qa.score_strict',
  'qa.score',
] as const;

const CURVE_CUTOFFS = [1, 3, 5, 10, 30, 50] as const;

export type ReportRun = RunProvenance & { label: string; colour: string };

/** One bar: a run's mean of a metric over a category, and n, the questions in that mean. */
export type MetricRow = { run: string; category: string; metric: string; value: number; n: number };
export type CurveRow = { run: string; metric: string; k: number; value: number };

export type QuestionRow = {
  id: string;
  type: string;
  abstention: boolean;
  question?: string;
  date?: string;
  answer?: string;
  evidence?: { session_id: string; date: string; role: string; text: string }[];
  /** One entry per run, null where the run has no such question. */
  runs: (QuestionRun | null)[];
};

export type ReportModel = {
  title: string;
  generated_at: string;
  runs: ReportRun[];
  categories: string[];
  metrics: string[];
  bars: MetricRow[];
  curve: CurveRow[];
  /** The metric the table and the miss filter use, and its cutoffs. */
  miss_metric: string;
  miss_cutoffs: number[];
  questions: QuestionRow[];
  /** `lme compare`'s single side-by-side table (first run as base), when there are several runs. */
  comparison?: ComparisonTable;
  /** Why the question text or evidence is missing, when it is. */
  notes: string[];
};

export type ReportModelOptions = {
  runs: readonly Run[];
  /** Display names of the runs (default: label or run id). */
  labels?: readonly string[];
  /** explain.jsonl lines per run (by question id), when the run wrote one. */
  explains?: readonly (Map<string, Record<string, unknown>> | undefined)[];
  /** The dataset's questions by id (text, dates, evidence), when the dataset file was readable. */
  details?: Map<string, QuestionDetails>;
  comparison?: ComparisonTable;
  notes?: string[];
  now?: Date;
};

function runSummary(run: Run): Summary {
  return (
    run.summary ??
    aggregateMetrics({
      runId: run.config.run_id,
      dataset: run.config.config.dataset,
      convention: run.config.config.convention,
      exclusion: runExclusion(run.config),
      samples: run.samples,
    })
  );
}

/** Everything the HTML report shows, as plain JSON (the charts' data and the question pages). */
export function buildReportModel(options: ReportModelOptions): ReportModel {
  const { runs } = options;
  const labels = runs.map((run, index) => options.labels?.[index] ?? run.summary?.label ?? run.config.run_id);
  const unique = labels.map((label, index) =>
    labels.indexOf(label) === index ? label : `${label} #${index + 1}`,
  );
  const summaries = runs.map(runSummary);
  const present = new Set(summaries.flatMap((summary) => Object.keys(summary.metrics.overall.metrics)));
  const metrics = HEADLINE_METRICS.filter((name) => present.has(name));
  const categories = orderQuestionTypes(summaries.flatMap((summary) => Object.keys(summary.metrics.by_type)));

  const bars: MetricRow[] = [];
  const curve: CurveRow[] = [];
  summaries.forEach((summary, index) => {
    const run = unique[index]!;
    const groups: [string, Summary['metrics']['overall'] | undefined][] = [
      ...categories.map(
        (category) =>
          [category, summary.metrics.by_type[category]] as [
            string,
            typeof summary.metrics.overall | undefined,
          ],
      ),
      ['overall', summary.metrics.overall],
    ];
    for (const [category, means] of groups) {
      if (!means) continue;
      for (const metric of metrics) {
        const value = means.metrics[metric];
        if (typeof value === 'number') {
          // Retrieval and QA means count different questions (abstention, failed reads).
          bars.push({ run, category, metric, value: round(value), n: means.counts[metric] ?? means.n });
        }
      }
    }
    const level = present.has('session.recall_all@5') ? 'session' : 'turn';
    for (const kind of ['recall_all', 'recall_any']) {
      for (const k of CURVE_CUTOFFS) {
        const value = summary.metrics.overall.metrics[`${level}.${kind}@${k}`];
        if (typeof value === 'number')
          curve.push({ run, metric: `${level}.${kind}`, k, value: round(value) });
      }
    }
  });

  const missLevel =
    present.has('session.recall_all@5') || !present.has('turn.recall_all@5') ? 'session' : 'turn';
  const missCutoffs = CURVE_CUTOFFS.filter((k) => present.has(`${missLevel}.recall_all@${k}`));
  const kept = [
    ...metrics,
    ...missCutoffs.map((k) => `${missLevel}.recall_all@${k}`),
    ...missCutoffs.map((k) => `${missLevel}.recall_any@${k}`),
  ];
  const byRun = runs.map((run) => new Map(run.samples.map((sample) => [sample.question_id, sample])));
  const order: Sample[] = [];
  const seen = new Set<string>();
  for (const run of runs) {
    for (const sample of [...run.samples].sort((a, b) => (a.position ?? 0) - (b.position ?? 0))) {
      if (seen.has(sample.question_id)) continue;
      seen.add(sample.question_id);
      order.push(sample);
    }
  }
  const questions: QuestionRow[] = order.map((first) => {
    const details = options.details?.get(first.question_id);
    return {
      id: first.question_id,
      type: first.question_type,
      abstention: first.abstention,
      ...(details
        ? {
            question: details.question,
            date: details.date,
            answer: details.answer,
            evidence: details.evidence,
          }
        : {}),
      runs: byRun.map((samples, index) => {
        const sample = samples.get(first.question_id);
        if (!sample) return null;
        return questionRun(sample, options.explains?.[index]?.get(sample.question_id), details, [
          ...new Set(kept),
        ]);
      }),
    };
  });

  return {
    title: runs.length === 1 ? `lme report · ${unique[0]}` : `lme report · ${unique.join(' vs ')}`,
    generated_at: (options.now ?? new Date()).toISOString(),
    runs: runs.map((run, index) => ({
      ...describeRun(run, summaries[index]!),
      label: unique[index]!,
      colour: RUN_COLOURS[index % RUN_COLOURS.length]!,
    })),
    categories: [...categories, 'overall'],
    metrics,
    bars,
    curve,
    miss_metric: `${missLevel}.recall_all`,
    miss_cutoffs: missCutoffs,
    questions,
    ...(options.comparison ? { comparison: options.comparison } : {}),
    notes: options.notes ?? [],
  };
}
