import {
  type ChunkStatus,
  type MemoryDocument,
  type MultiSourceTrace,
  questionSpan,
  type RerankTrace,
  type RetrievalHit,
  type StagedSearchResult,
} from '@lme/search-core';
import type { Corpus } from '../../benchmarks/build-corpus.js';
import type { LongMemEvalRecord } from '../../benchmarks/longmemeval-record.js';
import { retrieverExplain, searchedRoutes } from '../../config/retriever-rules.js';
import type { RunSections } from '../../config/run-sections.js';
import { goldTrace } from './gold-trace.js';

/** Traces that are a fused score or a stage's output, not a retrieval source of their own. */
const DERIVED_ROUTES = new Set([
  'rrf',
  'session',
  'session_first',
  'session_best',
  'turn_support',
  'best_turn',
  'rerank_input',
  'time',
  'session_time',
]);

function isStageRoute(route: string): boolean {
  return route.startsWith('signal_') || route === 'multi_signal' || route === 'mmr';
}

/**
 * What a trace states: the retriever (with its own options), its routes' fusion, the selected
 * stages (with theirs) and the convention the gold items are read under.
 */
export type ExplainSections = Pick<
  RunSections,
  'retrieval' | 'routes' | 'retriever' | 'pipelineStages' | 'data'
>;

export type ExplainTraceOptions = {
  sections: ExplainSections;
  retrieverId: string;
  result: StagedSearchResult & { rerank?: RerankTrace; multiSource?: MultiSourceTrace };
  /** The documents as indexed (contextualized text when `--contextual` is on). */
  indexed: readonly MemoryDocument[];
  /** The corpus documents (original text). */
  original: readonly MemoryDocument[];
  /** Milliseconds per step of the question. */
  timings: Record<string, number>;
  contextual?: readonly ChunkStatus[];
  /** The question and its corpus: with them the trace carries the question and its gold items. */
  record?: LongMemEvalRecord;
  corpus?: Corpus;
};

const round = (value: number) => Math.round(value * 1000) / 1000;

/**
 * The explain.jsonl record of one question: the retriever and stages applied; per hit of the
 * candidate pool its base rank and fused score, its route scores and ranks, its signal values,
 * its MMR decision and the ids merged into it; per question the counts per source (how many of the
 * final top K hits each route ranked within its own top K), the duplicates removed, the weights
 * used and the milliseconds per stage.
 */
export function explainTrace(options: ExplainTraceOptions): Record<string, unknown> {
  const { sections, result, indexed, original } = options;
  const { retrieval, routes, data } = sections;
  const { trace } = result;
  const removed = trace.merges.reduce((count, merge) => count + merge.removed.length, 0);
  const pool = result.hits.slice(0, Math.max(0, trace.basePool.length - removed));
  const base = new Map(trace.basePool.map((hit, position) => [hit.document, { hit, rank: position + 1 }]));
  const mmr = new Map((trace.mmr ?? []).map((decision) => [decision.document, decision]));
  const finalK = retrieval.finalTopK;

  const sources: Record<string, number> = {};
  for (const hit of result.hits.slice(0, finalK)) {
    for (const [route, { rank }] of Object.entries(hit.routes)) {
      if (isStageRoute(route) || DERIVED_ROUTES.has(route)) continue;
      sources[route] ??= 0;
      if (rank > 0 && rank <= finalK) sources[route]++;
    }
  }

  // A retriever that fuses its own way says so (its descriptor's `explain`), with its own weights.
  const own = retrieverExplain(sections.retriever, routes.rrfK);
  const weights: Record<string, unknown> = {
    fusion:
      own.fusion ??
      (searchedRoutes(retrieval).length > 1
        ? routes.fusion === 'rrf'
          ? { kind: 'rrf', k: routes.rrfK }
          : {
              kind: routes.fusion,
              bm25: routes.weights[0],
              dense: routes.weights[1],
              ...(routes.fusionNormalization ? { normalization: routes.fusionNormalization } : {}),
              ...(routes.adaptiveWeights
                ? { adaptive: true, adaptive_power: routes.adaptivePower ?? 1 }
                : {}),
              ...(routes.denseGap ? { dense_gap: routes.denseGap } : {}),
            }
        : { kind: 'single', route: searchedRoutes(retrieval)[0] }),
  };
  if (routes.timeBoost) weights.time_boost = { weight: routes.timeBoost, span: timeSpan(options.record) };
  Object.assign(weights, own.weights);
  // What each selected stage adds (its descriptor's `explain`), in the order they ran.
  for (const { descriptor, options: stageOptions } of sections.pipelineStages)
    Object.assign(weights, descriptor.explain?.(stageOptions, { trace, finalK }));

  const gold =
    options.record && options.corpus
      ? goldTrace({
          record: options.record,
          corpus: options.corpus,
          convention: data.convention,
          granularity: retrieval.granularity,
          hits: result.hits,
          ...(result.sessionOrder ? { sessionOrder: result.sessionOrder } : {}),
          baseRank: (document) => base.get(document)?.rank ?? null,
        })
      : undefined;
  const goldSessions = new Set(gold?.gold.sessions.map((item) => item.session_id));
  const goldTurns = new Set(gold?.gold.turns.map((item) => item.id));
  const turnKey = (document: number) =>
    data.convention === 'official'
      ? options.corpus?.officialIds[document]
      : options.corpus?.documents[document]?.id;
  /** `turn`: the hit is a gold turn; `session`: it belongs to a gold session. */
  const goldMark = (hit: RetrievalHit): 'turn' | 'session' | undefined => {
    if (!gold) return undefined;
    const key = turnKey(hit.document);
    if (retrieval.granularity === 'turn' && key !== undefined && goldTurns.has(key)) return 'turn';
    return goldSessions.has(hit.sessionId) ? 'session' : undefined;
  };
  return {
    ...(gold ?? {}),
    retriever: options.retrieverId,
    stages: result.rerank ? [...trace.stages, 'rerank'] : trace.stages,
    timings_ms: Object.fromEntries(
      Object.entries({
        ...options.timings,
        ...trace.timings,
        ...(result.rerank ? { rerank: result.rerank.ms } : {}),
      }).map(([name, value]) => [name, round(value ?? 0)]),
    ),
    counts: {
      documents: indexed.length,
      pool: trace.basePool.length,
      final_k: finalK,
      removed_duplicates: removed,
      ...(trace.mmr
        ? {
            mmr_selected: trace.mmr.filter((decision) => decision.selectedAt !== undefined).length,
            mmr_skipped_duplicates: trace.mmr.filter((decision) => decision.skippedAsDuplicateOf).length,
          }
        : {}),
      ...(options.contextual
        ? { contextual_failed: options.contextual.filter((status) => status.status === 'failed').length }
        : {}),
    },
    sources,
    weights,
    removed_duplicates: trace.merges,
    ...(result.rerank ? { rerank: explainRerank(result.rerank) } : {}),
    ...(result.multiSource ? { multi_source: result.multiSource } : {}),
    ...(result.sessionOrder ? { session_order: result.sessionOrder.slice(0, 10) } : {}),
    hits: pool.map((hit, position) => {
      const mark = goldMark(hit);
      return {
        ...explainHit(hit, position + 1, { base, mmr, indexed, original }),
        ...(mark ? { gold: mark } : {}),
      };
    }),
  };
}

function explainHit(
  hit: RetrievalHit & { mergedIds?: string[] },
  rank: number,
  context: {
    base: Map<number, { hit: RetrievalHit; rank: number }>;
    mmr: Map<number, NonNullable<StagedSearchResult['trace']['mmr']>[number]>;
    indexed: readonly MemoryDocument[];
    original: readonly MemoryDocument[];
  },
): Record<string, unknown> {
  const routes: Record<string, { score: number; rank: number }> = {};
  const signals: Record<string, number> = {};
  for (const [route, traced] of Object.entries(hit.routes)) {
    if (route.startsWith('signal_')) signals[route.slice('signal_'.length)] = traced.score;
    else if (route === 'multi_signal') signals.combined = traced.score;
    else if (route !== 'mmr') routes[route] = traced;
  }
  const before = context.base.get(hit.document);
  const decision = context.mmr.get(hit.document);
  const indexedText = context.indexed[hit.document]?.text ?? '';
  const originalText = context.original[hit.document]?.text ?? '';
  const prefix =
    indexedText !== originalText && indexedText.endsWith(originalText)
      ? indexedText.slice(0, indexedText.length - originalText.length).trimEnd()
      : undefined;
  return {
    rank,
    id: hit.id,
    session_id: hit.sessionId,
    score: hit.score,
    base_rank: before?.rank ?? null,
    fused_score: before?.hit.score ?? null,
    routes,
    ...(Object.keys(signals).length > 0 ? { signals } : {}),
    ...(decision
      ? {
          mmr: {
            selected_at: decision.selectedAt ?? null,
            relevance: decision.relevance,
            redundancy: decision.redundancy,
            mmr_score: decision.mmrScore,
            skipped_as_duplicate_of: decision.skippedAsDuplicateOf ?? null,
          },
        }
      : {}),
    ...(hit.mergedIds ? { merged_ids: hit.mergedIds } : {}),
    ...(prefix ? { context: prefix } : {}),
  };
}

/** The rerank stage of one question: what it asked, what came back, how each hit moved. */
function explainRerank(trace: RerankTrace): Record<string, unknown> {
  return {
    reranker: trace.reranker,
    depth: trace.depth,
    candidates: trace.candidates,
    kept_incoming_order: trace.fallback !== undefined,
    ...(trace.fallback ? { fallback: trace.fallback } : {}),
    missing_ids: trace.missing,
    usage: trace.usage,
    changes: trace.changes.map((change) => ({
      ...change,
      score_before: round(change.score_before),
      score_after: round(change.score_after),
      rank_change: change.rank_before - change.rank_after,
    })),
  };
}

/** The span of time the question names, as the time boost read it (null: none, or no question). */
function timeSpan(record: LongMemEvalRecord | undefined) {
  const scope = record && questionSpan(record.question, record.question_date);
  return scope
    ? { expression: scope.expression, start: scope.start.toISOString(), end: scope.end.toISOString() }
    : null;
}
