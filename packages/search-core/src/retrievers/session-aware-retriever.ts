import { rankByScore } from '../core/rank-by-score.js';
import type { MemoryDocument, RetrievalHit, Retriever, SearchOptions } from '../core/retriever.js';
import type { SessionSummary, Summarizer } from '../core/summarizer.js';
import { centroid, dot } from '../core/vector-math.js';
import { createBm25Index } from '../lexical/bm25-index.js';
import type { Tokenizer } from '../lexical/tokenizer.js';
import type { DenseScorer } from './dense-scorer.js';
import { type Fusion, fuseScores, type RouteScores, ranksOf } from './fusion.js';
import { smoothWithNeighbours } from './neighbour-turns.js';
import { boostInScope, datesInScope, parseDates } from './time-boost.js';

/** What stage 1 ranks sessions by: their text, their summaries, or both. */
export type SessionIndexKind = 'summary' | 'text' | 'both';

/** Reorders the merged candidates before the final cut (a cross-encoder, an LLM, …). */
export type Reranker = (options: {
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
  reranker?: Reranker;
  namespace: string;
  /** Weight of a turn's neighbour turns in its dense score, both stages (neighbour-turns.ts); unset: 0. */
  denseNeighbours?: number;
  /**
   * Stage 1: sessions dated inside the span the question names gain this share of the session
   * score spread (time-boost.ts); 0 or unset: off. Stage 2 ranks turns by content alone.
   */
  timeBoost?: number;
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

/**
 * Two-stage retrieval: stage 1 ranks whole sessions (text and/or summary BM25, plus the dense
 * centroid of their turns), stage 2 ranks the turns inside each of the top sessions by a filtered
 * search (BM25 and dense fused), keeps the best few per session, then merges and cuts them to the
 * final top k, optionally through a reranker. Stage scores travel on every hit for `explain`.
 */
export function createSessionAwareRetriever(options: SessionAwareOptions): Retriever & {
  searchSessions(search: SearchOptions): Promise<SessionAwareResult>;
} {
  const { tokenizer, dense, fusion, namespace } = options;
  const weights = { ...SESSION_WEIGHTS[options.sessionIndex], ...options.sessionWeights };
  if (!dense) {
    weights.dense = 0;
    weights.centroid = 0;
  }
  if (weights.summary > 0 && !options.summarizer)
    throw new Error('session-aware retriever: a summary index needs a summarizer');

  let documents: readonly MemoryDocument[] = [];
  let sessionIds: string[] = [];
  let turnsOf: number[][] = [];
  let sessionDates: (Date | undefined)[] = [];
  let summaries: SessionSummary[] = [];
  let turnIndex: ReturnType<typeof createBm25Index> | undefined;
  let textIndex: ReturnType<typeof createBm25Index> | undefined;
  let summaryIndex: ReturnType<typeof createBm25Index> | undefined;
  let centroids: Float32Array[] = [];

  async function searchSessions({ query, queryDate, signal }: SearchOptions): Promise<SessionAwareResult> {
    if (!turnIndex) throw new Error('session-aware retriever: search before index');
    const terms = tokenizer.tokenize(query);

    // Stage 1: sessions.
    const sessionRoutes: RouteScores[] = [];
    if (weights.text > 0) sessionRoutes.push({ route: 'text', scores: textIndex!.scores(terms) });
    if (weights.summary > 0) sessionRoutes.push({ route: 'summary', scores: summaryIndex!.scores(terms) });
    if (weights.dense > 0) {
      const turnScores = smoothWithNeighbours(
        await dense!.scoreAll({ query, signal }),
        documents,
        options.denseNeighbours ?? 0,
      );
      sessionRoutes.push({
        route: 'dense',
        scores: turnsOf.map((turns) => Math.max(...turns.map((document) => turnScores[document]!))),
      });
    }
    if (weights.centroid > 0) {
      const queryVector = await dense!.queryVector(query, signal);
      sessionRoutes.push({ route: 'centroid', scores: centroids.map((vector) => dot(vector, queryVector)) });
    }
    // Stage 1 keeps the session weights; a weighted or CombMNZ fusion lends its normalisation and adaptivity.
    const sessionFusion: Fusion =
      options.fusion.kind === 'rrf' ? { kind: 'weighted', weights } : { ...options.fusion, weights };
    const inScope = options.timeBoost ? datesInScope(query, queryDate, sessionDates) : undefined;
    const sessionScores = boostInScope(
      fuseScores(sessionRoutes, sessionFusion),
      inScope,
      options.timeBoost ?? 0,
    );
    const sessionOrder = rankByScore(sessionScores);
    const sessionRank = new Int32Array(sessionIds.length);
    sessionOrder.forEach((session, rank) => {
      sessionRank[session] = rank + 1;
    });
    const top = sessionOrder.slice(0, options.topSessions);

    // Stage 2: turns inside the top sessions only.
    const candidates = top.flatMap((session) => turnsOf[session]!);
    const turnRoutes: RouteScores[] = [];
    const bm25All = turnIndex.scores(terms);
    turnRoutes.push({ route: 'bm25', scores: candidates.map((document) => bm25All[document]!) });
    if (dense) {
      const denseAll = smoothWithNeighbours(
        await dense.scoreAll({ query, sessionIds: top.map((session) => sessionIds[session]!), signal }),
        documents,
        options.denseNeighbours ?? 0,
      );
      turnRoutes.push({ route: 'dense', scores: candidates.map((document) => denseAll[document]!) });
    }
    const turnScores = turnRoutes.length === 1 ? turnRoutes[0]!.scores : fuseScores(turnRoutes, fusion);
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
    let merged: RetrievalHit[] = [...perSession.values()].flat().map((position) => {
      const document = candidates[position]!;
      const session = sessionOf.get(document)!;
      const routes: RetrievalHit['routes'] = {
        session: { score: sessionScores[session]!, rank: sessionRank[session]! },
      };
      for (const route of sessionRoutes)
        routes[`session_${route.route}`] = { score: route.scores[session]!, rank: 0 };
      if (inScope) routes.session_time = { score: inScope[session]!, rank: 0 };
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
    if (options.reranker) merged = await options.reranker({ query, candidates: merged, documents, signal });
    return {
      hits: merged.slice(0, options.finalTopK),
      sessionOrder: sessionOrder.map((session) => sessionIds[session]!),
      summaries,
    };
  }

  return {
    id: `session-aware:${options.sessionIndex}`,
    async index({ documents: indexed, signal }) {
      documents = indexed;
      const position = new Map<string, number>();
      sessionIds = [];
      turnsOf = [];
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
      sessionDates = options.timeBoost ? parseDates(turnsOf.map((turns) => documents[turns[0]!]!.date)) : [];
      turnIndex = createBm25Index(documents.map((document) => tokenizer.tokenize(document.text)));
      const sessionText = turnsOf.map((turns) =>
        turns.map((document) => documents[document]!.text).join(' '),
      );
      if (weights.text > 0) textIndex = createBm25Index(sessionText.map((text) => tokenizer.tokenize(text)));
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
            tokenizer.tokenize(
              [summary.topics.join(' '), summary.text, summary.entities.join(' ')].join(' '),
            ),
          ),
        );
      }
      if (dense) {
        await dense.index({ documents, namespace, signal });
        const vectors = dense.vectors();
        centroids = turnsOf.map((turns) =>
          centroid(
            turns.map((document) => vectors[document]!),
            vectors[0]?.length ?? 0,
          ),
        );
      }
    },
    async search(search) {
      return (await searchSessions(search)).hits.slice(0, search.limit);
    },
    searchSessions,
    close: async () => dense?.drop(),
  };
}
