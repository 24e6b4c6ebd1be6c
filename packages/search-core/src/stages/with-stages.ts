import type { MemoryDocument, RetrievalHit, Retriever, SearchOptions } from '../core/retriever.js';
import type { DenseScorer } from '../retrievers/dense-scorer.js';
import { fusedPoolSize } from '../retrievers/multi-route-recall.js';
import type { Stage, StageTrace } from './stage.js';

/** A retriever that may also rank sessions itself (session-aware, multi-route). */
export type BaseRetriever = Retriever & {
  searchSessions?(search: SearchOptions): Promise<{ hits: RetrievalHit[]; sessionOrder: string[] }>;
};

export type StagesOptions = {
  /** The stages to apply to the candidate pool, in this order (none: the base ranking unchanged). */
  stages?: readonly Stage[];
  /** The number of hits the pipeline returns (K): MMR selects K; the stages act on the top max(K × 4, 32). */
  finalK: number;
  /** Document vectors for the stages that need them (and the query vector MMR falls back on). */
  dense?: DenseScorer;
  /** The base retriever does not index `dense`: this wrapper indexes (and drops) it. */
  indexDense?: boolean;
  /** Namespace of `dense` when this wrapper indexes it. */
  namespace: string;
};

export type StagedSearchResult = {
  /** The re-ranked pool, then the base ranking below the pool in its own order. */
  hits: RetrievalHit[];
  /** The base retriever's session order, when it ranks sessions itself (the stages reorder hits only). */
  sessionOrder?: string[];
  trace: StageTrace;
};

/**
 * Composes stages after a base retriever (BM25, dense, hybrid, session-aware, multi-route): the
 * base ranks every document, and the stages act on its top `max(K × 4, 32)` hits (the candidate
 * pool) in the order given, each taking the pool the one before returned (`dedupStage`,
 * `multiSignalStage`, `mmrStage`). Hits below the pool keep the base order after it. With no stage
 * the result is the base ranking unchanged. Every search also returns a trace for `explain`.
 */
export function withStages(
  base: BaseRetriever,
  options: StagesOptions,
): Retriever & { searchStaged(search: SearchOptions): Promise<StagedSearchResult> } {
  const { dense } = options;
  const stages = options.stages ?? [];
  const needing = stages.filter((stage) => stage.needsVectors).map((stage) => stage.name);
  if (needing.length > 0 && !dense)
    throw new Error(`staged retriever: ${needing.join(' and ')} need document vectors (a dense scorer)`);
  let documents: readonly MemoryDocument[] = [];

  async function searchStaged(search: SearchOptions): Promise<StagedSearchResult> {
    const whole = { ...search, limit: Number.POSITIVE_INFINITY };
    let started = performance.now();
    const baseResult = base.searchSessions
      ? await base.searchSessions(whole)
      : { hits: await base.search(whole) };
    const trace: StageTrace = {
      basePool: [],
      stages: [],
      timings: { retrieve: performance.now() - started },
      merges: [],
    };
    const poolSize = fusedPoolSize(options.finalK);
    let pool = baseResult.hits.slice(0, poolSize);
    const rest = baseResult.hits.slice(poolSize);
    trace.basePool = pool;
    const context = { search, documents, finalK: options.finalK, dense, trace };
    for (const stage of stages) {
      started = performance.now();
      pool = await stage.apply(pool, context);
      trace.timings[stage.name] = performance.now() - started;
      trace.stages.push(stage.name);
    }
    return {
      hits: [...pool, ...rest].slice(0, search.limit),
      ...('sessionOrder' in baseResult ? { sessionOrder: baseResult.sessionOrder } : {}),
      trace,
    };
  }

  return {
    id: [base.id, ...stages.map((stage) => stage.name)].join('+'),
    async index(indexOptions) {
      documents = indexOptions.documents;
      await base.index(indexOptions);
      if (options.indexDense && dense)
        await dense.index({
          documents,
          namespace: options.namespace,
          ...(indexOptions.signal ? { signal: indexOptions.signal } : {}),
        });
    },
    async search(search) {
      return (await searchStaged(search)).hits;
    },
    searchStaged,
    async close() {
      await base.close?.();
      if (options.indexDense) await dense?.drop();
    },
  };
}
