import {
  type CandidateReranker,
  createBm25DenseRetriever,
  createMultiRouteRetriever,
  createSessionAwareRetriever,
  createSessionTurnReranker,
  type DenseScorer,
  type Fusion,
  type MultiSourceTrace,
  type RerankHookState,
  type Retriever,
  type Summarizer,
  type Tokenizer,
} from '@lme/search-core';
import type { BaseRetrieverName, Route } from '../../config/base-retrievers.js';
import { BM25_FEEDBACK_WEIGHT, type RunConfig } from '../../config/run-config.js';
import { createConfiguredMultiSource } from './configured-multi-source.js';

/** What every base retriever of one haystack is built from. */
export type BaseRetrieverParts = {
  config: RunConfig;
  tokenizer: Tokenizer;
  /** The dense scorer, when the routes include dense. */
  dense: DenseScorer | undefined;
  fusion: Fusion;
  routes: readonly Route[];
  namespace: string;
  /** The run's session summarizer (created on first use). */
  summarizer: () => Summarizer;
  /** `--reranker`, for a base that reranks its own candidates (`reranksCandidates`). */
  reranker?: { reranker: CandidateReranker; state: RerankHookState };
};

/** A built base retriever; `lastSourceTrace` when it merges sources (multi-source). */
export type BuiltBaseRetriever = {
  retriever: Retriever;
  lastSourceTrace?: () => MultiSourceTrace | undefined;
};

export type BaseRetrieverFactory = {
  create(parts: BaseRetrieverParts): BuiltBaseRetriever;
  /**
   * The base reranks its merged candidates itself, before its final cut (session-aware's turn
   * reranker); the rerank stage then only attaches the trace.
   */
  reranksCandidates?: true;
};

/** Settings of the routes that bm25, dense, hybrid and session-aware share. */
const routeSettings = (config: RunConfig) => ({
  ...(config.denseNeighbours ? { denseNeighbours: config.denseNeighbours } : {}),
  ...(config.timeBoost ? { timeBoost: config.timeBoost } : {}),
  ...(config.bm25K1 !== undefined || config.bm25B !== undefined
    ? {
        bm25: {
          ...(config.bm25K1 !== undefined ? { k1: config.bm25K1 } : {}),
          ...(config.bm25B !== undefined ? { b: config.bm25B } : {}),
        },
      }
    : {}),
  ...(config.bm25FeedbackDocs
    ? {
        bm25Feedback: {
          documents: config.bm25FeedbackDocs,
          weight: config.bm25FeedbackWeight ?? BM25_FEEDBACK_WEIGHT,
          ...(config.bm25FeedbackKeep ? { keep: true } : {}),
        },
      }
    : {}),
});

/** bm25, dense, hybrid: the routes searched over the documents, fused when more than one. */
const routeRetriever: BaseRetrieverFactory = {
  create: ({ config, routes, tokenizer, dense, fusion, namespace }) => ({
    retriever: createBm25DenseRetriever({
      routes,
      tokenizer,
      dense,
      fusion,
      namespace,
      ...routeSettings(config),
    }),
  }),
};

/**
 * How the pipeline builds each base retriever `--retriever` names (config/base-retrievers.ts
 * declares what each reads and refuses; the type checker keeps the two registries' keys equal).
 */
export const BASE_RETRIEVER_FACTORIES: Readonly<Record<BaseRetrieverName, BaseRetrieverFactory>> = {
  bm25: routeRetriever,
  dense: routeRetriever,
  hybrid: routeRetriever,
  'session-aware': {
    reranksCandidates: true,
    create: ({ config, tokenizer, dense, fusion, namespace, summarizer, reranker }) => ({
      retriever: createSessionAwareRetriever({
        tokenizer,
        dense,
        summarizer: config.sessionIndex === 'text' ? undefined : summarizer(),
        sessionIndex: config.sessionIndex,
        topSessions: config.topSessions,
        turnsPerSession: config.turnsPerSession,
        finalTopK: config.finalTopK,
        fusion,
        sessionWeights: config.sessionWeights,
        ...routeSettings(config),
        ...(reranker
          ? { turnReranker: createSessionTurnReranker(reranker.reranker, config.rerankDepth, reranker.state) }
          : {}),
        namespace,
      }),
    }),
  },
  'multi-route': {
    create: ({ config, tokenizer, dense, namespace }) => ({
      retriever: createMultiRouteRetriever({
        tokenizer,
        dense,
        k: config.rrfK,
        finalK: config.finalTopK,
        sessionFirst: config.sessionFirst,
        namespace,
      }),
    }),
  },
  'multi-source': {
    create: ({ config, tokenizer, dense, fusion, routes, namespace }) => {
      const multiSource = createConfiguredMultiSource(config, {
        tokenizer,
        dense,
        fusion,
        routes,
        namespace,
      });
      return { retriever: multiSource, lastSourceTrace: () => multiSource.lastTrace() };
    },
  },
};
