import { bm25KeywordLeg, createSessionDocumentRetriever } from '@lme/search-core';
import { z } from 'zod';
import { fts5Bm25Retriever } from '../fts5-bm25/fts5-bm25-retriever.js';
import { defineRetriever } from '../retriever-descriptor.js';

/**
 * `--retriever session-document`: MemPalace's raw benchmark mode, one vector per session of its
 * user turns joined by "\n", ranked by squared L2 distance (Chroma's default), the top
 * `--session-document-results`; `--session-document-boost keyword-overlap` is their hybrid v1
 * (longmemeval_bench.py), `names-predicates` their hybrid v5 (locomo_bench.py).
 * With `--granularity turn` a document is one turn (their `--granularity turn`).
 */
export const sessionDocumentRetriever = defineRetriever({
  name: 'session-document',
  description: 'one vector per session of its joined user turns, by L2 distance (MemPalace raw mode)',
  options: {
    sessionDocumentResults: {
      schema: z.number().int().min(1).default(50),
      flags: '--session-document-results <n>',
      group: 'retrieval',
      help: 'documents the vector search returns (MemPalace n_results); none ranked beyond',
    },
    sessionDocumentBoost: {
      schema: z.enum(['none', 'keyword-overlap', 'names-predicates']).default('none'),
      flags: '--session-document-boost <kind>',
      group: 'retrieval',
      help: "rerank of the results: keyword-overlap is MemPalace's hybrid v1 (distance × (1 - weight × overlap)), names-predicates their hybrid v5 (predicate words, quoted phrases, names)",
    },
    sessionDocumentBoostWeight: {
      schema: z.number().min(0).max(1).default(0.3),
      flags: '--session-document-boost-weight <w>',
      group: 'retrieval',
      help: "the keyword-overlap boost's weight (MemPalace hybrid_weight)",
    },
    sessionDocumentKeywordWeight: {
      schema: z.number().min(0).max(1).default(0),
      flags: '--session-document-keyword-weight <w>',
      group: 'retrieval',
      help: "a keyword leg over the same documents, fused as memini does: both legs' top results min-max normalized, (1 - w) × vector + w × keyword; 0: off",
    },
    sessionDocumentKeywordLeg: {
      schema: z.enum(['bm25', 'fts5']).default('bm25'),
      flags: '--session-document-keyword-leg <kind>',
      group: 'retrieval',
      help: "the keyword leg: bm25 (the run's tokenizer, k1 1.2, b 0.75) or fts5 (memini's SQLite FTS5 bm25 and query, as --retriever fts5-bm25)",
    },
    // The fts5 leg is `--retriever fts5-bm25` (built from its descriptor), its statistics file too.
    sessionDocumentFts5Statistics: {
      ...fts5Bm25Retriever.options.fts5Statistics,
      flags: '--session-document-fts5-statistics <file>',
      group: 'retrieval',
      help: "the fts5 leg's table statistics from this JSON file (as --fts5-statistics) instead of the haystack's",
    },
  },
  capabilities: {
    routes: ['dense'],
    fusion: 'routes',
    bm25Settings: false,
    timeBoost: false,
    denseNeighbours: false,
    refuses: [],
  },
  create: (options, context) => {
    const { dense, namespace, tokenizer } = context;
    if (!dense) throw new Error('--retriever session-document needs the dense route.');
    return {
      retriever: createSessionDocumentRetriever({
        dense,
        namespace,
        results: options.sessionDocumentResults,
        ...(options.sessionDocumentBoost === 'keyword-overlap'
          ? { boost: { kind: 'keyword-overlap', weight: options.sessionDocumentBoostWeight } }
          : options.sessionDocumentBoost === 'names-predicates'
            ? { boost: { kind: 'names-predicates' } }
            : {}),
        ...(options.sessionDocumentKeywordWeight > 0
          ? {
              keyword: {
                weight: options.sessionDocumentKeywordWeight,
                leg:
                  options.sessionDocumentKeywordLeg === 'bm25'
                    ? bm25KeywordLeg(tokenizer)
                    : fts5Bm25Retriever.create(
                        { fts5Statistics: options.sessionDocumentFts5Statistics },
                        context,
                      ).retriever,
              },
            }
          : {}),
      }),
    };
  },
});
