import {
  createBm25DenseRetriever,
  createMultiSourceRetriever,
  type DenseScorer,
  type Fusion,
  type MultiSourceTrace,
  type Retriever,
  type SearchOptions,
  type StagedSearchResult,
  type Tokenizer,
} from '@lme/search-core';
import type { RunConfig } from '../../config/run-config.js';

/**
 * `--retriever multi-source`: the routes `--routes` names (fused as configured) as the stored-memory
 * source, with the entity graph and the conversation-context source; `--source-weights` sets the
 * base weights, `--dedup-threshold` the merge cosine. Documents and granularity as configured.
 */
export function createConfiguredMultiSource(
  config: RunConfig,
  parts: {
    tokenizer: Tokenizer;
    dense: DenseScorer | undefined;
    fusion: Fusion;
    routes: readonly ('bm25' | 'dense')[];
    namespace: string;
  },
): ReturnType<typeof createMultiSourceRetriever> {
  const { tokenizer, dense, fusion, routes, namespace } = parts;
  return createMultiSourceRetriever({
    memory: createBm25DenseRetriever({ routes, tokenizer, dense, fusion, namespace }),
    tokenizer,
    ...(dense ? { dense } : {}),
    ...(config.sourceWeights ? { weights: config.sourceWeights } : {}),
    dedupThreshold: config.dedupThreshold,
    finalK: config.finalTopK,
  });
}

/** Adds the multi-source debug statistics of each search to the staged result (`multiSource`). */
export function withSourceTrace<
  T extends Retriever & { searchStaged(search: SearchOptions): Promise<StagedSearchResult> },
>(
  retriever: T,
  base: { lastTrace(): MultiSourceTrace | undefined },
): T & {
  searchStaged(search: SearchOptions): Promise<StagedSearchResult & { multiSource?: MultiSourceTrace }>;
} {
  return {
    ...retriever,
    async searchStaged(search: SearchOptions) {
      const result = await retriever.searchStaged(search);
      const trace = base.lastTrace();
      return { ...result, ...(trace ? { multiSource: trace } : {}) };
    },
    async search(search: SearchOptions) {
      return retriever.search(search);
    },
  };
}
