import { rankByScore } from '../core/rank-by-score.js';
import type { RetrievalHit, SearchOptions } from '../core/retriever.js';
import { dot } from '../core/vector-math.js';
import { bm25FeedbackScores } from '../lexical/bm25-feedback.js';
import { rankWithBm25Feedback } from './bm25-feedback-pass.js';
import { type Fusion, fuseScores, type RouteScores, ranksOf } from './fusion.js';
import { smoothWithNeighbours } from './neighbour-turns.js';
import type { SessionAwareOptions, SessionWeights } from './session-aware-options.js';
import type { SessionIndex } from './session-index.js';
import { boostInScope, datesInScope } from './time-boost.js';

/** Stage 1's outcome: every session's fused score and rank, and the signals behind them. */
export type SessionRanking = {
  routes: RouteScores[];
  scores: ArrayLike<number>;
  order: number[];
  rank: Int32Array;
  inScope: ArrayLike<number> | undefined;
};

/** Stage 1: every session scored by its signals (text, summary, best-turn dense, centroid), fused, time-boosted. */
export async function rankSessions(
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
export async function rankTurns(
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
