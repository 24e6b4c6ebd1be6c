import type { RouteTrace } from '@lme/search-core';
import type { SampleErrata } from './errata-summary.js';

/** One retrieved item as stored in samples.jsonl. */
export type StoredHit = {
  id: string;
  session_id: string;
  rank: number;
  score: number;
  routes: Record<string, RouteTrace>;
};

/** One line of samples.jsonl: everything measured for one question. */
export type Sample = {
  question_id: string;
  /** 0-based position of the question in the dataset file (orders merged shards). */
  position: number;
  question_type: string;
  abstention: boolean;
  /** No gold at the scored level (official convention B skips these). */
  no_target: boolean;
  gold_sessions: string[];
  /** Evidence convention: gold sessions absent from the question's haystack (counted as not retrieved). */
  gold_absent?: string[];
  hits: StoredHit[];
  metrics: Record<string, number>;
  hypothesis: string | null;
  /** Who wrote `hypothesis`: lme's reader, or the provider itself (`--answers provider`, or unjudged). */
  answer_source?: 'reader' | 'provider';
  /** The text the provider says it answered from, when it sent one. */
  answer_context?: string;
  /**
   * The judge's grading; null when it did not grade the question. `score` in [0, 1] (null a judge
   * error): a yes/no judge gives 1 or 0 and keeps its `label` (the majority of its votes; with
   * `--judge-samples` above 1 the `votes` too); a graded judge gives its rubric `items`. Folders
   * written before scores existed hold `label` only: read them with `judgeScore`.
   */
  judge: SampleJudge | null;
  /**
   * Tokens and cost per LLM role (reader, judge); `cached` calls cost nothing this run. `provider`
   * is what the provider reported spending on its own answer (cost_usd null when it gave tokens
   * only): reported beside lme's spend, never counted in it or in `--max-cost`.
   */
  usage: Record<
    string,
    {
      prompt_tokens: number;
      completion_tokens: number;
      cost_usd: number | null;
      cached: boolean;
      /** The model, when the provider named the one it answered with. */
      model?: string;
      /** HTTP requests the role's answer took, retries included (reader, judge; absent in older folders). */
      requests?: number;
    }
  >;
  /**
   * Milliseconds: lme's measure of the provider's ingest and search; `answer`, the provider's own
   * report of its search and answer time (protocol `latency_ms`); `reader` and `judge`, lme's LLM
   * calls (0 when served from the cache).
   */
  latency_ms: {
    index: number;
    retrieve: number;
    /**
     * An external system's ingest of the haystack (reset and every ingest call), charged to the
     * question that ingested it: 0 on the questions that searched a namespace an earlier one
     * ingested (`ingest_shared`).
     */
    ingest?: number;
    answer?: number;
    reader?: number;
    judge?: number;
  };
  /** The haystack was ingested for an earlier question of the run and searched again (its ingest is charged there). */
  ingest_shared?: boolean;
  error: string | null;
  /** Set when `--errata` touched this question; `excluded` ones are in no mean. */
  errata?: SampleErrata;
};

/** One graded rubric item of a question: its score in [0, max] (max 1 when absent; null unreadable). */
export type SampleJudgeItem = { name: string; score: number | null; max?: number; reason?: string };

/** What samples.jsonl records of the judge's grading of one question. */
export type SampleJudge = {
  /** Yes/no judges: true correct, false wrong, null a judge error (`score === 1`). */
  label?: boolean | null;
  /** The question's score in [0, 1]; null a judge error. Absent in folders written before scores. */
  score?: number | null;
  /** Graded judges: the rubric's items, in order. */
  items?: SampleJudgeItem[];
  error?: string;
  votes?: { yes: number; no: number; unparsed: number };
};

/** A judged question's score in [0, 1] (null a judge error), reading an old folder's label as 1/0. */
export function judgeScore(judge: SampleJudge): number | null {
  if (judge.score !== undefined) return judge.score;
  if (judge.label === undefined || judge.label === null) return null;
  return judge.label ? 1 : 0;
}

/** The `usage` role holding what the provider reported spending on its own answer. */
export const PROVIDER_USAGE_ROLE = 'provider';

/** The `usage` role holding what an external system reported spending on ingesting the haystack. */
export const PROVIDER_INGEST_USAGE_ROLE = 'provider_ingest';

/** Whether a question is in the means at all: finished, and not set aside by applied errata. */
export function inMeans(sample: Sample): boolean {
  return sample.error === null && sample.errata?.excluded !== true;
}
