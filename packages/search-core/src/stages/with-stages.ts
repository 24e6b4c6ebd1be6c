import { type DedupMerge, mergeNearDuplicates } from '../core/dedup.js';
import type { MemoryDocument, RetrievalHit, Retriever, SearchOptions } from '../core/retriever.js';
import type { QueryClass } from '../query/query-class.js';
import { type QueryUnderstanding, understandQuery } from '../query/understand-query.js';
import type { DenseScorer } from '../retrievers/dense-scorer.js';
import { fusedPoolSize } from '../retrievers/multi-route-recall.js';
import { type MmrDecision, selectMmr } from './mmr.js';
import { DEFAULT_SIGNAL_WEIGHTS, rankMultiSignal, type SignalWeights } from './multi-signal-ranking.js';

/** The stages a staged retriever applies after its base retriever, in this order. */
export const STAGE_ORDER = ['dedup', 'multi_signal', 'mmr'] as const;
export type StageName = (typeof STAGE_ORDER)[number];

/** A retriever that may also rank sessions itself (session-aware, multi-route). */
export type BaseRetriever = Retriever & {
  searchSessions?(search: SearchOptions): Promise<{ hits: RetrievalHit[]; sessionOrder: string[] }>;
};

export type StagesOptions = {
  /** Near-duplicate merging (`mergeNearDuplicates`); threshold default 0.95. */
  dedup?: { threshold?: number };
  /** Query understanding and the multi-signal re-rank (`rankMultiSignal`). */
  multiSignal?: { weightsByClass?: Partial<Record<QueryClass, Partial<SignalWeights>>> };
  /** Maximal marginal relevance (`selectMmr`); lambda default 0.78, duplicate threshold 0.94. */
  mmr?: { lambda?: number; duplicateThreshold?: number };
  /** The number of hits the pipeline returns (K): MMR selects K; the stages act on the top max(K × 4, 32). */
  finalK: number;
  /** Document vectors for dedup and MMR (and the query vector MMR falls back on). */
  dense?: DenseScorer;
  /** The base retriever does not index `dense`: this wrapper indexes (and drops) it. */
  indexDense?: boolean;
  /** Namespace of `dense` when this wrapper indexes it. */
  namespace: string;
};

export type StageTrace = {
  /** The base retriever's top hits (the pool the stages act on) before any stage, best first. */
  basePool: RetrievalHit[];
  /** Stages applied, in order. */
  stages: StageName[];
  /** Milliseconds per step: `retrieve` (the base retriever), then each stage applied. */
  timings: Partial<Record<'retrieve' | StageName, number>>;
  merges: DedupMerge[];
  understanding?: QueryUnderstanding;
  /** The signal weights multi-signal used (its query class's row). */
  signalWeights?: SignalWeights;
  /** One decision per hit MMR saw, in its input order, with the hit's document index. */
  mmr?: (MmrDecision & { document: number })[];
};

export type StagedSearchResult = {
  /** The re-ranked pool, then the base ranking below the pool in its own order. */
  hits: RetrievalHit[];
  /** The base retriever's session order, when it ranks sessions itself (the stages reorder hits only). */
  sessionOrder?: string[];
  trace: StageTrace;
};

/**
 * Composes optional stages after a base retriever (BM25, dense, hybrid, session-aware,
 * multi-route): the base ranks every document, and the stages act on its top `max(K × 4, 32)`
 * hits (the candidate pool) in a fixed order: near-duplicate merging (hits whose vectors reach the
 * threshold fold into the better one) → multi-signal re-rank (the question's entities, temporal
 * scope and class; the incoming score is the semantic signal) → MMR (selects K for relevance
 * against redundancy; a document's tag is its session id, so same-session turns count as
 * partly redundant). Hits below the pool keep the base order after it. With no stage the result is
 * the base ranking unchanged. Every search also returns a trace for `explain`.
 */
export function withStages(
  base: BaseRetriever,
  options: StagesOptions,
): Retriever & { searchStaged(search: SearchOptions): Promise<StagedSearchResult> } {
  const { dense } = options;
  if ((options.dedup || options.mmr) && !dense)
    throw new Error('staged retriever: dedup and MMR need document vectors (a dense scorer)');
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
    const vectors = () => dense!.vectors();
    const timed = async (stage: StageName, work: () => Promise<void> | void) => {
      started = performance.now();
      await work();
      trace.timings[stage] = performance.now() - started;
      trace.stages.push(stage);
    };

    if (options.dedup) {
      const threshold = options.dedup.threshold;
      await timed('dedup', () => {
        const merged = mergeNearDuplicates({
          hits: pool,
          vectors: vectors(),
          ...(threshold === undefined ? {} : { threshold }),
        });
        pool = merged.hits;
        trace.merges = merged.merges;
      });
    }
    if (options.multiSignal) {
      const weightsByClass = options.multiSignal.weightsByClass;
      await timed('multi_signal', () => {
        if (search.queryDate === undefined)
          throw new Error('multi-signal ranking needs the question date (queryDate)');
        const understanding = understandQuery({ question: search.query, questionDate: search.queryDate });
        trace.understanding = understanding;
        trace.signalWeights = {
          ...DEFAULT_SIGNAL_WEIGHTS[understanding.queryClass],
          ...weightsByClass?.[understanding.queryClass],
        };
        pool = rankMultiSignal({
          hits: pool,
          documents,
          understanding,
          ...(weightsByClass ? { weightsByClass } : {}),
        });
      });
    }
    if (options.mmr) {
      const { lambda, duplicateThreshold } = options.mmr;
      await timed('mmr', async () => {
        // The query vector only matters when the scores carry no order; embed it only then.
        const flat = pool.length > 1 && pool.every((hit) => hit.score === pool[0]!.score);
        const queryVector = flat ? await dense!.queryVector(search.query, search.signal) : undefined;
        const selection = selectMmr({
          hits: pool,
          vectors: vectors(),
          k: options.finalK,
          tags: (document) => [documents[document]?.sessionId ?? ''],
          ...(queryVector ? { queryVector } : {}),
          ...(lambda === undefined ? {} : { lambda }),
          ...(duplicateThreshold === undefined ? {} : { duplicateThreshold }),
        });
        trace.mmr = selection.decisions.map((decision, position) => ({
          ...decision,
          document: pool[position]!.document,
        }));
        pool = selection.hits;
      });
    }
    return {
      hits: [...pool, ...rest].slice(0, search.limit),
      ...('sessionOrder' in baseResult ? { sessionOrder: baseResult.sessionOrder } : {}),
      trace,
    };
  }

  return {
    id: stagedId(base.id, options),
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

/** `hybrid:weighted+dedup+multi_signal+mmr`: the base id and the stages applied. */
function stagedId(baseId: string, options: StagesOptions): string {
  const stages = STAGE_ORDER.filter((stage) =>
    stage === 'dedup' ? options.dedup : stage === 'multi_signal' ? options.multiSignal : options.mmr,
  );
  return [baseId, ...stages].join('+');
}
