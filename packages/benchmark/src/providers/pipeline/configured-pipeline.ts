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
import { DEDUP_THRESHOLD_OPTION } from '../../components/stages/dedup/dedup-threshold-option.js';
import type { IndexedDocuments } from '../../components/stages/stage-descriptor.js';
import { fromRegistry } from '../../config/config-error.js';
import { searchedRoutes, searchesDense } from '../../config/retriever-rules.js';
import { pipelineEmbeds } from '../../config/run-shape.js';
import type { RoutesSection } from '../../config/sections/routes-section.js';
import type { PipelineResources } from './configured-embedder.js';
import { newRerankHookState } from './configured-reranker.js';
import type { PipelineSections } from './pipeline-sections.js';
import { createPipelineStageSet } from './pipeline-stage-set.js';
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
  /** What the selected stages count, by key (the index-time cost of session summaries, say). */
  [stageStats: string]: unknown;
};

/**
 * The search-core pipeline the run's sections describe, with the resources its retrievers share across
 * questions: one (cached) embedder, one vector store. `createRetriever` gives a fresh retriever
 * per haystack; `close` flushes the cache and drops what the run created in the vector store.
 */
export type Pipeline = {
  readonly id: string;
  createRetriever(namespace: string): PipelineRetriever;
  /** The index-time stages' rewrite of one haystack's documents (`--contextual`); undefined when none is selected. */
  indexDocuments?(documents: readonly MemoryDocument[], signal?: AbortSignal): Promise<IndexedDocuments>;
  stats(): PipelineStats;
  /** Writes the embeddings not yet in the cache. */
  flush(): Promise<void>;
  close(): Promise<void>;
};

/**
 * The base retriever (its descriptor in components/retrievers/<name>/) wrapped with the stages
 * the run selects; `searchStaged` also returns the session order of base retrievers that rank
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

/** `--fusion`, `--weights`, `--rrf-k` and the weighted fusion's options. */
export type FusionSettings = Pick<
  RoutesSection,
  'fusion' | 'rrfK' | 'weights' | 'fusionNormalization' | 'adaptiveWeights' | 'adaptivePower' | 'denseGap'
>;

/** The fusion of the routes the routes section names (`--fusion`, `--weights`, `--rrf-k` and the weighted options). */
export function fusionOf(routes: FusionSettings): Fusion {
  if (routes.fusion === 'rrf') return { kind: 'rrf', k: routes.rrfK };
  return {
    kind: routes.fusion,
    weights: { bm25: routes.weights[0], dense: routes.weights[1] },
    ...(routes.fusionNormalization ? { normalization: routes.fusionNormalization } : {}),
    ...(routes.adaptiveWeights ? { adaptive: true } : {}),
    ...(routes.adaptivePower !== undefined ? { adaptivePower: routes.adaptivePower } : {}),
    ...(routes.denseGap ? { gapReference: { dense: routes.denseGap } } : {}),
  };
}

export function createPipeline(
  sections: PipelineSections,
  resources: PipelineResources = {},
  environment: NodeJS.ProcessEnv = process.env,
): Pipeline {
  const { retrieval, routes: routesSection } = sections;
  const tokenizer = getTokenizer(retrieval.tokenizer);
  const usesDense = searchesDense(retrieval);
  const embeds = pipelineEmbeds(sections);
  const embedding = createTimedEmbedder(sections, environment, resources.embedder);
  const vectorStore = embeds ? createVectorStore(sections.embedding, environment) : undefined;
  // The stages the run selects (components/stages/): index-time hooks, pool stages, the reranker.
  const stages = createPipelineStageSet(sections, environment);
  const fusion = fusionOf(routesSection);
  const routes = searchedRoutes(retrieval);
  const descriptor: AnyRetriever = fromRegistry(RETRIEVERS, sections.retriever.name, {
    key: 'retriever',
    label: 'retriever',
  });
  const routeSettings = routeSettingsOf(routesSection);
  // The near-duplicate cosine of a retriever merging sources: the selected dedup stage's, else its default.
  const dedupThreshold = DEDUP_THRESHOLD_OPTION.schema.parse(
    sections.pipelineStages.find(({ options }) => options.dedupThreshold !== undefined)?.options
      .dedupThreshold,
  );
  // --reranker: one reranker for the run (its client, cache and retries shared by every question).
  const rerank = stages.reranker;

  const createRetriever = (namespace: string): PipelineRetriever => {
    // Its own count, so a question's embedding time is its own when haystacks overlap.
    const embedTime = { seconds: 0 };
    // One dense scorer per haystack, shared by the base retriever and the stages that need vectors.
    const dense: DenseScorer | undefined = embeds
      ? createDenseScorer({
          embedder: embedding.embedder(embedTime),
          createIndex: vectorStore!.factory,
          feedback: { documents: routesSection.feedbackDocs, weight: routesSection.feedbackWeight },
        })
      : undefined;
    // A base that reranks its own candidates (session-aware) does so before its final cut.
    const rerankHook = rerank && descriptor.capabilities.reranksCandidates ? newRerankHookState() : undefined;
    const dependencies: RetrieverDependencies = {
      tokenizer,
      dense: usesDense ? dense : undefined,
      fusion,
      routes,
      namespace,
      summarizer: stages.summarizer,
      ...(rerank && rerankHook ? { reranker: { ...rerank, state: rerankHook } } : {}),
      routeSettings,
      rrfK: routesSection.rrfK,
      finalTopK: retrieval.finalTopK,
      dedupThreshold,
    };
    // The retriever's own options (its descriptor's keys), grouped once for the run.
    const base = descriptor.create(sections.retriever.options, dependencies);
    const stagedBase = withStages(base.retriever, {
      stages: stages.poolStages(),
      finalK: retrieval.finalTopK,
      dense,
      indexDense: !usesDense,
      namespace,
    });
    const staged = base.lastSourceTrace
      ? withSourceTrace(stagedBase, { lastTrace: base.lastSourceTrace })
      : stagedBase;
    const retriever = rerank
      ? withReranker(staged, {
          ...rerank,
          ...(rerankHook ? { hookState: rerankHook } : {}),
        })
      : staged;
    return Object.assign(retriever, { embedSeconds: () => embedTime.seconds });
  };

  return {
    id: `pipeline:${sections.retriever.name}`,
    createRetriever,
    ...(stages.indexDocuments ? { indexDocuments: stages.indexDocuments } : {}),
    stats: () => {
      const embedder = embedding.inner();
      const counts = embedder?.stats?.();
      return {
        embedded: counts?.misses ?? 0,
        cacheHits: counts?.hits ?? 0,
        cacheCorrupt: counts?.corrupt ?? 0,
        cacheLegacy: counts?.legacy ?? 0,
        cacheRaced: counts?.raced ?? 0,
        truncated: counts?.truncated ?? 0,
        ...(embedder ? { embedderIdentity: cacheIdentityOf(embedder) } : {}),
        embedSeconds: embedding.seconds(),
        ...stages.stats(),
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
