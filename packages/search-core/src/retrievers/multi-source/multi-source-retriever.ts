import { type DedupMerge, mergeNearDuplicates } from '../../core/dedup.js';
import type { MemoryDocument, RetrievalHit, Retriever, SearchOptions } from '../../core/retriever.js';
import type { Tokenizer } from '../../lexical/tokenizer.js';
import type { DenseScorer } from '../dense-scorer.js';
import { ranksOf } from '../fusion.js';
import { fusedPoolSize } from '../multi-route-recall.js';
import { adaptiveWeights, type SourceName, type SourceWeights } from './adaptive-weights.js';
import { type ConversationContextOptions, scoreConversationContext } from './conversation-context-source.js';
import { buildEntityGraph, type EntityGraph, searchEntityGraph } from './entity-graph.js';

export type MultiSourceOptions = {
  /** Source (a): stored memory searched semantically (today's hybrid retriever). */
  memory: Retriever;
  tokenizer: Tokenizer;
  /** Document vectors for the dedup (the memory retriever's dense scorer). */
  dense?: DenseScorer;
  /** Base weights before the query cues; unset keys take DEFAULT_SOURCE_WEIGHTS. */
  weights?: Partial<SourceWeights>;
  context?: ConversationContextOptions;
  /** Cosine at which two merged hits are one; default 0.95. */
  dedupThreshold?: number;
  /** K: the dedup acts on the top max(K × 4, 32); counts are of the top K. */
  finalK: number;
};

/** The debug statistics of one multi-source search (explain.jsonl `multi_source`). */
export type MultiSourceTrace = {
  weights: SourceWeights;
  cues: string[];
  query_entities: string[];
  graph_seeds: string[];
  recent_sessions: string[];
  /** Documents each source gave a score above 0. */
  scored: Record<SourceName, number>;
  /** Of the final top K, how many each source ranked within its own top K. */
  top_k_from: Record<SourceName, number>;
  /** Ids the merge put in the top 5 that stored memory alone ranked below 5, with the source that lifted each most. */
  top5_entered: { id: string; memory_rank: number; lifted_by: SourceName }[];
  merges: DedupMerge[];
};

const SOURCES: SourceName[] = ['memory', 'graph', 'context'];

/**
 * Multi-source retrieval: stored memory (the hybrid retriever), an entity graph built at ingest
 * from the user turns, and the conversation context (the most recent sessions before the
 * question). Each source's scores are min-max normalised over the documents it scored, merged by
 * a weighted sum whose weights follow the query's cues (`adaptiveWeights`), and near-duplicates
 * among the top hits merged by embedding similarity (`mergeNearDuplicates`). Each hit carries
 * every source's score and rank; `lastTrace` gives the debug statistics of the last search.
 */
export function createMultiSourceRetriever(options: MultiSourceOptions): Retriever & {
  lastTrace(): MultiSourceTrace | undefined;
} {
  let documents: readonly MemoryDocument[] = [];
  let graph: EntityGraph | undefined;
  let trace: MultiSourceTrace | undefined;

  async function search(search: SearchOptions): Promise<RetrievalHit[]> {
    if (!graph) throw new Error('multi-source retriever: search before index');
    const memoryHits = await options.memory.search({ ...search, limit: Number.POSITIVE_INFINITY });
    const memoryScores = new Float64Array(documents.length);
    const memoryRoutes = new Map<number, RetrievalHit['routes']>();
    for (const hit of memoryHits) {
      memoryScores[hit.document] = hit.score;
      memoryRoutes.set(hit.document, hit.routes);
    }
    const adaptive = adaptiveWeights(search.query, options.weights);
    const graphSearch = searchEntityGraph(graph, adaptive.entities, documents);
    const context = scoreConversationContext({
      documents,
      query: search.query,
      ...(search.queryDate ? { queryDate: search.queryDate } : {}),
      tokenizer: options.tokenizer,
      ...(options.context ? { context: options.context } : {}),
    });
    const raw: Record<SourceName, Float64Array> = {
      memory: memoryScores,
      graph: graphSearch.scores,
      context: context.scores,
    };
    const normalised = {
      memory: normalise(memoryScores, true),
      graph: normalise(graphSearch.scores, false),
      context: normalise(context.scores, false),
    };
    const ranks = Object.fromEntries(SOURCES.map((source) => [source, ranksOf(raw[source])])) as Record<
      SourceName,
      Int32Array | number[]
    >;
    const merged = documents.map((_, index) =>
      SOURCES.reduce((sum, source) => sum + adaptive.weights[source] * normalised[source][index]!, 0),
    );
    let hits: RetrievalHit[] = documents
      .map((document, index) => {
        const routes: RetrievalHit['routes'] = { ...memoryRoutes.get(index) };
        for (const source of SOURCES)
          routes[source] = {
            score: raw[source][index]!,
            rank: source === 'memory' || raw[source][index]! > 0 ? ranks[source][index]! : 0,
          };
        return {
          document: index,
          id: document.id,
          sessionId: document.sessionId,
          score: merged[index]!,
          routes,
        };
      })
      .sort((left, right) => right.score - left.score || left.document - right.document);

    let merges: DedupMerge[] = [];
    if (options.dense) {
      const poolSize = fusedPoolSize(options.finalK);
      const deduped = mergeNearDuplicates({
        hits: hits.slice(0, poolSize),
        vectors: options.dense.vectors(),
        ...(options.dedupThreshold === undefined ? {} : { threshold: options.dedupThreshold }),
      });
      merges = deduped.merges;
      hits = [...deduped.hits, ...hits.slice(poolSize)];
    }

    const k = options.finalK;
    const top = hits.slice(0, k);
    trace = {
      weights: adaptive.weights,
      cues: adaptive.cues,
      query_entities: adaptive.entities,
      graph_seeds: graphSearch.seeds.slice(0, 20),
      recent_sessions: context.sessions,
      scored: {
        memory: documents.length,
        graph: graphSearch.scores.filter((score) => score > 0).length,
        context: context.scores.filter((score) => score > 0).length,
      },
      top_k_from: Object.fromEntries(
        SOURCES.map((source) => [
          source,
          top.filter((hit) => {
            const rank = hit.routes[source]?.rank ?? 0;
            return rank > 0 && rank <= k;
          }).length,
        ]),
      ) as Record<SourceName, number>,
      top5_entered: hits
        .slice(0, 5)
        .filter((hit) => (hit.routes.memory?.rank ?? 0) > 5)
        .map((hit) => ({
          id: hit.id,
          memory_rank: hit.routes.memory!.rank,
          lifted_by:
            adaptive.weights.graph * normalised.graph[hit.document]! >=
            adaptive.weights.context * normalised.context[hit.document]!
              ? 'graph'
              : 'context',
        })),
      merges,
    };
    return hits.slice(0, search.limit);
  }

  return {
    id: 'multi-source',
    async index(indexOptions) {
      documents = indexOptions.documents;
      graph = buildEntityGraph(documents);
      await options.memory.index(indexOptions);
    },
    search,
    lastTrace: () => trace,
    close: async () => options.memory.close?.(),
  };
}

/** Min-max over the documents a source scored (all of them for `all`); unscored documents stay 0. */
function normalise(scores: Float64Array, all: boolean): Float64Array {
  let low = Number.POSITIVE_INFINITY;
  let high = Number.NEGATIVE_INFINITY;
  for (const score of scores) {
    if (!all && score <= 0) continue;
    low = Math.min(low, score);
    high = Math.max(high, score);
  }
  const out = new Float64Array(scores.length);
  if (!Number.isFinite(low)) return out;
  scores.forEach((score, index) => {
    if (!all && score <= 0) return;
    out[index] = high > low ? (score - low) / (high - low) : 1;
  });
  return out;
}
