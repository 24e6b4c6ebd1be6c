import type { ErrataSummary } from './errata-summary.js';
import type { IngestSummary } from './ingest-summary.js';
import type { ProviderIdentity } from './provider-identity.js';

export type Exclusion = 'A' | 'B';

/**
 * Means of one group of questions; `counts` says how many questions each mean is over. `n` counts
 * the questions the means are over; `errors` the group's failed questions (never in a mean), and
 * `no_target` the counted questions with no gold at the scored level (recall_all is 1 for them).
 */
export type MetricMeans = {
  n: number;
  metrics: Record<string, number>;
  counts: Record<string, number>;
  errors?: number;
  no_target?: number;
  /**
   * 95% intervals of the QA figures, over the questions each is computed on (`counts`); set when the
   * group has QA figures. A yes/no judge's accuracies (`qa.accuracy_strict`, `qa.accuracy`): Wilson
   * score intervals. A graded judge's mean scores (`qa.score_strict`, `qa.score`): percentile
   * bootstrap intervals (10 000 resamples of the questions, seed 42).
   */
  ci95?: Record<string, { low: number; high: number }>;
};

/**
 * Blocks of summary.json that belong to one benchmark (its `aggregate`), keyed by block name; each
 * benchmark folder adds its own by declaration merging, so this file names none.
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled by each benchmark folder (declaration merging)
export interface BenchmarkSummaryBlocks {}

export type Summary = Partial<BenchmarkSummaryBlocks> & SummaryCore;

/** The shared part of summary.json, whatever the benchmark. */
export type SummaryCore = {
  run_id: string;
  dataset: string;
  convention: string;
  exclusion: Exclusion;
  /** `--label`, when the run has one. */
  label?: string;
  /** The external memory system measured (`--provider http`): URL, and name and version as it reported them. */
  provider?: ProviderIdentity;
  n: number;
  /** Questions that failed (their `error` is set): they are in no mean. */
  errors: number;
  /**
   * Set when the run stopped before its last question (--max-cost, a signal, a full disk, a server
   * that reports no usage): the means cover only the questions it finished. `lme gate` refuses it
   * unless `--allow-partial`.
   */
  partial?: { reason: string };
  /**
   * Set when `--resume-mixed` continued the run under another setup: its questions were made
   * under `setups` setups, and `changes` says what changed each time (config.json `mixed`).
   */
  mixed?: { setups: number; changes: string[] };
  /** The first failed question in dataset order, when any failed. */
  first_error?: { question_id: string; message: string };
  metrics: {
    overall: MetricMeans;
    by_type: Record<string, MetricMeans>;
    /** `_abs` questions, reported on their own; never part of `overall` for retrieval metrics (QA metrics count them in their type and overall). */
    abstention: MetricMeans;
  };
  /**
   * Who produced the QA numbers, when QA ran: every `qa.accuracy*` / `qa.score*` figure
   * is the judge's (`judge` rubric, `judge_model`); `qa.locomo_f1` is the official LoCoMo token F1
   * (no judge).
   */
  qa?: QaProvenance;
  /** An external system's ingests: count, shared questions, wall time p50/p95 beside search, reported usage. */
  ingest?: IngestSummary;
  /** The dataset's errata: applied (`--errata`) or only known, with the ceiling (run/outputs/summarize-errata.ts). */
  errata?: ErrataSummary;
};

export type QaProvenance = {
  judge: string;
  judge_model: string;
  /** Who wrote the judged answers: lme's reader, or the provider itself (`--answers provider`). */
  answer_source?: 'reader' | 'provider';
  /** Judge calls per answer (majority vote) and their temperature, when above 1. */
  judge_samples?: number;
  judge_temperature?: number;
  reader_model?: string;
  reader_prompt?: string;
};
