import {
  type CachedEmbedder,
  type ChatUsage,
  type ChunkContextualizer,
  createBm25DenseRetriever,
  createChatClient,
  createDenseScorer,
  createEmbedder,
  createExtractiveSummarizer,
  createLlmContextualizer,
  createLlmSummarizer,
  createMemoryVectorIndex,
  createMultiRouteRetriever,
  createQdrantVectorIndex,
  createSessionAwareRetriever,
  createTemplateContextualizer,
  type Embedder,
  type Fusion,
  getTokenizer,
  type MemoryDocument,
  type Retriever,
  type SearchOptions,
  type StagedSearchResult,
  type Summarizer,
  type VectorIndex,
  type VectorIndexFactory,
  withDiskCache,
  withStages,
} from '@lme/search-core';
import type { RunConfig } from '../../config/run-config.js';
import { type ContextualizeCorpusResult, contextualizeCorpus } from './contextualize-corpus.js';

/** What the progress bar shows about embedding work. */
export type PipelineStats = {
  embedded: number;
  cacheHits: number;
  embedSeconds: number;
  /** Index-time cost of session summaries. */
  summaries: { seconds: number; failures: number; promptTokens: number; completionTokens: number };
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
  searchStaged(options: SearchOptions): Promise<StagedSearchResult>;
};

/** Whether a config's pipeline embeds (a dense route, or stages that need document vectors). */
export function pipelineEmbeds(config: RunConfig): boolean {
  return config.retriever !== 'bm25' || config.dedup || config.mmr;
}

/** The retrievers `--retriever` selects. */
export const RETRIEVERS = ['bm25', 'dense', 'hybrid'] as const;

export type PipelineResources = {
  /** An embedder shared with other pipelines (ablation variants); this pipeline never closes it. */
  embedder?: Embedder & Partial<Pick<CachedEmbedder, 'stats'>>;
};

/** The cached embedder a config names (the caller closes it). */
export function createConfiguredEmbedder(
  config: RunConfig,
): Embedder & Partial<Pick<CachedEmbedder, 'stats'>> {
  const base = createEmbedder(config.embedder, { maxRetries: config.maxRetries });
  return config.cache ? withDiskCache(base, { dir: config.cacheDir }) : base;
}

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
    embedder ??= createConfiguredEmbedder(config);
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

  let sharedSummarizer: Summarizer | undefined;
  let llmUsage: (() => ChatUsage) | undefined;
  let summarySeconds = 0;
  let summaryFailures = 0;
  const summarizer = (): Summarizer => {
    if (!sharedSummarizer) {
      const extractive = createExtractiveSummarizer();
      let inner: Summarizer = extractive;
      if (config.summarizer === 'llm') {
        const llm = createLlmSummarizer({
          client: createChatClient({
            baseURL: config.baseUrl ?? environment.OPENAI_BASE_URL,
            apiKey: environment.OPENAI_API_KEY,
            maxRetries: config.maxRetries,
            timeoutMs: config.timeoutMs,
          }),
          model: config.summarizerModel,
          fallback: extractive,
          cacheDir: config.cache ? config.cacheDir : undefined,
          onFailure: () => {
            summaryFailures++;
          },
        });
        llmUsage = llm.usage;
        inner = llm;
      }
      sharedSummarizer = {
        id: inner.id,
        async summarize(options) {
          const started = performance.now();
          try {
            return await inner.summarize(options);
          } finally {
            summarySeconds += (performance.now() - started) / 1000;
          }
        },
      };
    }
    return sharedSummarizer;
  };

  const fusion: Fusion =
    config.fusion === 'rrf'
      ? { kind: 'rrf', k: config.rrfK }
      : { kind: 'weighted', weights: { bm25: config.weights[0], dense: config.weights[1] } };
  const routes = config.retriever === 'hybrid' ? (['bm25', 'dense'] as const) : ([config.retriever] as const);

  const contextual = { seconds: 0, chunks: 0, failures: 0, promptTokens: 0, completionTokens: 0 };
  let sharedContextualizer: ChunkContextualizer | undefined;
  const contextualizer = (): ChunkContextualizer => {
    if (sharedContextualizer) return sharedContextualizer;
    if (config.contextual !== 'llm') {
      sharedContextualizer = createTemplateContextualizer();
      return sharedContextualizer;
    }
    const client = createChatClient({
      baseURL: config.baseUrl ?? environment.OPENAI_BASE_URL,
      apiKey: environment.OPENAI_API_KEY,
      maxRetries: config.maxRetries,
      timeoutMs: config.timeoutMs,
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

  const createBaseRetriever = (
    namespace: string,
    dense: ReturnType<typeof createDenseScorer> | undefined,
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
        namespace,
      });
    }
    return createBm25DenseRetriever({ routes, tokenizer, dense, fusion, namespace });
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
      const base = createBaseRetriever(namespace, usesDense ? dense : undefined);
      return withStages(base, {
        ...(config.dedup ? { dedup: { threshold: config.dedupThreshold } } : {}),
        ...(config.multiSignal ? { multiSignal: {} } : {}),
        ...(config.mmr ? { mmr: { lambda: config.mmrLambda, duplicateThreshold: config.mmrDuplicate } } : {}),
        finalK: config.finalTopK,
        dense,
        indexDense: !usesDense,
        namespace,
      });
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
      embedSeconds,
      summaries: {
        seconds: summarySeconds,
        failures: summaryFailures,
        promptTokens: llmUsage?.().promptTokens ?? 0,
        completionTokens: llmUsage?.().completionTokens ?? 0,
      },
      ...(config.contextual === 'none' ? {} : { contextual: { ...contextual } }),
    }),
    async close() {
      if (ownsEmbedder) await embedder?.close?.();
      await vectorStore?.close();
    },
  };
}

type VectorStore = { factory: VectorIndexFactory; close(): Promise<void> };

/**
 * `memory`: a fresh exact index per haystack. `qdrant`: one collection for the whole run
 * (QDRANT_URL, optional QDRANT_API_KEY), haystacks kept apart by a `namespace` payload filter;
 * each haystack's points are deleted when it is done and the collection when the run ends.
 */
function createVectorStore(config: RunConfig, environment: NodeJS.ProcessEnv): VectorStore {
  if (config.vectorStore === 'memory') {
    return { factory: ({ dimensions }) => createMemoryVectorIndex({ dimensions }), close: async () => {} };
  }
  const url = environment.QDRANT_URL;
  if (!url)
    throw new Error('--vector-store qdrant needs QDRANT_URL (and QDRANT_API_KEY if the server wants one).');
  const collection = `lme-${new Date().toISOString().replace(/\D/g, '').slice(0, 14)}-${process.pid}`;
  let shared: VectorIndex | undefined;
  return {
    factory: ({ dimensions, namespace }) => {
      shared ??= createQdrantVectorIndex({
        url,
        apiKey: environment.QDRANT_API_KEY,
        collection,
        dimensions,
        filterKeys: { namespace: 'keyword', session_id: 'keyword', position: 'integer' },
      });
      const index = shared;
      return {
        id: index.id,
        upsert: (options) => index.upsert(options),
        search: (options) => index.search(options),
        delete: (options) => index.delete(options),
        drop: () => index.delete({ filter: { namespace } }),
      };
    },
    close: async () => {
      await shared?.drop();
    },
  };
}
