import type { Benchmark } from '../../benchmarks/benchmark.js';
import { buildCorpus } from '../../benchmarks/build-corpus.js';
import type { LongMemEvalRecord } from '../../benchmarks/longmemeval-record.js';
import { IN_PROCESS_CAPABILITIES } from '../../config/provider-capabilities.js';
import type { RunSections } from '../../config/run-sections.js';
import { indexesWithLlm } from '../../config/run-shape.js';
import type { Provider } from '../provider.js';
import { createPipeline, type PipelineResources } from './configured-pipeline.js';
import { rerankModelOf, rerankStats } from './configured-reranker.js';
import { type ExplainSections, explainTrace } from './explain-trace.js';
import type { PipelineSections } from './pipeline-sections.js';

/** What the pipeline as a provider reads: the pipeline's sections, the convention explain grades by, and `--explain`. */
export type PipelineProviderSections = PipelineSections &
  ExplainSections & { readonly run: Pick<RunSections['run'], 'explain'> };

/**
 * The search-core pipeline as a provider: the haystack is cut into documents of the configured
 * granularity, roles and chunk unit, contextualized when `--contextual` is on (the index sees the
 * context, the corpus keeps the original text for the reader and the metrics), indexed by a fresh
 * retriever, and every document ranked by the base retriever and the stages the run selects.
 */
export function createPipelineProvider(
  sections: PipelineProviderSections,
  resources: PipelineResources = {},
  environment: NodeJS.ProcessEnv = process.env,
  /** The run's benchmark, found once: how its documents are keyed (default: each record's). */
  benchmark?: Benchmark,
): Provider {
  const pipeline = createPipeline(sections, resources, environment);
  // --reranker: its calls are priced like the reader's and counted per question and per run.
  const rerankModel = rerankModelOf(sections.reranker);
  const rerank = rerankStats(rerankModel);
  type Indexing = {
    corpus: ReturnType<typeof buildCorpus>;
    retriever: ReturnType<typeof pipeline.createRetriever>;
    /** Contextualized and indexed, with the times of each step; rejects with the step's error. */
    ready: Promise<{
      started: number;
      contextual: Awaited<ReturnType<NonNullable<typeof pipeline.indexDocuments>>> | undefined;
      contextualized: number;
      documents: Parameters<ReturnType<typeof pipeline.createRetriever>['index']>[0]['documents'];
      indexed: number;
      embedIndexing: number;
    }>;
  };
  /** Contextualizes and indexes one haystack, timing each step. */
  const startIndexing = (record: LongMemEvalRecord, signal: AbortSignal | undefined): Indexing => {
    const corpus = buildCorpus(record, sections.retrieval, benchmark);
    const retriever = pipeline.createRetriever(record.question_id);
    const ready = (async () => {
      const started = performance.now();
      const contextual = pipeline.indexDocuments
        ? await pipeline.indexDocuments(corpus.documents, signal)
        : undefined;
      const contextualized = performance.now();
      const documents = contextual?.documents ?? corpus.documents;
      await retriever.index({ documents, signal });
      return {
        started,
        contextual,
        contextualized,
        documents,
        indexed: performance.now(),
        embedIndexing: retriever.embedSeconds(),
      };
    })();
    // Its failure is the question's, reported when it is retrieved (or dropped at close).
    ready.catch(() => undefined);
    return { corpus, retriever, ready };
  };
  /** Haystacks indexed ahead (`prepare`), by question id. */
  const prepared = new Map<string, Indexing>();
  /** Indexes (unless prepared) and searches one haystack, timing each step. */
  const indexAndSearch = async (
    { retriever, ready }: Indexing,
    record: { question: string; question_date: string },
    signal: AbortSignal | undefined,
  ) => {
    const indexed = await ready;
    // A prepared haystack was indexed before this question began: its search starts now.
    const searchStarted = performance.now();
    const search = {
      query: record.question,
      queryDate: record.question_date,
      limit: Number.POSITIVE_INFINITY,
      signal,
    };
    const result = await retriever.searchStaged(search);
    const searched = performance.now();
    const embedQuery = retriever.embedSeconds() - indexed.embedIndexing;
    return { ...indexed, searchStarted, result, searched, embedQuery };
  };
  const release = async ({ retriever }: Indexing) => {
    await retriever.close?.().catch(() => undefined);
  };
  return {
    id: pipeline.id,
    // Index-time stages calling an LLM (contextual chunks) are paid for: a haystack is indexed for the question that runs, only.
    ...(indexesWithLlm(sections.pipelineStages, IN_PROCESS_CAPABILITIES)
      ? {}
      : {
          prepare({ record, signal }: { record: LongMemEvalRecord; signal?: AbortSignal }) {
            if (!prepared.has(record.question_id))
              prepared.set(record.question_id, startIndexing(record, signal));
          },
        }),
    async retrieve({ record, signal }) {
      const indexing = prepared.get(record.question_id) ?? startIndexing(record, signal);
      prepared.delete(record.question_id);
      const { corpus, retriever } = indexing;
      const {
        started,
        contextual,
        contextualized,
        documents,
        indexed,
        embedIndexing,
        searchStarted,
        result,
        searched,
        embedQuery,
      } = await indexAndSearch(indexing, record, signal).catch(async (error: unknown) => {
        // A failed question's vectors go at once (a shared Qdrant collection would otherwise
        // keep them until the run ends, or for ever after a crash); the question's error stands.
        await release(indexing);
        throw error;
      });
      await retriever.close?.();
      const { hits } = result;
      const usage = result.rerank ? await rerank.add(result.rerank) : undefined;
      // Retrieval latency excludes embedding calls (cache lookups or the model).
      const retrieveMs = Math.max(0, searched - searchStarted - embedQuery * 1000);
      return {
        corpus,
        ranking: hits.map((hit) => hit.document),
        sessionRanking: result.sessionOrder
          ? haystackOrder(record.haystack_session_ids, result.sessionOrder)
          : undefined,
        hits,
        timings: { indexMs: indexed - started, retrieveMs },
        ...(usage ? { usage: { reranker: usage } } : {}),
        ...(sections.run.explain
          ? {
              explain: explainTrace({
                sections,
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
                  search: searched - searchStarted,
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
    flush: () => pipeline.flush(),
    report: () => ({ ...pipeline.stats(), ...(sections.reranker ? { rerank: rerank.totals() } : {}) }),
    async close() {
      // Haystacks prepared for questions that never ran (a stopped run) leave the store first.
      const left = [...prepared.values()];
      prepared.clear();
      await Promise.all(
        left.map((indexing) => indexing.ready.catch(() => undefined).then(() => release(indexing))),
      );
      await pipeline.close();
    },
  };
}

/** Haystack indices of sessions given in rank order by id (a repeated id takes all its copies). */
function haystackOrder(haystackIds: readonly string[], order: readonly string[]): number[] {
  const positions = new Map<string, number[]>();
  for (const [index, id] of haystackIds.entries()) positions.set(id, [...(positions.get(id) ?? []), index]);
  return order.flatMap((id) => positions.get(id) ?? []);
}
