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
  judge: { label: boolean | null; error?: string } | null;
  /** Tokens and cost per LLM role (reader, judge); `cached` calls cost nothing this run. */
  usage: Record<
    string,
    { prompt_tokens: number; completion_tokens: number; cost_usd: number | null; cached: boolean }
  >;
  latency_ms: { index: number; retrieve: number };
  error: string | null;
  /** Set when `--errata` touched this question; `excluded` ones are in no mean. */
  errata?: SampleErrata;
};

/** Whether a question is in the means at all: finished, and not set aside by applied errata. */
export function inMeans(sample: Sample): boolean {
  return sample.error === null && sample.errata?.excluded !== true;
}
