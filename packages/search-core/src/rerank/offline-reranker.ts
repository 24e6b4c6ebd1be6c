import { type CandidateReranker, emptyRerankUsage, orderByScores, type RerankRequest } from './reranker.js';

export type SessionPriorRerankerOptions = {
  /** Weight of the session score against the turn's own score (both min-max normalised). Default 0.3. */
  sessionWeight?: number;
};

/**
 * An offline reranker from the parts the base retriever already computed: a candidate turn is
 * scored by its own (incoming) score and its session's score, both min-max normalised over the
 * candidates. The session score is the stage-1 score a session-aware base records in the
 * `session` route; for other bases, the best incoming score among the candidates of the same
 * session (how strongly the session as a whole matched). No model call.
 */
export function createSessionPriorReranker(options: SessionPriorRerankerOptions = {}): CandidateReranker {
  const weight = options.sessionWeight ?? 0.3;
  return {
    id: `offline:session-prior${options.sessionWeight === undefined ? '' : `@${weight}`}`,
    async rerank({ candidates }: RerankRequest) {
      const best = new Map<string, number>();
      for (const candidate of candidates)
        best.set(
          candidate.sessionId,
          Math.max(best.get(candidate.sessionId) ?? Number.NEGATIVE_INFINITY, candidate.score),
        );
      const own = minMax(candidates.map((candidate) => candidate.score));
      const session = minMax(
        candidates.map((candidate) => candidate.routes.session?.score ?? best.get(candidate.sessionId)!),
      );
      const scores = own.map((value, position) => (1 - weight) * value + weight * session[position]!);
      return { order: orderByScores(scores), scores, missing: [], usage: emptyRerankUsage() };
    },
  };
}

/**
 * An offline reranker that interleaves sessions: the best candidate of every session first (the
 * sessions in order of their score: the `session` route's stage-1 score, else their best
 * candidate), then every session's second best, and so on. Meant for questions whose evidence is
 * spread over sessions, which a cut by turn score fills with one session's turns. No model call.
 */
export function createSessionInterleaveReranker(): CandidateReranker {
  return {
    id: 'offline:interleave',
    async rerank({ candidates }: RerankRequest) {
      const sessionScore = new Map<string, number>();
      for (const candidate of candidates) {
        const score = candidate.routes.session?.score ?? candidate.score;
        sessionScore.set(
          candidate.sessionId,
          Math.max(sessionScore.get(candidate.sessionId) ?? Number.NEGATIVE_INFINITY, score),
        );
      }
      const sessions = [...sessionScore.entries()]
        .sort((left, right) => right[1] - left[1])
        .map(([id]) => id);
      const sessionRank = new Map(sessions.map((id, rank) => [id, rank]));
      const within = new Map<string, number>();
      const byScore = orderByScores(candidates.map((candidate) => candidate.score));
      const depth = new Array<number>(candidates.length);
      for (const position of byScore) {
        const session = candidates[position]!.sessionId;
        depth[position] = within.get(session) ?? 0;
        within.set(session, depth[position]! + 1);
      }
      const order = candidates
        .map((_, position) => position)
        .sort(
          (left, right) =>
            depth[left]! - depth[right]! ||
            sessionRank.get(candidates[left]!.sessionId)! - sessionRank.get(candidates[right]!.sessionId)! ||
            left - right,
        );
      const scores = new Array<number>(candidates.length);
      order.forEach((position, rank) => {
        scores[position] = 1 - rank / candidates.length;
      });
      return { order, scores, missing: [], usage: emptyRerankUsage() };
    },
  };
}

/** Scales to [0, 1]; all equal → all 1. */
export function minMax(values: readonly number[]): number[] {
  const low = Math.min(...values);
  const high = Math.max(...values);
  return values.map((value) => (high > low ? (value - low) / (high - low) : 1));
}
