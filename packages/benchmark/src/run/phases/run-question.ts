import type { Benchmark } from '../../benchmarks/benchmark.js';
import { isAbstention, type LongMemEvalRecord } from '../../benchmarks/longmemeval-record.js';
import { redact } from '../../config/secrets.js';
import type { DataSection } from '../../config/sections/data-section.js';
import type { QaSection } from '../../config/sections/qa-section.js';
import type { RetrievalSection } from '../../config/sections/retrieval-section.js';
import type { RunSection } from '../../config/sections/run-section.js';
import type { StagesSection } from '../../config/sections/stages-section.js';
import { contextTrace } from '../../metrics/context-recall.js';
import { evaluateQuestion } from '../../metrics/question-metrics.js';
import type { Provider, RetrievalOutcome } from '../../providers/provider.js';
import { PROVIDER_INGEST_USAGE_ROLE, PROVIDER_USAGE_ROLE, type Sample } from '../../results/sample.js';
import type { QaStage } from './qa-stage.js';
import { boundSampleText } from './stored-text.js';

export type RunQuestionOptions = {
  record: LongMemEvalRecord;
  position: number;
  provider: Provider;
  qa: QaStage | undefined;
  /** The run's benchmark (its own retrieval metrics). */
  benchmark: Benchmark | undefined;
  /** The keys a question reads, from the retrieval, run, data, stages and QA sections. */
  config: Pick<RetrievalSection, 'topK' | 'granularity'> &
    Pick<RunSection, 'saveHits'> &
    Pick<DataSection, 'convention'> &
    Pick<StagesSection, 'contextBudget'> &
    Pick<QaSection, 'answers'>;
  signal: AbortSignal | undefined;
  /** Receives the question's explain.jsonl line (`--explain`). */
  onExplain?: (line: Record<string, unknown>) => void;
};

/**
 * One question end to end: retrieve, grade the ranking, answer and judge (with a reader model).
 * A failure becomes the sample's `error`; undefined when the run was interrupted before it finished.
 */
/** A question's sample before anything ran: no hits, metrics, answer or error. */
export function emptySample(record: LongMemEvalRecord, position: number): Sample {
  return {
    question_id: record.question_id,
    position,
    question_type: record.question_type,
    abstention: isAbstention(record.question_id),
    no_target: false,
    gold_sessions: [],
    hits: [],
    metrics: {},
    hypothesis: null,
    judge: null,
    usage: {},
    latency_ms: { index: 0, retrieve: 0 },
    error: null,
  };
}

export async function runQuestion(options: RunQuestionOptions): Promise<Sample | undefined> {
  const { record, provider, qa, config, signal } = options;
  const sample = emptySample(record, options.position);
  try {
    const outcome = await provider.retrieve({ record, signal });
    // LLM calls made while retrieving (the reranker) are counted like the reader's.
    if (outcome.usage) sample.usage = { ...outcome.usage };
    sample.latency_ms = {
      index: round(outcome.timings.indexMs),
      retrieve: round(outcome.timings.retrieveMs),
      ...(outcome.ingest ? { ingest: round(outcome.ingest.ms) } : {}),
    };
    recordIngest(sample, outcome);
    // The same budget for every provider: with --top-k, rankings are cut before grading.
    const ranking = config.topK === undefined ? outcome.ranking : outcome.ranking.slice(0, config.topK);
    const hits = config.topK === undefined ? outcome.hits : outcome.hits.slice(0, config.topK);
    sample.hits = hits.slice(0, config.saveHits).map((hit, index) => ({
      id: hit.id,
      session_id: hit.sessionId,
      rank: index + 1,
      score: hit.score,
      routes: hit.routes,
    }));
    if (outcome.graded !== false) {
      const graded = evaluateQuestion({
        record,
        corpus: outcome.corpus,
        ranking,
        sessionRanking: outcome.sessionRanking,
        granularity: config.granularity,
        convention: config.convention,
        contextBudget: config.contextBudget,
        benchmark: options.benchmark,
      });
      sample.no_target = graded.noTarget;
      sample.gold_sessions = graded.goldSessions;
      if (graded.absentGold) sample.gold_absent = graded.absentGold;
      sample.metrics = graded.metrics;
      options.onExplain?.({
        question_id: record.question_id,
        question_type: record.question_type,
        ...outcome.explain,
        ...(graded.context ? { context: contextTrace(graded.context) } : {}),
      });
    }
    // The provider's answer is the hypothesis unless lme's reader answers instead.
    recordProviderAnswer(sample, outcome, !qa || config.answers === 'provider');
    if (config.answers === 'provider') sample.answer_source = 'provider';
    if (qa) {
      const result = await qa.answer({
        record,
        ...(outcome.readerHaystackSessions ? { readerHaystackSessions: outcome.readerHaystackSessions } : {}),
        rankedSessionIds: outcome.readerSessionIds ?? hits.map((hit) => hit.sessionId),
        rankedIds: hits.map((hit) => hit.id),
        ...(outcome.answer === undefined ? {} : { providerAnswer: outcome.answer }),
        signal,
      });
      sample.hypothesis = result.hypothesis;
      sample.answer_source = result.answerSource;
      sample.judge = result.judge;
      sample.usage = { ...sample.usage, ...result.usage };
      sample.latency_ms = { ...sample.latency_ms, ...result.latency };
      Object.assign(sample.metrics, result.metrics);
    }
    return boundSampleText(sample);
  } catch (error) {
    if (signal?.aborted) return undefined;
    return boundSampleText({ ...sample, error: redact((error as Error).message) });
  }
}

/**
 * The provider's own answer and what it reported about it (protocol `answer`, `context`, `usage`,
 * `latency_ms`): the hypothesis until a reader replaces it, its usage as the `provider` role
 * (cost null when it reported tokens only), its latency as `latency_ms.answer`.
 */
function recordProviderAnswer(sample: Sample, outcome: RetrievalOutcome, isHypothesis: boolean): void {
  if (outcome.answer !== undefined && isHypothesis) {
    sample.hypothesis = outcome.answer;
    sample.answer_source = 'provider';
  }
  const report = outcome.answerReport;
  if (!report) return;
  if (report.context !== undefined) sample.answer_context = report.context;
  if (report.latencyMs !== undefined) sample.latency_ms.answer = round(report.latencyMs);
  if (report.usage) {
    sample.usage[PROVIDER_USAGE_ROLE] = {
      prompt_tokens: report.usage.prompt_tokens,
      completion_tokens: report.usage.completion_tokens,
      cost_usd: report.usage.cost_usd ?? null,
      cached: false,
      ...(report.usage.model === undefined ? {} : { model: report.usage.model }),
    };
  }
}

/**
 * An external system's ingest as charged to the question: `ingest_shared` when an earlier
 * question's ingest served it, the usage it reported as the `provider_ingest` role (cost null
 * when it reported tokens only).
 */
function recordIngest(sample: Sample, outcome: RetrievalOutcome): void {
  if (!outcome.ingest) return;
  if (outcome.ingest.shared) sample.ingest_shared = true;
  const usage = outcome.ingest.usage;
  if (!usage) return;
  sample.usage[PROVIDER_INGEST_USAGE_ROLE] = {
    prompt_tokens: usage.prompt_tokens,
    completion_tokens: usage.completion_tokens,
    cost_usd: usage.cost_usd ?? null,
    cached: false,
    ...(usage.model === undefined ? {} : { model: usage.model }),
  };
}

function round(milliseconds: number): number {
  return Math.round(milliseconds * 1000) / 1000;
}
