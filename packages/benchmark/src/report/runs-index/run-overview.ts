import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { inDatasetOrder, type Run, readRun, readSummaryFile, runExclusion } from '../../analysis/read-run.js';
import { describeErrata, runLabel } from '../../analysis/run-label.js';
import { BENCHMARKS, benchmarkOfRecord } from '../../benchmarks/benchmark-registry.js';
import type { Summary } from '../../results/summary.js';
import { aggregateMetrics } from '../../run/outputs/aggregate-metrics.js';
import { partialReason, readManifest } from '../../run/outputs/run-manifest.js';
import { describeRun } from '../html/run-provenance.js';
import { headlineMetricNames, latencyOf, type RunLatency } from './headline-metrics.js';

/** complete: every question finished; partial: the run stopped (or still runs); failed: a question failed. */
export type RunState = 'complete' | 'partial' | 'failed';

/** One results folder as `lme runs` and the leaderboard show it (`lme runs --json`: one per run). */
export type RunOverview = {
  run_id: string;
  /** The folder, absolute. */
  dir: string;
  label: string | null;
  /** The benchmark whose questions it ran (config.json `benchmarkDefaults`, else its question types). */
  benchmark: string;
  dataset: string;
  dataset_sha256: string | null;
  /** SHA-256 of the dataset file's bytes, recorded at the start (a stopped run has no `dataset_sha256`). */
  dataset_file_sha256: string | null;
  convention: string;
  /** The official convention's exclusion (A or B), else null. */
  exclusion: string | null;
  granularity: string;
  /** The turns indexed or sent: `user` (lme's presets) or `all` (every role: an external system's default). */
  index_roles: string;
  /** `--preset`, when the run started from one. */
  preset: string | null;
  /** The pipeline's retriever (routes, fusion) or the provider, with an external system's name, version and URL. */
  system: string;
  /** An external system's name and version as it reported them, else null. */
  provider_name: string | null;
  provider_version: string | null;
  /** `none (official labels)` or the errata applied. */
  errata: string;
  /** The judge rubric and model of its QA figures, else null. */
  judge: string | null;
  questions_done: number;
  /** The questions the run set out to answer; null when a stopped run did not record it. */
  questions_total: number | null;
  failed: number;
  state: RunState;
  /** Why it is partial or failed, else null. */
  state_reason: string | null;
  /** The benchmark's headline figures, overall, in the run table's order. */
  headline: { metric: string; value: number; n: number; ci95: { low: number; high: number } | null }[];
  /** Each headline figure per question type. */
  by_type: Record<string, Record<string, number>>;
  /** USD of lme's reader, judge and reranker calls, null when it made none. */
  cost_usd: number | null;
  latency: RunLatency;
  /** config.json `fingerprint.setup`: equal for runs of the same code, models, data and settings. */
  fingerprint: string | null;
  started_at: string | null;
  finished_at: string | null;
  /** The version of lme that wrote it, and its git commit. */
  lme_version: string | null;
  git_commit: string | null;
  /** The run's own report in its folder (report.html when `lme report --html` wrote one, else report.md), else null. */
  report: string | null;
};

/**
 * An external system named by what it reported (`mem0 mem0 2.2.1`): the loopback address a bridge
 * listened on (a random port each run) is no part of what ran, so it is left out.
 */
export function withoutLoopbackAddress(system: string): string {
  return system.replace(/ at https?:\/\/(?:127(?:\.\d{1,3}){3}|localhost|\[::1\])(?::\d+)?(?:\/\S*)?$/, '');
}

/** The benchmark a run ran: recorded since benchmark defaults exist, else the one owning its question types. */
function benchmarkOf(run: Run, summary: Summary): string {
  const recorded = run.config.config.benchmarkDefaults?.benchmark;
  if (typeof recorded === 'string') return recorded;
  const types = [
    ...run.samples.map((sample) => sample.question_type),
    ...Object.keys(summary.metrics.by_type),
  ];
  for (const type of types) {
    const owner = benchmarkOfRecord({ question_type: type });
    if (owner !== undefined)
      return Object.entries(BENCHMARKS).find(([, benchmark]) => benchmark === owner)?.[0] ?? 'unknown';
  }
  return 'unknown';
}

function judgeOf(summary: Summary): string | null {
  if (summary.qa === undefined) return null;
  return `${summary.qa.judge} (${summary.qa.judge_model})`;
}

/** The summary the run wrote, else its means over the questions it finished (a stopped run). */
function summaryOf(run: Run): Summary {
  return (
    run.summary ??
    aggregateMetrics({
      runId: run.config.run_id,
      dataset: run.config.config.dataset,
      convention: run.config.config.convention,
      exclusion: runExclusion(run.config),
      samples: inDatasetOrder(run.samples),
    })
  );
}

function stateOf(run: Run, summary: Summary, done: number, total: number | null): [RunState, string | null] {
  const failed = summary.errors;
  if (failed > 0) {
    const first = summary.first_error;
    return [
      'failed',
      `${failed} of ${done} questions failed${first ? ` (first: ${first.question_id}: ${first.message})` : ''}`,
    ];
  }
  const partial = summary.partial?.reason ?? partialReason(run.config);
  if (partial !== undefined) return ['partial', partial];
  if (total !== null && done < total) return ['partial', `${done} of ${total} questions finished`];
  return ['complete', null];
}

/**
 * A run read for the index: config.json and samples.jsonl (through readRun), or a committed
 * summary-only folder (config.json and summary.json, as results/baselines hold). Reads only.
 */
export function readRunForIndex(dir: string): Run {
  if (existsSync(join(dir, 'samples.jsonl'))) return readRun(dir);
  const summary = readSummaryFile(join(dir, 'summary.json'));
  return { dir, config: readManifest(dir), samples: [], summary, warnings: [] };
}

/** The overview of one results folder; throws one sentence naming the folder when it is not one. */
export function readRunOverview(dir: string): { overview: RunOverview; warnings: string[] } {
  const run = readRunForIndex(dir);
  const summary = summaryOf(run);
  const config = run.config.config;
  const described = describeRun(run, summary);
  const done = run.samples.length > 0 ? run.samples.length : summary.n;
  // Recorded since lme records it; a finished run of an earlier release answered all it set out to.
  const finished = run.config.finished_at !== undefined && !run.config.partial;
  const total = run.config.questions_total ?? (finished ? Math.max(summary.n, done) : null);
  const [state, reason] = stateOf(run, summary, done, total);
  const overall = summary.metrics.overall;
  const names = headlineMetricNames(
    config.convention,
    config.granularity,
    new Set(Object.keys(overall.metrics)),
  );
  const byType: Record<string, Record<string, number>> = {};
  for (const [type, means] of Object.entries(summary.metrics.by_type)) {
    byType[type] = Object.fromEntries(
      names.flatMap((metric) =>
        means.metrics[metric] === undefined ? [] : [[metric, means.metrics[metric]!]],
      ),
    );
  }
  const label = runLabel(run).label ?? null;
  const reports = ['report.html', 'report.md'].filter((name) => existsSync(join(run.dir, name)));
  const overview: RunOverview = {
    run_id: run.config.run_id,
    dir: run.dir,
    label,
    benchmark: benchmarkOf(run, summary),
    dataset: String(config.dataset),
    dataset_sha256: run.config.dataset?.sha256 ?? null,
    dataset_file_sha256: run.config.dataset?.file_sha256 ?? null,
    convention: String(config.convention),
    exclusion: described.exclusion,
    granularity: String(config.granularity),
    index_roles: String(config.indexRoles ?? 'user'),
    preset: typeof config.preset === 'string' ? config.preset : null,
    system: withoutLoopbackAddress(described.retriever),
    provider_name: run.config.provider?.name ?? null,
    provider_version: run.config.provider?.version ?? null,
    errata:
      run.samples.length > 0 || run.config.errata ? describeErrata(runLabel(run)) : errataOfSummary(summary),
    judge: judgeOf(summary),
    questions_done: done,
    questions_total: total,
    failed: summary.errors,
    state,
    state_reason: reason,
    headline: names.map((metric) => ({
      metric,
      value: overall.metrics[metric]!,
      n: overall.counts[metric] ?? overall.n,
      ci95: overall.ci95?.[metric] ?? null,
    })),
    by_type: byType,
    cost_usd: described.cost_usd,
    latency: latencyOf(overall.metrics),
    fingerprint: run.config.fingerprint?.setup ?? null,
    started_at: described.started_at,
    finished_at: described.finished_at,
    lme_version: run.config.provenance?.versions?.['@lme/benchmark'] ?? null,
    git_commit: described.git_commit,
    report: reports[0] === undefined ? null : join(run.dir, reports[0]),
  };
  return { overview, warnings: run.warnings };
}

/** A summary-only folder's errata, from summary.json's block. */
function errataOfSummary(summary: Summary): string {
  const errata = summary.errata;
  if (!errata?.applied) return 'none (official labels)';
  return `${errata.errata} (${errata.questions_touched} questions touched, ${errata.excluded} excluded)`;
}
