import { buildCorpus } from '../../benchmarks/build-corpus.js';
import type { RunConfig } from '../../config/run-config.js';
import type { Provider } from '../provider.js';
import { createPipeline, type PipelineResources } from './configured-pipeline.js';
import { rerankModelOf, rerankStats } from './configured-reranker.js';
import { explainTrace } from './explain-trace.js';

/**
 * The search-core pipeline as a provider: the haystack is cut into documents of the configured
 * granularity, roles and chunk unit, contextualized when `--contextual` is on (the index sees the
 * context, the corpus keeps the original text for the reader and the metrics), indexed by a fresh
 * retriever, and every document ranked by the base retriever and the stages the config turns on.
 */
export function createPipelineProvider(
  config: RunConfig,
  resources: PipelineResources = {},
  environment: NodeJS.ProcessEnv = process.env,
): Provider {
  const pipeline = createPipeline(config, resources, environment);
  // --reranker: its calls are priced like the reader's and counted per question and per run.
  const rerankModel = rerankModelOf(config);
  const rerank = rerankStats(rerankModel);
  /** Contextualizes, indexes and searches one haystack, timing each step. */
  const indexAndSearch = async (
    retriever: ReturnType<typeof pipeline.createRetriever>,
    corpusDocuments: Parameters<ReturnType<typeof pipeline.createRetriever>['index']>[0]['documents'],
    record: { question: string; question_date: string },
    signal: AbortSignal | undefined,
  ) => {
    const started = performance.now();
    const embedBefore = pipeline.stats().embedSeconds;
    const contextual = pipeline.contextualize
      ? await pipeline.contextualize(corpusDocuments, signal)
      : undefined;
    const contextualized = performance.now();
    const documents = contextual?.documents ?? corpusDocuments;
    await retriever.index({ documents, signal });
    const indexed = performance.now();
    const embedIndexing = pipeline.stats().embedSeconds - embedBefore;
    const search = {
      query: record.question,
      queryDate: record.question_date,
      limit: Number.POSITIVE_INFINITY,
      signal,
    };
    const result = await retriever.searchStaged(search);
    const searched = performance.now();
    const embedQuery = pipeline.stats().embedSeconds - embedBefore - embedIndexing;
    return {
      started,
      contextual,
      contextualized,
      documents,
      indexed,
      embedIndexing,
      result,
      searched,
      embedQuery,
    };
  };
  return {
    id: pipeline.id,
    async retrieve({ record, signal }) {
      const corpus = buildCorpus(record, config);
      const retriever = pipeline.createRetriever(record.question_id);
      const {
        started,
        contextual,
        contextualized,
        documents,
        indexed,
        embedIndexing,
        result,
        searched,
        embedQuery,
      } = await indexAndSearch(retriever, corpus.documents, record, signal).catch(async (error: unknown) => {
        // A failed question's vectors go at once (a shared Qdrant collection would otherwise
        // keep them until the run ends, or for ever after a crash); the question's error stands.
        await retriever.close?.().catch(() => undefined);
        throw error;
      });
      await retriever.close?.();
      const { hits } = result;
      const usage = result.rerank ? await rerank.add(result.rerank) : undefined;
      // Retrieval latency excludes embedding calls (cache lookups or the model).
      const retrieveMs = Math.max(0, searched - indexed - embedQuery * 1000);
      return {
        corpus,
        ranking: hits.map((hit) => hit.document),
        sessionRanking: result.sessionOrder
          ? haystackOrder(record.haystack_session_ids, result.sessionOrder)
          : undefined,
        hits,
        timings: { indexMs: indexed - started, retrieveMs },
        ...(usage ? { usage: { reranker: usage } } : {}),
        ...(config.explain
          ? {
              explain: explainTrace({
                config,
                retrieverId: retriever.id,
                result,
                indexed: documents,
                original: corpus.documents,
                record,
                corpus,
                timings: {
                  ...(contextual ? { contextualize: contextualized - started } : {}),
                  index: indexed - started,
                  embed_index: embedIndexing * 1000,
                  search: searched - indexed,
                  embed_query: embedQuery * 1000,
                  retrieve_excluding_embedding: retrieveMs,
                },
                ...(contextual ? { contextual: contextual.statuses } : {}),
              }),
            }
          : {}),
      };
    },
    progress: () => {
      const {
        embedded,
        cacheHits,
        embedSeconds,
        cacheCorrupt = 0,
        cacheLegacy = 0,
        truncated = 0,
      } = pipeline.stats();
      if (embedded + cacheHits === 0) return undefined;
      const rate = embedSeconds > 0 ? embedded / embedSeconds : 0;
      const hitRate = (100 * cacheHits) / (embedded + cacheHits);
      return (
        `embedded ${embedded} (${rate.toFixed(0)} texts/s), cache hits ${hitRate.toFixed(0)}%` +
        (truncated > 0 ? `, ${truncated} cut at the model's token limit` : '') +
        (cacheCorrupt > 0 ? `, ${cacheCorrupt} corrupt cache segments set aside and re-embedded` : '') +
        (cacheLegacy > 0 ? `, ${cacheLegacy} legacy cache segments not read (run \`lme cache upgrade\`)` : '')
      );
    },
    report: () => ({ ...pipeline.stats(), ...(config.reranker ? { rerank: rerank.totals() } : {}) }),
    close: () => pipeline.close(),
  };
}

/** Haystack indices of sessions given in rank order by id (a repeated id takes all its copies). */
function haystackOrder(haystackIds: readonly string[], order: readonly string[]): number[] {
  const positions = new Map<string, number[]>();
  for (const [index, id] of haystackIds.entries()) positions.set(id, [...(positions.get(id) ?? []), index]);
  return order.flatMap((id) => positions.get(id) ?? []);
}
