import {
  type ChunkContextualizer,
  createBm25DenseRetriever,
  createChatClient,
  createDenseScorer,
  createLlmContextualizer,
  createMultiRouteRetriever,
  createSessionAwareRetriever,
  createTemplateContextualizer,
  type Embedder,
  type Fusion,
  getTokenizer,
  type MemoryDocument,
  type MultiSourceTrace,
  type RerankTrace,
  type Retriever,
  type SearchOptions,
  type StagedSearchResult,
  sessionAwareRerankHook,
  withReranker,
  withStages,
} from '@lme/search-core';
import { fromRegistry } from '../../config/config-error.js';
import { resolveOpenAiEndpoint } from '../../config/openai-endpoints.js';
import type { RunConfig } from '../../config/run-config.js';
import { createConfiguredEmbedder, type PipelineResources, pipelineEmbeds } from './configured-embedder.js';
import { createConfiguredMultiSource, withSourceTrace } from './configured-multi-source.js';
import { createConfiguredReranker, newRerankHookState } from './configured-reranker.js';
import { type ContextualizeCorpusResult, contextualizeCorpus } from './contextualize-corpus.js';
import { createPipelineSummarizer, type SummaryStats } from './pipeline-summarizer.js';
import { createVectorStore } from './vector-stores.js';

/** What the progress bar shows about embedding work. */
export type PipelineStats = {
  embedded: number;
  cacheHits: number;
  /** Embedding-cache segments found corrupt and set aside (their texts were embedded again). */
  cacheCorrupt?: number;
  /** Legacy (unchecked) embedding-cache segments skipped until `lme cache upgrade`. */
  cacheLegacy?: number;
  /** Texts an ONNX embedder cut at its model's token limit. */
  truncated?: number;
  /** What the embedding cache keys vectors by: the embedder id, plus an ONNX model's file checksum and settings. */
  embedderIdentity?: string;
  embedSeconds: number;
  /** Index-time cost of session summaries. */
  summaries: SummaryStats;
  /** Index-time cost of contextual chunks (`--contextual`). */
  contextual?: {
    seconds: number;
    chunks: number;
    failures: number;
    promptTokens: number;
    completionTokens: number;
  };
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
  close(): Promise<void>;
};

/**
 * The base retriever (bm25, dense, hybrid, session-aware or multi-route) wrapped with the stages
 * the config turns on; `searchStaged` also returns the session order of base retrievers that rank
 * sessions, and the stage trace.
 */
export type PipelineRetriever = Retriever & {
  /** `rerank`: the rerank stage's trace (`--reranker`). */
  searchStaged(
    options: SearchOptions,
  ): Promise<StagedSearchResult & { rerank?: RerankTrace; multiSource?: MultiSourceTrace }>;
};

/** The retrievers `--retriever` selects: the routes each searches (fused when more than one). */
export const RETRIEVERS = {
  bm25: { routes: ['bm25'] },
  dense: { routes: ['dense'] },
  hybrid: { routes: ['bm25', 'dense'] },
} as const satisfies Record<RunConfig['retriever'], { routes: readonly ('bm25' | 'dense')[] }>;

export type { PipelineResources } from './configured-embedder.js';

export function createPipeline(
  config: RunConfig,
  resources: PipelineResources = {},
  environment: NodeJS.ProcessEnv = process.env,
): Pipeline {
  const tokenizer = getTokenizer(config.tokenizer);
  const usesDense = config.retriever !== 'bm25';
  let embedder = resources.embedder;
  const ownsEmbedder = embedder === undefined;
  let embedSeconds = 0;
  const vectorStore = pipelineEmbeds(config) ? createVectorStore(config, environment) : undefined;

  const timedEmbedder = (): Embedder => {
    embedder ??= createConfiguredEmbedder(config, environment);
    const inner = embedder;
    const timed = async <T>(work: () => Promise<T>) => {
      const started = performance.now();
      try {
        return await work();
      } finally {
        embedSeconds += (performance.now() - started) / 1000;
      }
    };
    return {
      id: inner.id,
      get dimensions() {
        return inner.dimensions;
      },
      embedDocuments: (options) => timed(() => inner.embedDocuments(options)),
      embedQuery: (options) => timed(() => inner.embedQuery(options)),
    };
  };

  const summaries = createPipelineSummarizer(config, environment);
  const summarizer = summaries.summarizer;

  const fusion: Fusion =
    config.fusion === 'rrf'
      ? { kind: 'rrf', k: config.rrfK }
      : {
          kind: config.fusion,
          weights: { bm25: config.weights[0], dense: config.weights[1] },
          ...(config.fusionNormalization ? { normalization: config.fusionNormalization } : {}),
          ...(config.adaptiveWeights ? { adaptive: true } : {}),
          ...(config.adaptivePower !== undefined ? { adaptivePower: config.adaptivePower } : {}),
          ...(config.denseGap ? { gapReference: { dense: config.denseGap } } : {}),
        };
  const { routes } = fromRegistry(RETRIEVERS, config.retriever, { key: 'retriever', label: 'retriever' });

  const contextual = { seconds: 0, chunks: 0, failures: 0, promptTokens: 0, completionTokens: 0 };
  let sharedContextualizer: ChunkContextualizer | undefined;
  const contextualizer = (): ChunkContextualizer => {
    if (sharedContextualizer) return sharedContextualizer;
    if (config.contextual !== 'llm') {
      sharedContextualizer = createTemplateContextualizer();
      return sharedContextualizer;
    }
    const client = createChatClient({
      ...resolveOpenAiEndpoint(config, 'pipeline', environment),
      cacheDir: config.cache ? config.cacheDir : undefined,
    });
    sharedContextualizer = createLlmContextualizer({
      model: config.contextualModel,
      complete: async (prompt, { signal }) => {
        const reply = await client.complete({
          model: config.contextualModel,
          messages: [{ role: 'user', content: prompt }],
          temperature: 0,
          maxTokens: 150,
          ...(signal ? { signal } : {}),
        });
        if (!reply.cached) {
          contextual.promptTokens += reply.usage.promptTokens;
          contextual.completionTokens += reply.usage.completionTokens;
        }
        return reply.text;
      },
    });
    return sharedContextualizer;
  };

  // --reranker: one reranker for the run (its client, cache and retries shared by every question).
  const reranker = createConfiguredReranker(config, environment);

  const createBaseRetriever = (
    namespace: string,
    dense: ReturnType<typeof createDenseScorer> | undefined,
    rerankHook?: ReturnType<typeof newRerankHookState>,
  ) => {
    if (config.multiRoute) {
      return createMultiRouteRetriever({
        tokenizer,
        dense,
        k: config.rrfK,
        finalK: config.finalTopK,
        sessionFirst: config.sessionFirst,
        namespace,
      });
    }
    if (config.sessionAware) {
      return createSessionAwareRetriever({
        tokenizer,
        dense,
        summarizer: config.sessionIndex === 'text' ? undefined : summarizer(),
        sessionIndex: config.sessionIndex,
        topSessions: config.topSessions,
        turnsPerSession: config.turnsPerSession,
        finalTopK: config.finalTopK,
        fusion,
        sessionWeights: config.sessionWeights,
        ...(config.denseNeighbours ? { denseNeighbours: config.denseNeighbours } : {}),
        ...(config.timeBoost ? { timeBoost: config.timeBoost } : {}),
        ...(reranker && rerankHook
          ? { reranker: sessionAwareRerankHook(reranker, config.rerankDepth, rerankHook) }
          : {}),
        namespace,
      });
    }
    return createBm25DenseRetriever({
      routes,
      tokenizer,
      dense,
      fusion,
      namespace,
      ...(config.denseNeighbours ? { denseNeighbours: config.denseNeighbours } : {}),
      ...(config.timeBoost ? { timeBoost: config.timeBoost } : {}),
    });
  };

  return {
    id: `pipeline:${config.retriever}`,
    createRetriever(namespace) {
      // One dense scorer per haystack, shared by the base retriever and the stages that need vectors.
      const dense = pipelineEmbeds(config)
        ? createDenseScorer({
            embedder: timedEmbedder(),
            createIndex: vectorStore!.factory,
            feedback: { documents: config.feedbackDocs, weight: config.feedbackWeight },
          })
        : undefined;
      // A session-aware base reranks its stage-2 candidates through its hook, before its final cut.
      const rerankHook = reranker && config.sessionAware ? newRerankHookState() : undefined;
      // --multi-source: stored memory (today's retriever), entity graph and conversation context.
      const multiSource = config.multiSource
        ? createConfiguredMultiSource(config, {
            tokenizer,
            dense: usesDense ? dense : undefined,
            fusion,
            routes,
            namespace,
          })
        : undefined;
      const base = multiSource ?? createBaseRetriever(namespace, usesDense ? dense : undefined, rerankHook);
      const stagedBase = withStages(base, {
        ...(config.dedup ? { dedup: { threshold: config.dedupThreshold } } : {}),
        ...(config.multiSignal ? { multiSignal: {} } : {}),
        ...(config.mmr ? { mmr: { lambda: config.mmrLambda, duplicateThreshold: config.mmrDuplicate } } : {}),
        finalK: config.finalTopK,
        dense,
        indexDense: !usesDense,
        namespace,
      });
      const staged = multiSource ? withSourceTrace(stagedBase, multiSource) : stagedBase;
      return reranker
        ? withReranker(staged, {
            reranker,
            depth: config.rerankDepth,
            ...(rerankHook ? { hookState: rerankHook } : {}),
          })
        : staged;
    },
    ...(config.contextual === 'none'
      ? {}
      : {
          async contextualize(documents: readonly MemoryDocument[], signal?: AbortSignal) {
            const started = performance.now();
            try {
              const result = await contextualizeCorpus({
                documents,
                contextualizer: contextualizer(),
                summarizer: summarizer(),
                dense: config.contextualDense,
                ...(signal ? { signal } : {}),
              });
              contextual.chunks += result.statuses.length;
              contextual.failures += result.statuses.filter((status) => status.status === 'failed').length;
              return result;
            } finally {
              contextual.seconds += (performance.now() - started) / 1000;
            }
          },
        }),
    stats: () => ({
      embedded: embedder?.stats?.().misses ?? 0,
      cacheHits: embedder?.stats?.().hits ?? 0,
      cacheCorrupt: embedder?.stats?.().corrupt ?? 0,
      cacheLegacy: embedder?.stats?.().legacy ?? 0,
      truncated: embedder?.stats?.().truncated ?? 0,
      ...(embedder ? { embedderIdentity: embedder.cacheIdentity ?? embedder.id } : {}),
      embedSeconds,
      summaries: summaries.stats(),
      ...(config.contextual === 'none' ? {} : { contextual: { ...contextual } }),
    }),
    async close() {
      if (ownsEmbedder) await embedder?.close?.();
      await vectorStore?.close();
    },
  };
}
