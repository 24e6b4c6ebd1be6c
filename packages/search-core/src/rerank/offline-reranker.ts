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
        best.set(candidate.sessionId, Math.max(best.get(candidate.sessionId) ?? Number.NEGATIVE_INFINITY, candidate.score));
      const own = minMax(candidates.map((candidate) => candidate.score));
      const session = minMax(
        candidates.map((candidate) => candidate.routes.session?.score ?? best.get(candidate.sessionId)!),
      );
      const scores = own.map((value, position) => (1 - weight) * value + weight * session[position]!);
      return { order: orderByScores(scores), scores, missing: [], usage: emptyRerankUsage() };
    },
  };
}

/** Scales to [0, 1]; all equal → all 1. */
export function minMax(values: readonly number[]): number[] {
  const low = Math.min(...values);
  const high = Math.max(...values);
  return values.map((value) => (high > low ? (value - low) / (high - low) : 1));
}
