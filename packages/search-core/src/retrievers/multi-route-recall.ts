import { rankByScore } from '../core/rank-by-score.js';
import type { MemoryDocument, RetrievalHit } from '../core/retriever.js';
import { ranksOf } from './fusion.js';

/**
 * One route's score of every document of the corpus, in corpus order. A route that covers only
 * some documents (session-level BM25 in a corpus of sessions and turns) scores the others
 * `-Infinity`: they never enter its pool.
 */
export type RecallRoute = { name: string; scores: ArrayLike<number> };

/** The fused candidate pool for a final top K: `max(K × 4, 32)`. */
export function fusedPoolSize(finalK: number): number {
  return Math.max(finalK * 4, 32);
}

/** Candidates each route contributes for a final top K: `max(max(K × 4, 32) × 2, 40)`. */
export function routePoolSize(finalK: number): number {
  return Math.max(fusedPoolSize(finalK) * 2, 40);
}

export type MultiRouteRecallOptions = {
  routes: readonly RecallRoute[];
  documents: readonly MemoryDocument[];
  /** The RRF constant: a candidate earns 1 / (k + rank) from each route whose pool holds it. Default 60. */
  k?: number;
  /** The number of hits the pipeline finally returns (K); sizes the pools. */
  finalK: number;
};

export type MultiRouteRecallResult = {
  /** The fused pool (at most `max(K × 4, 32)` hits), best first; score = the RRF sum. */
  hits: RetrievalHit[];
  pools: {
    /** Candidates taken from each route: `max(max(K × 4, 32) × 2, 40)`. */
    route: number;
    /** Hits kept after fusion: `max(K × 4, 32)`. */
    fused: number;
    /** Distinct candidates pooled over all routes. */
    candidates: number;
  };
};

/**
 * Multi-route recall: each route contributes its top `max(max(K × 4, 32) × 2, 40)` documents; the
 * union is fused by reciprocal rank fusion (a candidate earns 1 / (k + rank in the route) from each
 * route whose pool holds it, nothing from the others), and the best `max(K × 4, 32)` form the pool
 * the later stages (signals, MMR, rerank) cut down to K. Each hit carries every covering route's
 * score and full-corpus rank and a `rrf` trace (the fused score and rank).
 */
export function multiRouteRecall(options: MultiRouteRecallOptions): MultiRouteRecallResult {
  const { routes, documents, finalK } = options;
  const k = options.k ?? 60;
  const routeSize = routePoolSize(finalK);
  const fusedSize = fusedPoolSize(finalK);
  for (const route of routes)
    if (route.scores.length !== documents.length)
      throw new Error(
        `multi-route recall: route ${route.name} scored ${route.scores.length} documents, expected ${documents.length}`,
      );

  const ranked = routes.map((route) => ({ ...route, ranks: ranksOf(route.scores) }));
  const fused = new Map<number, number>();
  for (const route of ranked) {
    for (const document of rankByScore(route.scores).slice(0, routeSize)) {
      if (!Number.isFinite(route.scores[document]!)) continue;
      fused.set(document, (fused.get(document) ?? 0) + 1 / (k + route.ranks[document]!));
    }
  }
  const order = [...fused.entries()].sort((left, right) => right[1] - left[1] || left[0] - right[0]);
  const hits = order.slice(0, fusedSize).map(([index, score], position): RetrievalHit => {
    const document = documents[index]!;
    const traces: RetrievalHit['routes'] = {};
    for (const route of ranked)
      if (Number.isFinite(route.scores[index]!))
        traces[route.name] = { score: route.scores[index]!, rank: route.ranks[index]! };
    traces['rrf'] = { score, rank: position + 1 };
    return { document: index, id: document.id, sessionId: document.sessionId, score, routes: traces };
  });
  return { hits, pools: { route: routeSize, fused: fusedSize, candidates: fused.size } };
}

/** Turn support added to a session's score is capped here. */
export const SESSION_SUPPORT_CAP = 0.12;
/** Share of the best turn's RRF score given to its session as support. */
export const SESSION_SUPPORT_WEIGHT = 0.6;

export type SessionFirstOptions = {
  /**
   * Fused hits over a corpus holding both session-level documents (no `turnIndex`: whole sessions,
   * summaries) and turns (with `turnIndex`), e.g. the hits of `multiRouteRecall`.
   */
  fusedHits: readonly RetrievalHit[];
  documents: readonly MemoryDocument[];
  /** Session-level scores from elsewhere (a session stage), merged with the hits' by maximum. */
  sessionScores?: ReadonlyMap<string, number>;
  /** Default 0.12. */
  supportCap?: number;
  /** Default 0.6. */
  supportWeight?: number;
  /** How many sessions to return; all by default. */
  limit?: number;
};

/**
 * Session-first mode: sessions are the unit returned. A session's score is its best
 * session-level score plus a bounded support from its best turn:
 * `score = best_session_score + min(0.12, 0.6 × best_turn_rrf)` (a session with no session-level
 * hit starts from 0; one with no turn hit gets no support). Each session hit has the session id as
 * `id`, points at its best session-level document (else its best turn), and carries traces
 * `session_best`, `turn_support` and `best_turn` (score = the turn's RRF score, rank = its rank
 * among the fused hits).
 */
export function sessionFirst(options: SessionFirstOptions): RetrievalHit[] {
  const { fusedHits, documents } = options;
  const cap = options.supportCap ?? SESSION_SUPPORT_CAP;
  const weight = options.supportWeight ?? SESSION_SUPPORT_WEIGHT;
  type Session = {
    sessionId: string;
    best?: { score: number; document: number };
    turn?: { score: number; document: number; rank: number };
    order: number;
  };
  const sessions = new Map<string, Session>();
  const sessionOf = (sessionId: string) => {
    let session = sessions.get(sessionId);
    if (!session) {
      session = { sessionId, order: sessions.size };
      sessions.set(sessionId, session);
    }
    return session;
  };
  fusedHits.forEach((hit, position) => {
    const document = documents[hit.document];
    if (!document) throw new Error(`session-first: hit ${hit.id} points at no document (${hit.document})`);
    const session = sessionOf(hit.sessionId);
    if (document.turnIndex === undefined) {
      if (!session.best || hit.score > session.best.score)
        session.best = { score: hit.score, document: hit.document };
    } else if (!session.turn || hit.score > session.turn.score) {
      session.turn = { score: hit.score, document: hit.document, rank: position + 1 };
    }
  });
  for (const [sessionId, score] of options.sessionScores ?? []) {
    const session = sessionOf(sessionId);
    if (!session.best || score > session.best.score) {
      const document = documents.findIndex(
        (candidate) => candidate.sessionId === sessionId && candidate.turnIndex === undefined,
      );
      session.best = { score, document: document >= 0 ? document : (session.best?.document ?? -1) };
    }
  }

  const scored = [...sessions.values()].flatMap((session) => {
    const best = session.best?.score ?? 0;
    const support = session.turn ? Math.min(cap, weight * session.turn.score) : 0;
    let document = session.best?.document ?? -1;
    if (document < 0) document = session.turn?.document ?? -1;
    if (document < 0)
      document = documents.findIndex((candidate) => candidate.sessionId === session.sessionId);
    if (document < 0) return [];
    const routes: RetrievalHit['routes'] = {
      session_best: { score: best, rank: 0 },
      turn_support: { score: support, rank: 0 },
    };
    if (session.turn) routes['best_turn'] = { score: session.turn.score, rank: session.turn.rank };
    return [
      {
        hit: { document, id: session.sessionId, sessionId: session.sessionId, score: best + support, routes },
        order: session.order,
      },
    ];
  });
  scored.sort((left, right) => right.hit.score - left.hit.score || left.order - right.order);
  const ranked = scored.map(({ hit }) => hit);
  // Ranks of the two parts among the sessions, for explain.
  for (const name of ['session_best', 'turn_support'] as const) {
    const ranks = ranksOf(ranked.map((hit) => hit.routes[name]!.score));
    ranked.forEach((hit, position) => {
      hit.routes[name]!.rank = ranks[position]!;
    });
  }
  return ranked.slice(0, options.limit ?? ranked.length);
}
