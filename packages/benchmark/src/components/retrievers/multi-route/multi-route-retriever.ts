import { createMultiRouteRetriever } from '@lme/search-core';
import { z } from 'zod';
import { defineRetriever, RANKS_TURNS_REFUSAL } from '../retriever-descriptor.js';

/**
 * `--retriever multi-route`: turn BM25, turn dense (when `--routes` has it) and session-text BM25,
 * fused by RRF alone (`--rrf-k`).
 */
export const multiRouteRetriever = defineRetriever({
  name: 'multi-route',
  description: 'turn BM25, turn dense (when --routes has it) and session-text BM25 fused by RRF (--rrf-k)',
  options: {
    /** Sessions ranked by their session-level score plus bounded turn support. */
    sessionFirst: {
      schema: z.boolean().default(false),
      flags: '--session-first',
      group: 'retrieval',
      help: 'with --retriever multi-route: rank sessions by session score plus bounded turn support',
    },
  },
  capabilities: {
    routes: 'configured',
    defaultRoutes: 'hybrid',
    ranks: 'turn',
    fusion: 'rrf',
    // It keeps rank_bm25's settings and reads neither the time boost nor the dense neighbours.
    bm25Settings: false,
    timeBoost: false,
    denseNeighbours: false,
    refuses: [RANKS_TURNS_REFUSAL],
    legacyKey: 'multiRoute',
  },
  create: (options, { tokenizer, dense, namespace, rrfK, finalTopK }) => ({
    retriever: createMultiRouteRetriever({
      tokenizer,
      dense,
      k: rrfK,
      finalK: finalTopK,
      sessionFirst: options.sessionFirst,
      namespace,
    }),
  }),
  stages: (options) => [options.sessionFirst ? 'multi-route, session first' : 'multi-route'],
  explain: (_options, { rrfK }) => ({
    fusion: { kind: 'rrf', k: rrfK, routes: 'turn_bm25, turn_dense, session_bm25' },
  }),
});
