import type { RetrievalHit } from '@lme/search-core';
import type { Corpus } from '../benchmarks/build-corpus.js';
import type { LongMemEvalRecord } from '../benchmarks/longmemeval-record.js';
import type { ProviderIdentity } from '../results/provider-identity.js';

/** What a memory system under test returns for one question. */
export type RetrievalOutcome = {
  corpus: Corpus;
  /** Document indices of `corpus.documents` in rank order (every document, or a prefix). */
  ranking: number[];
  hits: RetrievalHit[];
  /**
   * Haystack session indices in rank order, when the provider ranks sessions itself
   * (session-aware retrieval); session metrics then grade this order instead of deriving it
   * from the document ranking.
   */
  sessionRanking?: number[];
  /** false when the provider ranks nothing (full-context, oracle): no retrieval metrics. */
  graded?: boolean;
  /** Sessions for the reader; default: the sessions of the hits in rank order. */
  readerSessionIds?: string[];
  /**
   * Whole haystack sessions the reader gets instead of ranked ones, as indices into
   * `haystack_sessions` in haystack order (full-context: every session; oracle: the evidence
   * sessions); the QA stage keeps the latest FULL_HISTORY_TOP_K of them, as the official
   * full-history run does. Unset: the reader gets ranked sessions.
   */
  readerHaystackSessions?: number[];
  /** The system's own answer, when it gives one (http provider). */
  answer?: string;
  /**
   * What the system reported about its answer (http provider): the context it answered from, its
   * own token usage and cost, and its own latency.
   */
  answerReport?: {
    context?: string;
    usage?: { prompt_tokens: number; completion_tokens: number; cost_usd?: number; model?: string };
    latencyMs?: number;
  };
  timings: { indexMs: number; retrieveMs: number };
  /**
   * An external system's ingest of the haystack, as charged to this question: its wall time and the
   * usage the system reported, or `shared` (0 ms) when an earlier question's ingest of the same
   * haystack served it.
   */
  ingest?: {
    ms: number;
    shared: boolean;
    usage?: { prompt_tokens: number; completion_tokens: number; cost_usd?: number; model?: string };
  };
  /** Tokens and cost of LLM calls made while retrieving (e.g. `reranker`), per role, as samples.jsonl `usage`. */
  usage?: Record<
    string,
    { prompt_tokens: number; completion_tokens: number; cost_usd: number | null; cached: boolean }
  >;
  /** The question's explain trace (routes, stage decisions, timings), written to explain.jsonl by `--explain`. */
  explain?: Record<string, unknown>;
};

/** A memory system under test: ingests one question's haystack and retrieves for its question. */
export type Provider = {
  readonly id: string;
  retrieve(options: { record: LongMemEvalRecord; signal?: AbortSignal }): Promise<RetrievalOutcome>;
  /**
   * Starts ingesting the haystack of the question that runs next, while the one before is still
   * being answered (a remote vector store stores it meanwhile); that question's `retrieve` uses
   * it, and fails with its error if it failed. `close` releases one never retrieved.
   */
  prepare?(options: { record: LongMemEvalRecord; signal?: AbortSignal }): void;
  /**
   * The questions the run will retrieve for, in order, before the first (resumed and finished ones
   * left out): a provider sharing work between questions (one ingest per haystack) frees it after
   * the last question that needs it.
   */
  plan?(options: { records: AsyncIterable<LongMemEvalRecord> | Iterable<LongMemEvalRecord> }): Promise<void>;
  /** Why it can answer no more questions (the process behind it died), in one sentence; the run stops. */
  unavailable?(): string | undefined;
  /** A short note on work in progress for the progress bar (embedding rate, cache hits). */
  progress?(): string | undefined;
  /** Run-level figures worth keeping (embedding and summary cost), written to summary.json. */
  report?(): Record<string, unknown>;
  /** Writes what it keeps in memory for later runs (embeddings for the cache) before `report`. */
  flush?(): Promise<void>;
  close?(): Promise<void>;
  /** Checks the server behind the provider answers, before the first question (one sentence if not). */
  preflight?(options?: { signal?: AbortSignal }): Promise<void>;
  /**
   * An external system's identity (URL, and the name and version it reported at preflight), which
   * the run records and names itself after; absent for lme's own providers.
   */
  identity?(): ProviderIdentity;
};
