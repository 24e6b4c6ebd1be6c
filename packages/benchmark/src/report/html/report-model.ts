import { type Run, runExclusion } from '../../analysis/read-run.js';
import type { ComparisonTable } from '../../analysis/render-comparison-table.js';
import { orderQuestionTypes } from '../../benchmarks/benchmark-registry.js';
import { missCause } from '../../providers/pipeline/gold-trace.js';
import { judgeScore, type Sample, type SampleJudgeItem } from '../../results/sample.js';
import type { Summary } from '../../results/summary.js';
import { aggregateMetrics } from '../../run/outputs/aggregate-metrics.js';
import { sampleErrataCell } from '../../run/outputs/write-csv.js';
import type { QuestionDetails } from './question-details.js';
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
/** Hits kept per question and run for the question page. */
const TOP_HITS = 10;

export type ReportRun = RunProvenance & { label: string; colour: string };

/** One bar: a run's mean of a metric over a category, and n, the questions in that mean. */
export type MetricRow = { run: string; category: string; metric: string; value: number; n: number };
export type CurveRow = { run: string; metric: string; k: number; value: number };

export type GoldRank = {
  id: string;
  rank: number | null;
  /** Per-route score and rank, when the run had them (explain.jsonl, or a saved hit). */
  routes?: Record<string, { score: number; rank: number }>;
  cause?: string;
  cause_kind?: string;
};

export type HitRow = {
  rank: number;
  id: string;
  session_id: string;
  date?: string;
  score: number;
  routes: Record<string, { score: number; rank: number }>;
  gold?: boolean;
};

export type QuestionRun = {
  metrics: Record<string, number>;
  gold: GoldRank[];
  hits: HitRow[];
  /** How far `gold` ranks reach: the whole ranking (explain.jsonl) or the saved hits. */
  ranked: 'all' | number;
  hypothesis?: string | null;
  /** A yes/no judge's verdict (null: a judge error). */
  judge?: boolean | null;
  /** A graded judge's score in [0, 1] (null: a judge error) and its rubric items. */
  judge_score?: number | null;
  judge_items?: SampleJudgeItem[];
  error?: string | null;
  /** Set when the run's errata touched the question: `excluded: gold-answer (longmemeval-s@1)`. */
  errata?: string;
};

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

const round = (value: number) => Math.round(value * 10000) / 10000;

function goldRanksFromHits(sample: Sample): GoldRank[] {
  return sample.gold_sessions.map((gold) => {
    const hit = sample.hits.find((candidate) => candidate.session_id === gold || candidate.id === gold);
    if (!hit) return { id: gold, rank: null };
    const cause = missCause({ rank: hit.rank, routes: hit.routes }, 5);
    return { id: gold, rank: hit.rank, routes: hit.routes, cause: cause.text, cause_kind: cause.kind };
  });
}

function goldRanksFromExplain(explain: Record<string, unknown>): GoldRank[] | undefined {
  const gold = explain.gold as { sessions?: unknown } | undefined;
  if (!gold || !Array.isArray(gold.sessions)) return undefined;
  return (gold.sessions as Record<string, unknown>[]).map((item) => ({
    id: String(item.id),
    rank: typeof item.rank === 'number' ? item.rank : null,
    routes: item.routes as GoldRank['routes'],
    cause: (item.cause as { text?: string } | undefined)?.text,
    cause_kind: (item.cause as { kind?: string } | undefined)?.kind,
  }));
}

function questionRun(
  sample: Sample,
  explain: Record<string, unknown> | undefined,
  details: QuestionDetails | undefined,
  metrics: readonly string[],
): QuestionRun {
  const fromExplain = explain ? goldRanksFromExplain(explain) : undefined;
  const gold = fromExplain ?? goldRanksFromHits(sample);
  const goldIds = new Set(sample.gold_sessions);
  const kept: Record<string, number> = {};
  for (const name of metrics) if (sample.metrics[name] !== undefined) kept[name] = sample.metrics[name];
  return {
    metrics: kept,
    gold,
    ranked: fromExplain ? 'all' : sample.hits.length,
    hits: sample.hits.slice(0, TOP_HITS).map((hit) => ({
      rank: hit.rank,
      id: hit.id,
      session_id: hit.session_id,
      ...(details?.sessionDates[hit.session_id] ? { date: details.sessionDates[hit.session_id] } : {}),
      score: round(hit.score),
      routes: Object.fromEntries(
        Object.entries(hit.routes).map(([route, trace]) => [
          route,
          { score: round(trace.score), rank: trace.rank },
        ]),
      ),
      ...(goldIds.has(hit.session_id) || goldIds.has(hit.id) ? { gold: true } : {}),
    })),
    ...(sample.hypothesis !== null ? { hypothesis: sample.hypothesis } : {}),
    ...judgeOf(sample),
    ...(sample.error ? { error: sample.error } : {}),
    ...(sample.errata ? { errata: `${sampleErrataCell(sample)} (${sample.errata.errata})` } : {}),
  };
}

/** The judge's grading for the question page: a yes/no verdict, or a graded score with its items. */
function judgeOf(sample: Sample): Pick<QuestionRun, 'judge' | 'judge_score' | 'judge_items'> {
  const { judge } = sample;
  if (!judge) return {};
  const score = judgeScore(judge);
  if (judge.items === undefined) return { judge: score === null ? null : score === 1 };
  return { judge_score: score, judge_items: judge.items };
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
