import type { MemoryDocument, Retriever, SearchOptions } from '../core/retriever.js';
import type { SessionTurnReranker } from '../retrievers/session-aware-retriever.js';
import type { StagedSearchResult } from '../stages/with-stages.js';
import { type RerankTrace, rerankHits } from './rerank-hits.js';
import type { CandidateReranker } from './reranker.js';

export type RerankedSearchResult = StagedSearchResult & { rerank?: RerankTrace };

/** Where a session-aware base leaves the trace of its turn reranker for `withReranker` to pick up. */
export type RerankHookState = { trace?: RerankTrace };

/**
 * The session-aware retriever's `turnReranker` backed by a candidate reranker: its merged stage-2
 * candidates (top sessions × turns per session) are reranked before its final top-K cut, the top
 * `depth` of them. The trace goes to `state` (one retriever per haystack, one search at a time).
 */
export function createSessionTurnReranker(
  reranker: CandidateReranker,
  depth: number,
  state: RerankHookState,
): SessionTurnReranker {
  return async ({ query, candidates, documents, signal }) => {
    const { hits, trace } = await rerankHits({
      reranker,
      query,
      hits: candidates,
      documents,
      depth,
      ...(signal ? { signal } : {}),
    });
    state.trace = trace;
    return hits;
  };
}

export type WithRerankerOptions = {
  reranker: CandidateReranker;
  /** `--rerank-depth`: how many of the top hits are reranked. */
  depth: number;
  /** Set when the base reranks through its own turn reranker (session-aware): only the trace is attached. */
  hookState?: RerankHookState;
};

/**
 * The rerank stage after any retriever with a staged search: the top `depth` hits of its final
 * ranking are reranked (`rerankHits`), or, for a base that reranks through its turn reranker, that reranker's
 * trace is attached. The result carries `rerank` for explain.jsonl.
 */
export function withReranker<
  T extends Retriever & { searchStaged(search: SearchOptions): Promise<StagedSearchResult> },
>(
  staged: T,
  options: WithRerankerOptions,
): Retriever & { searchStaged(search: SearchOptions): Promise<RerankedSearchResult> } {
  let documents: readonly MemoryDocument[] = [];
  async function searchStaged(search: SearchOptions): Promise<RerankedSearchResult> {
    if (options.hookState) {
      options.hookState.trace = undefined;
      const result = await staged.searchStaged(search);
      return { ...result, ...(options.hookState.trace ? { rerank: options.hookState.trace } : {}) };
    }
    const result = await staged.searchStaged({ ...search, limit: Number.POSITIVE_INFINITY });
    const { hits, trace } = await rerankHits({
      reranker: options.reranker,
      query: search.query,
      hits: result.hits,
      documents,
      depth: options.depth,
      ...(search.signal ? { signal: search.signal } : {}),
    });
    return { ...result, hits: hits.slice(0, search.limit), rerank: trace };
  }
  return {
    id: `${staged.id}+rerank(${options.reranker.id})`,
    async index(indexOptions) {
      documents = indexOptions.documents;
      await staged.index(indexOptions);
    },
    async search(search) {
      return (await searchStaged(search)).hits;
    },
    searchStaged,
    ...(staged.close ? { close: () => staged.close!() } : {}),
  };
}
