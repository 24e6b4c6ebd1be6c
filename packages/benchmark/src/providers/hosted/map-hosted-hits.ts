import type { SearchHit } from '../http/protocol.js';

/** What an adapter read back from one result of a hosted search, before it is checked. */
export type HostedHitCandidate = {
  /** The opaque session id lme stored with the item (metadata, tag), if the result carries it. */
  sessionId?: unknown;
  /** The turn's position in its session, if the item was one turn. */
  turnIndex?: unknown;
  /** The service's relevance; the rank stands in when it gives none. */
  score?: unknown;
};

export type MappedHostedHits = {
  /** Hits in the service's order, one per session (or per turn at turn granularity). */
  hits: SearchHit[];
  /** Results whose stored metadata did not name a session (and turn) lme sent: left out, counted. */
  dropped: number;
};

/**
 * A hosted service's results → protocol hits, in the order the service ranked them. A result is
 * kept when it names the session it came from (and, at turn granularity, the turn); any other
 * (a memory the service derived without metadata, a fact with no episode lme added) is dropped and
 * counted. A session (or turn) already ranked is not ranked again. A result without a numeric
 * score gets `1 / rank`, so order is what counts.
 */
export function mapHostedHits(
  candidates: readonly HostedHitCandidate[],
  options: { granularity: 'session' | 'turn'; topK: number },
): MappedHostedHits {
  const hits: SearchHit[] = [];
  const seen = new Set<string>();
  let dropped = 0;
  candidates.forEach((candidate, rank) => {
    const sessionId = typeof candidate.sessionId === 'string' ? candidate.sessionId : '';
    const turnIndex = readTurnIndex(candidate.turnIndex);
    if (sessionId === '' || (options.granularity === 'turn' && turnIndex === undefined)) {
      dropped += 1;
      return;
    }
    const key = options.granularity === 'turn' ? `${sessionId}\u0000${turnIndex}` : sessionId;
    if (seen.has(key)) return;
    seen.add(key);
    const score =
      typeof candidate.score === 'number' && Number.isFinite(candidate.score)
        ? candidate.score
        : 1 / (rank + 1);
    hits.push({
      session_id: sessionId,
      ...(options.granularity === 'turn' && turnIndex !== undefined ? { turn_index: turnIndex } : {}),
      score,
    });
  });
  return { hits: hits.slice(0, options.topK), dropped };
}

/**
 * `mapHostedHits` for search after search of one adapter, keeping the count of results dropped
 * over all of them (what the adapter's `droppedHits` reports).
 */
export function createHostedHitMapper(): {
  /** The hits of one search (see `mapHostedHits`); its dropped results are added to the count. */
  map(
    candidates: readonly HostedHitCandidate[],
    options: { granularity: 'session' | 'turn'; topK: number },
  ): { hits: SearchHit[] };
  /** Results dropped so far, over all searches. */
  dropped(): number;
} {
  let dropped = 0;
  return {
    map(candidates, options) {
      const mapped = mapHostedHits(candidates, options);
      dropped += mapped.dropped;
      return { hits: mapped.hits };
    },
    dropped: () => dropped,
  };
}

/** A turn index stored as a number or as its decimal text (tags and some metadata are strings). */
function readTurnIndex(value: unknown): number | undefined {
  const number = typeof value === 'string' && /^\d{1,9}$/.test(value) ? Number(value) : value;
  return typeof number === 'number' && Number.isInteger(number) && number >= 0 ? number : undefined;
}

/** How many more results than hits an adapter asks for (see `resultsToAsk`). */
export const OVERFETCH = 3;

/**
 * How many results to ask a hosted service for when `topK` hits are wanted: several results often
 * map to one session (memories distilled from it, its turns) and some map to none, so the adapter
 * asks for `OVERFETCH` times as many, within the service's own limit, and keeps the first `topK`
 * distinct hits.
 */
export function resultsToAsk(topK: number, serviceMax: number): number {
  return Math.max(1, Math.min(serviceMax, topK * OVERFETCH));
}
