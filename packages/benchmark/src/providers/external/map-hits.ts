import type { RetrievalHit } from '@lme/search-core';
import type { Corpus, Granularity } from '../../benchmarks/build-corpus.js';
import type { SearchHit } from '../http/protocol.js';

/**
 * Server hits → document indices of the corpus, in rank order. A session id held by two haystack
 * sessions (the repeated sessions of S) ranks both copies at its first hit, as in-process
 * rankings do; later hits on an already ranked document are skipped. Hits carry the route `where.route`
 * (the provider's name). At session granularity turn
 * hits count for their session. A hit outside the haystack fails, naming it and `where`.
 */
export function mapHits(
  serverHits: readonly SearchHit[],
  corpus: Corpus,
  granularity: Granularity,
  where: { context: string; request: string; route: string },
): { ranking: number[]; hits: RetrievalHit[] } {
  const byId = new Map<string, number[]>();
  corpus.documents.forEach((document, index) => {
    const list = byId.get(document.id);
    if (list) list.push(index);
    else byId.set(document.id, [index]);
  });
  const ranking: number[] = [];
  const hits: RetrievalHit[] = [];
  const ranked = new Set<number>();
  serverHits.forEach((hit, position) => {
    let id: string;
    if (granularity === 'session') {
      id = hit.session_id;
    } else {
      if (hit.turn_index === undefined) {
        throw new Error(
          `${where.context}${where.request} returned hit ${position} (session_id "${hit.session_id}") without turn_index; turn granularity needs one.`,
        );
      }
      id = `${hit.session_id}_${hit.turn_index + 1}`;
    }
    const indices = byId.get(id);
    if (!indices) {
      const what =
        granularity === 'session'
          ? `session_id "${hit.session_id}"`
          : `session_id "${hit.session_id}" turn_index ${hit.turn_index}`;
      throw new Error(
        `${where.context}${where.request} returned ${what}, which is not ${granularity === 'session' ? 'a session' : 'an indexed turn'} of the question's haystack.`,
      );
    }
    for (const index of indices) {
      if (ranked.has(index)) continue;
      ranked.add(index);
      ranking.push(index);
      const document = corpus.documents[index]!;
      hits.push({
        document: index,
        id: document.id,
        sessionId: document.sessionId,
        score: hit.score,
        routes: { [where.route]: { score: hit.score, rank: position + 1 } },
      });
    }
  });
  return { ranking, hits };
}
