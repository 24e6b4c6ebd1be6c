import { createFts5Bm25Retriever } from '@lme/search-core';
import { defineRetriever } from '../retriever-descriptor.js';
import { fts5StatisticsOption, readFts5Statistics } from './fts5-statistics-file.js';

/**
 * `--retriever fts5-bm25`: memini's keyword leg, SQLite FTS5 `bm25()` over `porter unicode61`
 * terms of one document per session, queried by the OR of the question's words. memini's LongMemEval
 * documents are `--turn-form role-prefixed` sessions (`role: content` per turn);
 * `--fts5-statistics` gives bm25 the statistics of their one table of every question's sessions.
 */
export const fts5Bm25Retriever = defineRetriever({
  name: 'fts5-bm25',
  description: "SQLite FTS5 bm25 over porter unicode61 terms, memini's keyword query (memini's keyword leg)",
  options: {
    fts5Statistics: {
      schema: fts5StatisticsOption(),
      flags: '--fts5-statistics <file>',
      group: 'retrieval',
      help: "bm25's table statistics from this JSON file (memini's one table of the whole dataset) instead of the haystack's",
    },
  },
  capabilities: {
    routes: ['bm25'],
    fusion: 'routes',
    bm25Settings: false,
    timeBoost: false,
    denseNeighbours: false,
    refuses: [],
  },
  create: (options) => ({
    retriever: createFts5Bm25Retriever(
      options.fts5Statistics === undefined ? undefined : readFts5Statistics(options.fts5Statistics),
    ),
  }),
});
