import type { MemoryDocument, RetrievalHit, Retriever, SearchOptions } from '../core/retriever.js';
import { createBm25Index } from '../lexical/bm25-index.js';
import type { Tokenizer } from '../lexical/tokenizer.js';
import type { DenseScorer } from './dense-scorer.js';
import {
  type MultiRouteRecallResult,
  multiRouteRecall,
  type RecallRoute,
  sessionFirst,
} from './multi-route-recall.js';

export type MultiRouteRetrieverOptions = {
  tokenizer: Tokenizer;
  /** Dense scoring of the turns; without it the turn routes are lexical only. */
  dense?: DenseScorer;
  /** The RRF constant. Default 60. */
  k?: number;
  /** The number of hits the pipeline finally returns (K); sizes the pools. */
  finalK: number;
  /** Rank sessions by `sessionFirst` (session score + bounded turn support) instead of first appearance. */
  sessionFirst?: boolean;
  /** Keeps haystacks apart in a shared vector store. */
  namespace: string;
};

export type MultiRouteSearchResult = {
  /** The turns of the fused pool in RRF order (a prefix of the haystack's turns). */
  hits: RetrievalHit[];
  /** Session ids in rank order: the sessions the fused pool holds. */
  sessionOrder: string[];
  /** The fused pool itself: turns and session documents (index ≥ the number of turns). */
  fused: RetrievalHit[];
  pools: MultiRouteRecallResult['pools'];
};

/**
 * Multi-route recall over one haystack of turn documents. Three routes, each scoring its own
 * level: `turn_bm25` (BM25 over the turns), `turn_dense` (cosine with each turn, when a dense scorer
 * is given) and `session_bm25` (BM25 over each session's turns joined, a session-level document
 * added after the turns). The routes' pools are fused by RRF (`multiRouteRecall`) into a pool of
 * `max(K × 4, 32)` hits. `search` returns the pool's turns in RRF order; the session order is the
 * order in which sessions first appear in the pool (a session document or one of its turns) or,
 * with `sessionFirst`, the `sessionFirst` ranking (best session-level RRF score plus a bounded
 * support from its best turn), whose session score and rank each turn hit carries as `session_first`.
 */
export function createMultiRouteRetriever(options: MultiRouteRetrieverOptions): Retriever & {
  searchSessions(search: SearchOptions): Promise<MultiRouteSearchResult>;
} {
  const { tokenizer, dense, namespace } = options;
  let turns: readonly MemoryDocument[] = [];
  let corpus: MemoryDocument[] = [];
  let turnIndex: ReturnType<typeof createBm25Index> | undefined;
  let sessionIndex: ReturnType<typeof createBm25Index> | undefined;

  /** Scores of one level placed into a full-corpus array (other documents: -Infinity). */
  const placed = (scores: ArrayLike<number>, offset: number) => {
    const full = new Float64Array(corpus.length).fill(Number.NEGATIVE_INFINITY);
    for (let index = 0; index < scores.length; index++) full[offset + index] = scores[index]!;
    return full;
  };

  async function searchSessions({ query, signal }: SearchOptions): Promise<MultiRouteSearchResult> {
    if (!turnIndex || !sessionIndex) throw new Error('multi-route retriever: search before index');
    const terms = tokenizer.tokenize(query);
    const routes: RecallRoute[] = [{ name: 'turn_bm25', scores: placed(turnIndex.scores(terms), 0) }];
    if (dense)
      routes.push({ name: 'turn_dense', scores: placed(await dense.scoreAll({ query, signal }), 0) });
    routes.push({ name: 'session_bm25', scores: placed(sessionIndex.scores(terms), turns.length) });
    const { hits: fused, pools } = multiRouteRecall({
      routes,
      documents: corpus,
      finalK: options.finalK,
      ...(options.k === undefined ? {} : { k: options.k }),
    });
    let hits = fused.filter((hit) => hit.document < turns.length);
    let sessionOrder: string[];
    if (options.sessionFirst) {
      const sessions = sessionFirst({ fusedHits: fused, documents: corpus });
      sessionOrder = sessions.map((session) => session.sessionId);
      const bySession = new Map(
        sessions.map((session, rank) => [session.sessionId, { session, rank: rank + 1 }]),
      );
      hits = hits.map((hit) => {
        const entry = bySession.get(hit.sessionId)!;
        return {
          ...hit,
          routes: { ...hit.routes, session_first: { score: entry.session.score, rank: entry.rank } },
        };
      });
    } else {
      sessionOrder = [...new Set(fused.map((hit) => hit.sessionId))];
    }
    return { hits, sessionOrder, fused, pools };
  }

  return {
    id: `multi-route${options.sessionFirst ? ':session-first' : ''}`,
    async index({ documents, signal }) {
      // Dense first: a remote vector store stores the vectors while BM25 indexes.
      if (dense) await dense.index({ documents, namespace, signal });
      turns = documents;
      const sessions = new Map<string, MemoryDocument[]>();
      for (const document of documents) {
        const members = sessions.get(document.sessionId) ?? [];
        members.push(document);
        sessions.set(document.sessionId, members);
      }
      const sessionDocuments = [...sessions.entries()].map(
        ([sessionId, members]): MemoryDocument => ({
          id: sessionId,
          text: members.map((document) => document.text).join(' '),
          sessionId,
          ...(members[0]!.date === undefined ? {} : { date: members[0]!.date }),
        }),
      );
      corpus = [...documents, ...sessionDocuments];
      turnIndex = createBm25Index(documents.map((document) => tokenizer.tokenize(document.text)));
      sessionIndex = createBm25Index(sessionDocuments.map((document) => tokenizer.tokenize(document.text)));
    },
    async search(search) {
      return (await searchSessions(search)).hits.slice(0, search.limit);
    },
    searchSessions,
    close: async () => dense?.drop(),
  };
}
