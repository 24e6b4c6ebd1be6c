import type { MemoryDocument, RetrievalHit } from '../core/retriever.js';
import type { SessionSummary, Summarizer } from '../core/summarizer.js';
import type { Bm25Feedback } from '../lexical/bm25-feedback.js';
import type { Bm25Options } from '../lexical/bm25-index.js';
import type { Tokenizer } from '../lexical/tokenizer.js';
import type { DenseScorer } from './dense-scorer.js';
import type { Fusion } from './fusion.js';

/** What stage 1 ranks sessions by: their text, their summaries, or both. */
export type SessionIndexKind = 'summary' | 'text' | 'both';

/**
 * Reorders the session-aware retriever's merged stage-2 turns before its final cut (a
 * cross-encoder, an LLM, …); `createSessionTurnReranker` (rerank/) backs it by a CandidateReranker.
 */
export type SessionTurnReranker = (options: {
  query: string;
  candidates: readonly RetrievalHit[];
  documents: readonly MemoryDocument[];
  signal?: AbortSignal;
}) => Promise<RetrievalHit[]>;

export type SessionAwareOptions = {
  tokenizer: Tokenizer;
  /** Dense scoring of the turn documents; without it both stages are lexical. */
  dense?: DenseScorer;
  summarizer?: Summarizer;
  sessionIndex: SessionIndexKind;
  topSessions: number;
  turnsPerSession: number;
  finalTopK: number;
  /** Fusion of the turn-level routes (bm25, dense) in stage 2. */
  fusion: Fusion;
  /**
   * Weights of the stage-1 session signals (min-max normalised): `text` BM25 over the session's
   * text, `dense` the best cosine of the query with one of its turns, `summary` BM25 over its
   * summary, `centroid` cosine with the summary's embedding (the centroid of the turn vectors).
   * Defaults: SESSION_WEIGHTS[sessionIndex].
   */
  sessionWeights?: Partial<SessionWeights>;
  turnReranker?: SessionTurnReranker;
  namespace: string;
  /** Weight of a turn's neighbour turns in its dense score, both stages (neighbour-turns.ts); unset: 0. */
  denseNeighbours?: number;
  /**
   * Stage 1: sessions dated inside the span the question names gain this share of the session
   * score spread (time-boost.ts); 0 or unset: off. Stage 2 ranks turns by content alone.
   */
  timeBoost?: number;
  /** BM25's k1 and b, for every BM25 index of both stages; unset: rank_bm25's 1.5 and 0.75. */
  bm25?: Bm25Options;
  /**
   * Stage 1: the session-text BM25 query expanded by the terms of the first session ranking's
   * top sessions (bm25-feedback.ts); unset: off.
   */
  bm25Feedback?: Bm25Feedback;
};

export type SessionAwareResult = {
  /** Turn hits: the best turns of the top sessions, merged by score and cut to finalTopK. */
  hits: RetrievalHit[];
  /** Every session id in stage-1 order (sessions with no surviving turn keep their rank). */
  sessionOrder: string[];
  summaries: readonly SessionSummary[];
};

export type SessionWeights = Record<'text' | 'dense' | 'summary' | 'centroid', number>;

/**
 * Stage-1 weights per session index. `text`: session text BM25 0.3 + best-turn dense 0.7, the
 * best pair measured on LongMemEval S (session recall_all@5 0.953 with USE-lite);
 * `summary`: the summary's BM25 and embedding in the same proportion; `both`: mostly text.
 */
export const SESSION_WEIGHTS: Record<SessionIndexKind, SessionWeights> = {
  text: { text: 0.3, dense: 0.7, summary: 0, centroid: 0 },
  summary: { text: 0, dense: 0, summary: 0.3, centroid: 0.7 },
  both: { text: 0.25, dense: 0.6, summary: 0.05, centroid: 0.1 },
};
