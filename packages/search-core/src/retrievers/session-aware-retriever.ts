import type { Retriever, SearchOptions } from '../core/retriever.js';
import {
  SESSION_WEIGHTS,
  type SessionAwareOptions,
  type SessionAwareResult,
} from './session-aware-options.js';
import { indexSessions, type SessionIndex } from './session-index.js';
import { rankSessions, rankTurns } from './session-stages.js';

export * from './session-aware-options.js';

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
