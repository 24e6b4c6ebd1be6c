import { createFts5Bm25Retriever } from '@lme/search-core';
import { defineRetriever } from '../retriever-descriptor.js';

/**
 * `--retriever fts5-bm25`: memini's keyword leg, SQLite FTS5 `bm25()` over `porter unicode61`
 * terms of one document per session, queried by the OR of the question's words. memini's LongMemEval
 * documents are `--turn-form role-prefixed` sessions (`role: content` per turn).
 */
export const fts5Bm25Retriever = defineRetriever({
  name: 'fts5-bm25',
  description: "SQLite FTS5 bm25 over porter unicode61 terms, memini's keyword query (memini's keyword leg)",
  options: {},
  capabilities: {
    routes: ['bm25'],
    fusion: 'routes',
    bm25Settings: false,
    timeBoost: false,
    denseNeighbours: false,
    refuses: [],
  },
  create: () => ({ retriever: createFts5Bm25Retriever() }),
});
