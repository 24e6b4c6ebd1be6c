import { createSessionAwareRetriever, createSessionTurnReranker } from '@lme/search-core';
import { defineRetriever, RANKS_TURNS_REFUSAL } from '../retriever-descriptor.js';
import { SESSION_AWARE_OPTIONS } from './session-aware-options.js';

/**
 * `--retriever session-aware`: sessions first (stage 1 over `--routes`: session text, summaries,
 * best turns), then the best turns inside the top sessions (stage 2), reranked before the final cut.
 */
export const sessionAwareRetriever = defineRetriever({
  name: 'session-aware',
  description: 'sessions first (--routes over session text and best turns), then the best turns inside them',
  options: SESSION_AWARE_OPTIONS,
  capabilities: {
    routes: 'configured',
    defaultRoutes: 'hybrid',
    ranks: 'turn',
    // It fuses its two stages whatever the routes.
    fusion: 'always',
    bm25Settings: true,
    timeBoost: true,
    denseNeighbours: true,
    reranksCandidates: true,
    refuses: [RANKS_TURNS_REFUSAL],
    legacyKey: 'sessionAware',
  },
  create: (options, dependencies) => {
    const { tokenizer, dense, fusion, namespace, summarizer, reranker, routeSettings, finalTopK } =
      dependencies;
    return {
      retriever: createSessionAwareRetriever({
        tokenizer,
        dense,
        summarizer: options.sessionIndex === 'text' ? undefined : summarizer(),
        sessionIndex: options.sessionIndex,
        topSessions: options.topSessions,
        turnsPerSession: options.turnsPerSession,
        finalTopK,
        fusion,
        sessionWeights: options.sessionWeights,
        ...routeSettings,
        ...(reranker
          ? { turnReranker: createSessionTurnReranker(reranker.reranker, reranker.depth, reranker.state) }
          : {}),
        namespace,
      }),
    };
  },
  // A summary index needs session summaries.
  summarizes: (options) => options.sessionIndex !== 'text',
  rerankCandidates: (options) => options.topSessions * options.turnsPerSession,
  stages: (options) => [
    `session-aware (top ${options.topSessions} sessions, ${options.turnsPerSession} turns each)`,
  ],
  explain: (options) => ({
    weights: { session_weights: options.sessionWeights ?? 'default of the session index' },
  }),
});
