import { rankByScore } from '../core/rank-by-score.js';
import type { MemoryDocument, RetrievalHit, Retriever, SearchOptions } from '../core/retriever.js';
import type { SessionSummary, Summarizer } from '../core/summarizer.js';
import { centroid, dot } from '../core/vector-math.js';
import { type Bm25Feedback, bm25FeedbackScores } from '../lexical/bm25-feedback.js';
import { type Bm25Options, createBm25Index } from '../lexical/bm25-index.js';
import type { Tokenizer } from '../lexical/tokenizer.js';
import { rankWithBm25Feedback } from './bm25-feedback-pass.js';
import type { DenseScorer } from './dense-scorer.js';
import { type Fusion, fuseScores, type RouteScores, ranksOf } from './fusion.js';
import { smoothWithNeighbours } from './neighbour-turns.js';
import { boostInScope, datesInScope, parseDates } from './time-boost.js';

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

/** The indexed haystack grouped into sessions, and the indexes both stages search. */
type SessionIndex = {
  documents: readonly MemoryDocument[];
  sessionIds: string[];
  /** The documents (turns) of each session, in order. */
  turnsOf: number[][];
  sessionDates: (Date | undefined)[];
  summaries: SessionSummary[];
  turnIndex: ReturnType<typeof createBm25Index>;
  textIndex?: ReturnType<typeof createBm25Index>;
  summaryIndex?: ReturnType<typeof createBm25Index>;
  centroids: Float32Array[];
};

/** Stage 1's outcome: every session's fused score and rank, and the signals behind them. */
type SessionRanking = {
  routes: RouteScores[];
  scores: ArrayLike<number>;
  order: number[];
  rank: Int32Array;
  inScope: ArrayLike<number> | undefined;
};

/**
 * Two-stage retrieval: stage 1 ranks whole sessions (text and/or summary BM25, plus the dense
 * centroid of their turns), stage 2 ranks the turns inside each of the top sessions by a filtered
 * search (BM25 and dense fused), keeps the best few per session, then merges and cuts them to the
 * final top k, optionally through a turn reranker. Stage scores travel on every hit for `explain`.
 */
export function createSessionAwareRetriever(options: SessionAwareOptions): Retriever & {
  searchSessions(search: SearchOptions): Promise<SessionAwareResult>;
} {
  const { dense } = options;
  const weights = { ...SESSION_WEIGHTS[options.sessionIndex], ...options.sessionWeights };
  if (!dense) {
    weights.dense = 0;
    weights.centroid = 0;
  }
  if (weights.summary > 0 && !options.summarizer)
    throw new Error('session-aware retriever: a summary index needs a summarizer');

  let index: SessionIndex | undefined;

  async function searchSessions(search: SearchOptions): Promise<SessionAwareResult> {
    if (!index) throw new Error('session-aware retriever: search before index');
    const terms = options.tokenizer.tokenize(search.query);
    const sessions = await rankSessions(options, weights, index, search, terms);
    const top = sessions.order.slice(0, options.topSessions);
    let merged = await rankTurns(options, index, sessions, top, search, terms);
    if (options.turnReranker)
      merged = await options.turnReranker({
        query: search.query,
        candidates: merged,
        documents: index.documents,
        signal: search.signal,
      });
    return {
      hits: merged.slice(0, options.finalTopK),
      sessionOrder: sessions.order.map((session) => index!.sessionIds[session]!),
      summaries: index.summaries,
    };
  }

  return {
    id: `session-aware:${options.sessionIndex}`,
    async index({ documents, signal }) {
      index = await indexSessions(options, weights, documents, signal);
    },
    async search(search) {
      return (await searchSessions(search)).hits.slice(0, search.limit);
    },
    searchSessions,
    close: async () => dense?.drop(),
  };
}

/** Groups the documents into sessions and builds the turn, session-text and summary indexes and the dense centroids. */
async function indexSessions(
  options: SessionAwareOptions,
  weights: SessionWeights,
  documents: readonly MemoryDocument[],
  signal: AbortSignal | undefined,
): Promise<SessionIndex> {
  const { tokenizer, dense } = options;
  // Dense first: a remote vector store stores the vectors while the lexical indexes are built.
  if (dense) await dense.index({ documents, namespace: options.namespace, signal });
  const position = new Map<string, number>();
  const sessionIds: string[] = [];
  const turnsOf: number[][] = [];
  documents.forEach((document, index) => {
    let session = position.get(document.sessionId);
    if (session === undefined) {
      session = sessionIds.length;
      position.set(document.sessionId, session);
      sessionIds.push(document.sessionId);
      turnsOf.push([]);
    }
    turnsOf[session]!.push(index);
  });
  const sessionDates = options.timeBoost
    ? parseDates(turnsOf.map((turns) => documents[turns[0]!]!.date))
    : [];
  const turnIndex = createBm25Index(
    documents.map((document) => tokenizer.tokenize(document.text)),
    options.bm25,
  );
  const sessionText = turnsOf.map((turns) => turns.map((document) => documents[document]!.text).join(' '));
  const textIndex =
    weights.text > 0
      ? createBm25Index(
          sessionText.map((text) => tokenizer.tokenize(text)),
          options.bm25,
        )
      : undefined;
  let summaries: SessionSummary[] = [];
  let summaryIndex: ReturnType<typeof createBm25Index> | undefined;
  if (options.summarizer) {
    summaries = await options.summarizer.summarize({
      sessions: turnsOf.map((turns, session) => ({
        sessionId: sessionIds[session]!,
        date: documents[turns[0]!]!.date ?? '',
        turns: turns.map((document) => ({
          role: documents[document]!.role === 'assistant' ? 'assistant' : 'user',
          content: documents[document]!.text,
        })),
      })),
      signal,
    });
    summaryIndex = createBm25Index(
      summaries.map((summary) =>
        tokenizer.tokenize([summary.topics.join(' '), summary.text, summary.entities.join(' ')].join(' ')),
      ),
      options.bm25,
    );
  }
  let centroids: Float32Array[] = [];
  if (dense) {
    const vectors = dense.vectors();
    centroids = turnsOf.map((turns) =>
      centroid(
        turns.map((document) => vectors[document]!),
        vectors[0]?.length ?? 0,
      ),
    );
  }
  return {
    documents,
    sessionIds,
    turnsOf,
    sessionDates,
    summaries,
    turnIndex,
    ...(textIndex ? { textIndex } : {}),
    ...(summaryIndex ? { summaryIndex } : {}),
    centroids,
  };
}

/** Stage 1: every session scored by its signals (text, summary, best-turn dense, centroid), fused, time-boosted. */
async function rankSessions(
  options: SessionAwareOptions,
  weights: SessionWeights,
  index: SessionIndex,
  { query, queryDate, signal }: SearchOptions,
  terms: string[],
): Promise<SessionRanking> {
  const { dense } = options;
  const routes: RouteScores[] = [];
  if (weights.text > 0) routes.push({ route: 'text', scores: index.textIndex!.scores(terms) });
  if (weights.summary > 0) routes.push({ route: 'summary', scores: index.summaryIndex!.scores(terms) });
  if (weights.dense > 0) {
    const turnScores = smoothWithNeighbours(
      await dense!.scoreAll({ query, signal }),
      index.documents,
      options.denseNeighbours ?? 0,
    );
    routes.push({
      route: 'dense',
      scores: index.turnsOf.map((turns) => Math.max(...turns.map((document) => turnScores[document]!))),
    });
  }
  if (weights.centroid > 0) {
    const queryVector = await dense!.queryVector(query, signal);
    routes.push({ route: 'centroid', scores: index.centroids.map((vector) => dot(vector, queryVector)) });
  }
  // Stage 1 keeps the session weights; a weighted or CombMNZ fusion lends its normalisation and adaptivity.
  const sessionFusion: Fusion =
    options.fusion.kind === 'rrf' ? { kind: 'weighted', weights } : { ...options.fusion, weights };
  const inScope = options.timeBoost ? datesInScope(query, queryDate, index.sessionDates) : undefined;
  const { scores, order } = rankWithBm25Feedback({
    routes,
    route: 'text',
    feedback: options.bm25Feedback,
    rescore: (ranking, feedback) => bm25FeedbackScores(index.textIndex!, terms, ranking, feedback),
    fuse: () => boostInScope(fuseScores(routes, sessionFusion), inScope, options.timeBoost ?? 0),
  });
  const rank = new Int32Array(index.sessionIds.length);
  order.forEach((session, position) => {
    rank[session] = position + 1;
  });
  return { routes, scores, order, rank, inScope };
}

/**
 * Stage 2: the turns of the top sessions ranked by turn BM25 and dense (fused), the best
 * `turnsPerSession` of each session kept, merged by score; each hit carries both stages' scores.
 */
async function rankTurns(
  options: SessionAwareOptions,
  index: SessionIndex,
  sessions: SessionRanking,
  top: readonly number[],
  { query, signal }: SearchOptions,
  terms: string[],
): Promise<RetrievalHit[]> {
  const { dense } = options;
  const { documents, turnsOf } = index;
  const candidates = top.flatMap((session) => turnsOf[session]!);
  const turnRoutes: RouteScores[] = [];
  const bm25All = index.turnIndex.scores(terms);
  turnRoutes.push({ route: 'bm25', scores: candidates.map((document) => bm25All[document]!) });
  if (dense) {
    const denseAll = smoothWithNeighbours(
      await dense.scoreAll({ query, sessionIds: top.map((session) => index.sessionIds[session]!), signal }),
      documents,
      options.denseNeighbours ?? 0,
    );
    turnRoutes.push({ route: 'dense', scores: candidates.map((document) => denseAll[document]!) });
  }
  const turnScores = turnRoutes.length === 1 ? turnRoutes[0]!.scores : fuseScores(turnRoutes, options.fusion);
  const turnRanks = turnRoutes.map((route) => ({ ...route, ranks: ranksOf(route.scores) }));
  const sessionOf = new Map<number, number>();
  for (const session of top) for (const document of turnsOf[session]!) sessionOf.set(document, session);

  const perSession = new Map<number, number[]>();
  for (const position of rankByScore(turnScores)) {
    const session = sessionOf.get(candidates[position]!)!;
    const kept = perSession.get(session) ?? [];
    if (kept.length < options.turnsPerSession) kept.push(position);
    perSession.set(session, kept);
  }
  const merged: RetrievalHit[] = [...perSession.values()].flat().map((position) => {
    const document = candidates[position]!;
    const session = sessionOf.get(document)!;
    const routes: RetrievalHit['routes'] = {
      session: { score: sessions.scores[session]!, rank: sessions.rank[session]! },
    };
    for (const route of sessions.routes)
      routes[`session_${route.route}`] = { score: route.scores[session]!, rank: 0 };
    if (sessions.inScope) routes.session_time = { score: sessions.inScope[session]!, rank: 0 };
    for (const route of turnRanks)
      routes[route.route] = { score: route.scores[position]!, rank: route.ranks[position]! };
    return {
      document,
      id: documents[document]!.id,
      sessionId: documents[document]!.sessionId,
      score: turnScores[position]!,
      routes,
    };
  });
  merged.sort((left, right) => right.score - left.score || left.document - right.document);
  return merged;
}
