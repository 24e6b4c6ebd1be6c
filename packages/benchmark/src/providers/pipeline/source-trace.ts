import type { MultiSourceTrace, Retriever, SearchOptions, StagedSearchResult } from '@lme/search-core';

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
