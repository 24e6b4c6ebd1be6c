import type { RouteTrace } from '../core/retriever.js';
import { ServiceError } from '../http/service-error.js';

/** One candidate handed to a reranker: the hit's text and what the base retriever knew of it. */
export type RerankCandidate = {
  id: string;
  sessionId: string;
  text: string;
  /** The incoming (base) score. */
  score: number;
  /** The base retriever's route traces (`session` carries the stage-1 session score). */
  routes: Readonly<Record<string, RouteTrace>>;
};

export type RerankRequest = {
  query: string;
  /** In incoming order, best first. */
  candidates: readonly RerankCandidate[];
  signal?: AbortSignal;
};

/** Calls a reranker made, as the reader's usage is counted: uncached calls cost. */
export type RerankUsage = {
  calls: number;
  cachedCalls: number;
  /** Tokens of the uncached calls. */
  promptTokens: number;
  completionTokens: number;
};

export type RerankResult = {
  /** Positions into `candidates`, best first: a permutation of all of them. */
  order: number[];
  /** One score per candidate (input order); higher is more relevant. */
  scores: number[];
  /** Positions the reranker's reply left out; they follow in incoming order. */
  missing: number[];
  usage: RerankUsage;
};

/**
 * Reorders the top candidates of a base retriever for a query. A reranker throws a one-sentence
 * error when it cannot rank (HTTP failure after retries, a malformed reply); the rerank stage then
 * keeps the incoming order and records why.
 */
export type CandidateReranker = {
  /** `llm:gpt-4o-mini`, `llm-pointwise:…`, `http:<model>`, `offline:session-prior`. */
  readonly id: string;
  /** The chat model or rerank model priced in configs/prices.json, when the reranker calls one. */
  readonly model?: string;
  rerank(request: RerankRequest): Promise<RerankResult>;
};

export const emptyRerankUsage = (): RerankUsage => ({
  calls: 0,
  cachedCalls: 0,
  promptTokens: 0,
  completionTokens: 0,
});

export function addRerankUsage(
  total: RerankUsage,
  call: { cached: boolean; promptTokens: number; completionTokens: number },
): void {
  total.calls++;
  if (call.cached) {
    total.cachedCalls++;
    return;
  }
  total.promptTokens += call.promptTokens;
  total.completionTokens += call.completionTokens;
}

/** The order of `scores`, best first; ties keep the incoming order. */
export function orderByScores(scores: readonly number[]): number[] {
  return scores
    .map((score, position) => ({ score, position }))
    .sort((left, right) => right.score - left.score || left.position - right.position)
    .map((entry) => entry.position);
}

/**
 * A reranker error: one sentence naming the reranker and what went wrong. A reply of the wrong
 * shape is not retryable; a failed request carries its status and whether it was.
 */
export class RerankError extends ServiceError {
  override readonly name = 'RerankError';
  constructor(
    message: string,
    options: { retryable: boolean; status?: number | undefined } = { retryable: false },
  ) {
    super(message, options);
  }
}
