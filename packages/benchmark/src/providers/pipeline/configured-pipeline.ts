import {
  cacheIdentityOf,
  createDenseScorer,
  type DenseScorer,
  type Fusion,
  getTokenizer,
  type MemoryDocument,
  type MultiSourceTrace,
  type RerankTrace,
  type Retriever,
  type SearchOptions,
  type StagedSearchResult,
  withReranker,
  withStages,
} from '@lme/search-core';
import type { RetrieverDependencies } from '../../components/retrievers/retriever-descriptor.js';
import type { AnyRetriever } from '../../components/retrievers/retriever-queries.js';
import { RETRIEVERS } from '../../components/retrievers/retriever-registry.js';
import { selectedStages } from '../../components/stages/stage-registry.js';
import { fromRegistry } from '../../config/config-error.js';
import { retrieverOptions, searchedRoutes, searchesDense } from '../../config/retriever-rules.js';
import { pipelineEmbeds } from '../../config/run-shape.js';
import type { PipelineResources } from './configured-embedder.js';
import { createConfiguredReranker, newRerankHookState } from './configured-reranker.js';
import type { ContextualizeCorpusResult } from './contextualize-corpus.js';
import { type ContextualStats, createPipelineContextualizer } from './pipeline-contextualizer.js';
import type { FusionSettings, PipelineSettings } from './pipeline-settings.js';
import { createPipelineSummarizer, type SummaryStats } from './pipeline-summarizer.js';
import { routeSettingsOf } from './route-settings.js';
import { withSourceTrace } from './source-trace.js';
import { createTimedEmbedder } from './timed-embedder.js';
import { createVectorStore } from './vector-stores.js';

/** What the progress bar shows about embedding work. */
export type PipelineStats = {
  embedded: number;
  cacheHits: number;
  /** Embedding-cache segments found corrupt and set aside (their texts were embedded again). */
  cacheCorrupt?: number;
  /** Legacy (unchecked) embedding-cache segments skipped until `lme cache upgrade`. */
  cacheLegacy?: number;
  /**
   * Texts embedded here that another process sharing the cache embedded at the same time and wrote
   * first (not written twice): a shared cache's only double embeddings.
   */
  cacheRaced?: number;
  /** Texts an ONNX embedder cut at its model's token limit. */
  truncated?: number;
  /** What the embedding cache keys vectors by: the embedder id, plus an ONNX model's file checksum and settings. */
  embedderIdentity?: string;
  /** Wall seconds with an embedding call in flight (concurrent calls counted once). */
  embedSeconds: number;
  /** Index-time cost of session summaries. */
  summaries: SummaryStats;
  /** Index-time cost of contextual chunks (`--contextual`). */
  contextual?: ContextualStats;
};

/**
 * The search-core pipeline a config describes, with the resources its retrievers share across
 * questions: one (cached) embedder, one vector store. `createRetriever` gives a fresh retriever
 * per haystack; `close` flushes the cache and drops what the run created in the vector store.
 */
export type Pipeline = {
  readonly id: string;
  createRetriever(namespace: string): PipelineRetriever;
  /** Contextual chunks of one haystack's documents (`--contextual`); undefined when off. */
  contextualize?(
    documents: readonly MemoryDocument[],
    signal?: AbortSignal,
  ): Promise<ContextualizeCorpusResult>;
  stats(): PipelineStats;
  /** Writes the embeddings not yet in the cache. */
  flush(): Promise<void>;
  close(): Promise<void>;
};

/**
 * The base retriever (its descriptor in components/retrievers/<name>/) wrapped with the stages
 * the config turns on; `searchStaged` also returns the session order of base retrievers that rank
 * sessions, and the stage trace.
 */
export type PipelineRetriever = Retriever & {
  /** Seconds this retriever's embedding calls took (cache lookups or the model). */
  embedSeconds(): number;
  /** `rerank`: the rerank stage's trace (`--reranker`). */
  searchStaged(
    options: SearchOptions,
  ): Promise<StagedSearchResult & { rerank?: RerankTrace; multiSource?: MultiSourceTrace }>;
};

export type { PipelineResources } from './configured-embedder.js';

/** The fusion of the routes the config names (`--fusion`, `--weights`, `--rrf-k` and the weighted options). */
export function fusionOf(config: FusionSettings): Fusion {
  if (config.fusion === 'rrf') return { kind: 'rrf', k: config.rrfK };
  return {
    kind: config.fusion,
    weights: { bm25: config.weights[0], dense: config.weights[1] },
    ...(config.fusionNormalization ? { normalization: config.fusionNormalization } : {}),
    ...(config.adaptiveWeights ? { adaptive: true } : {}),
    ...(config.adaptivePower !== undefined ? { adaptivePower: config.adaptivePower } : {}),
    ...(config.denseGap ? { gapReference: { dense: config.denseGap } } : {}),
  };
}

export function createPipeline(
  config: PipelineSettings,
  resources: PipelineResources = {},
  environment: NodeJS.ProcessEnv = process.env,
): Pipeline {
  const tokenizer = getTokenizer(config.tokenizer);
  const usesDense = searchesDense(config);
  const embedding = createTimedEmbedder(config, environment, resources.embedder);
  const vectorStore = pipelineEmbeds(config) ? createVectorStore(config, environment) : undefined;
  const summaries = createPipelineSummarizer(config, environment);
  const contextual = createPipelineContextualizer(config, environment, summaries.summarizer);
  const fusion = fusionOf(config);
  const routes = searchedRoutes(config);
  const descriptor: AnyRetriever = fromRegistry(RETRIEVERS, config.retriever, {
    key: 'retriever',
    label: 'retriever',
  });
  // The retriever's own options (its descriptor's keys of the resolved config) and shared settings.
  const ownOptions = retrieverOptions(config);
  const routeSettings = routeSettingsOf(config);
  // The stages the config turns on (components/stages/), in their declared order.
  const stages = selectedStages(config);
  // --reranker: one reranker for the run (its client, cache and retries shared by every question).
  const reranker = createConfiguredReranker(config, environment);

  const createRetriever = (namespace: string): PipelineRetriever => {
    // Its own count, so a question's embedding time is its own when haystacks overlap.
    const embedTime = { seconds: 0 };
    // One dense scorer per haystack, shared by the base retriever and the stages that need vectors.
    const dense: DenseScorer | undefined = pipelineEmbeds(config)
      ? createDenseScorer({
          embedder: embedding.embedder(embedTime),
          createIndex: vectorStore!.factory,
          feedback: { documents: config.feedbackDocs, weight: config.feedbackWeight },
        })
      : undefined;
    // A base that reranks its own candidates (session-aware) does so before its final cut.
    const rerankHook =
      reranker && descriptor.capabilities.reranksCandidates ? newRerankHookState() : undefined;
    const dependencies: RetrieverDependencies = {
      tokenizer,
      dense: usesDense ? dense : undefined,
      fusion,
      routes,
      namespace,
      summarizer: summaries.summarizer,
      ...(reranker && rerankHook
        ? { reranker: { reranker, state: rerankHook, depth: config.rerankDepth } }
        : {}),
      routeSettings,
      rrfK: config.rrfK,
      finalTopK: config.finalTopK,
      dedupThreshold: config.dedupThreshold,
    };
    const base = descriptor.create(ownOptions, dependencies);
    const stagedBase = withStages(base.retriever, {
      stages: stages.map(({ descriptor, options }) => descriptor.create(options)),
      finalK: config.finalTopK,
      dense,
      indexDense: !usesDense,
      namespace,
    });
    const staged = base.lastSourceTrace
      ? withSourceTrace(stagedBase, { lastTrace: base.lastSourceTrace })
      : stagedBase;
    const retriever = reranker
      ? withReranker(staged, {
          reranker,
          depth: config.rerankDepth,
          ...(rerankHook ? { hookState: rerankHook } : {}),
        })
      : staged;
    return Object.assign(retriever, { embedSeconds: () => embedTime.seconds });
  };

  return {
    id: `pipeline:${config.retriever}`,
    createRetriever,
    ...(contextual.contextualize ? { contextualize: contextual.contextualize } : {}),
    stats: () => {
      const embedder = embedding.inner();
      const counts = embedder?.stats?.();
      const contextualStats = contextual.stats();
      return {
        embedded: counts?.misses ?? 0,
        cacheHits: counts?.hits ?? 0,
        cacheCorrupt: counts?.corrupt ?? 0,
        cacheLegacy: counts?.legacy ?? 0,
        cacheRaced: counts?.raced ?? 0,
        truncated: counts?.truncated ?? 0,
        ...(embedder ? { embedderIdentity: cacheIdentityOf(embedder) } : {}),
        embedSeconds: embedding.seconds(),
        summaries: summaries.stats(),
        ...(contextualStats ? { contextual: contextualStats } : {}),
      };
    },
    /** Writes the embeddings not yet in the cache (so stats count every race with other processes). */
    async flush() {
      await embedding.inner()?.flush?.();
    },
    async close() {
      if (!resources.embedder) await embedding.inner()?.close?.();
      await vectorStore?.close();
    },
  };
}
