import type { RetrievalHit, RouteTrace } from '@lme/search-core';
import {
  type Convention,
  type Corpus,
  type Granularity,
  officialRuleOf,
} from '../../benchmarks/build-corpus.js';
import type { LongMemEvalRecord } from '../../benchmarks/longmemeval-record.js';

/** Routes that are a fusion or a stage's output rather than a retrieval source of their own. */
const DERIVED_ROUTE =
  /^(rrf|fused|session|session_first|session_best|turn_support|best_turn|mmr|multi_signal|signal_.*)$/;

/** Why a gold item is where it is, at cutoff k. */
export type MissCauseKind =
  | 'hit'
  | 'lexical_miss'
  | 'dense_miss'
  | 'all_routes_miss'
  | 'fusion_loss'
  | 'stage_loss'
  | 'not_retrieved';

export type MissCause = { kind: MissCauseKind; text: string };

/** One gold session or turn: where the final ranking put it and what each route gave it. */
export type GoldItem = {
  /** The graded key (official id, or the session/turn id under the evidence convention). */
  id: string;
  /** The haystack session id. */
  session_id: string;
  /** 1-based final rank, or null when no hit of it was retrieved. */
  rank: number | null;
  score: number | null;
  /** Rank in the base retriever's pool before stages, when a trace gave it. */
  base_rank?: number | null;
  routes: Record<string, RouteTrace>;
  cause: MissCause;
};

export type GoldTrace = {
  question: string;
  question_date: string;
  answer: string;
  gold: { k: number; sessions: GoldItem[]; turns: GoldItem[] };
};

function routeKind(route: string): 'lexical' | 'dense' | undefined {
  if (/bm25|lexical|keyword/.test(route)) return 'lexical';
  if (/dense|vector|embed/.test(route)) return 'dense';
  return undefined;
}

/** The retrieval sources among a hit's traced routes (fused scores and stage outputs left out). */
export function baseRoutes(routes: Record<string, RouteTrace>): [string, RouteTrace][] {
  return Object.entries(routes).filter(([route]) => !DERIVED_ROUTE.test(route));
}

const within = (rank: number | null | undefined, k: number) =>
  typeof rank === 'number' && rank > 0 && rank <= k;

function describe(route: string, trace: RouteTrace): string {
  const score = Math.round(trace.score * 1000) / 1000;
  return `${route} rank ${trace.rank > 0 ? trace.rank : 'none'}, score ${score}`;
}

/**
 * Names the cause of a gold item's place at cutoff k: in the top k; missed by the lexical route,
 * the dense route or every route (none ranked it within k); a fusion loss (a route ranked it
 * within k, the fused ranking did not); a stage loss (the base pool had it within k, a stage
 * pushed it out); or not retrieved at all.
 */
export function missCause(
  item: { rank: number | null; base_rank?: number | null; routes: Record<string, RouteTrace> },
  k: number,
): MissCause {
  if (within(item.rank, k)) return { kind: 'hit', text: `in the top ${k} (rank ${item.rank})` };
  const where = item.rank === null ? 'not retrieved' : `rank ${item.rank}`;
  const routes = baseRoutes(item.routes);
  if (item.rank === null && routes.length === 0) return { kind: 'not_retrieved', text: 'not retrieved' };
  const good = routes.filter(([, trace]) => within(trace.rank, k));
  if (good.length > 0) {
    if (within(item.base_rank, k)) {
      return {
        kind: 'stage_loss',
        text: `stage loss: base rank ${item.base_rank}, final ${where} (${good.map(([route, trace]) => describe(route, trace)).join('; ')})`,
      };
    }
    const single = routes.length === 1;
    return {
      kind: single ? 'stage_loss' : 'fusion_loss',
      text: `${single ? 'stage loss' : 'fusion loss'}: ${good.map(([route, trace]) => describe(route, trace)).join('; ')}, but final ${where}`,
    };
  }
  const kinds = new Set(routes.map(([route]) => routeKind(route)));
  const details = routes.map(([route, trace]) => describe(route, trace)).join('; ');
  if (routes.length === 0) return { kind: 'all_routes_miss', text: `final ${where} (no route trace)` };
  if (kinds.size === 1 && kinds.has('lexical'))
    return { kind: 'lexical_miss', text: `lexical miss: ${details}; final ${where}` };
  if (kinds.size === 1 && kinds.has('dense'))
    return { kind: 'dense_miss', text: `dense miss: ${details}; final ${where}` };
  return { kind: 'all_routes_miss', text: `missed by every route: ${details}; final ${where}` };
}

export type GoldTraceOptions = {
  record: LongMemEvalRecord;
  corpus: Corpus;
  convention: Convention;
  granularity: Granularity;
  /** Every ranked hit, best first (the full ranking, not the saved top). */
  hits: readonly RetrievalHit[];
  /** Haystack session ids in rank order, when the retriever ranked sessions itself. */
  sessionOrder?: readonly string[];
  /** Base rank per document index, from the trace. */
  baseRank?: (document: number) => number | null;
  /** The cutoff a cause is judged at (default 5, the headline metrics' k). */
  k?: number;
};

/**
 * The question, its date and answer, and every gold session and turn (as the run's convention
 * grades them) with the final rank it got (null: not retrieved), its per-route scores and ranks,
 * and the cause of a miss at cutoff k.
 */
export function goldTrace(options: GoldTraceOptions): GoldTrace {
  const { record, corpus, convention, granularity, hits } = options;
  const k = options.k ?? 5;
  const official = convention === 'official';
  const rule = official ? officialRuleOf(corpus) : undefined;
  const sessionKey = (index: number) =>
    rule
      ? granularity === 'turn'
        ? rule.sessionOfKey(corpus.officialIds[index]!)
        : corpus.officialIds[index]!
      : corpus.documents[index]!.sessionId;
  const goldSessionKeys = new Set<string>(
    rule
      ? corpus.officialIds.map((_, index) => sessionKey(index)).filter((key) => rule.isGold(key))
      : record.answer_session_ids,
  );
  const position = new Map<number, number>();
  hits.forEach((hit, index) => {
    if (!position.has(hit.document)) position.set(hit.document, index);
  });
  const item = (
    id: string,
    sessionId: string,
    rank: number | null,
    hit: RetrievalHit | undefined,
  ): GoldItem => {
    const base = hit ? (options.baseRank?.(hit.document) ?? null) : null;
    const routes = hit?.routes ?? {};
    const partial = { rank, base_rank: base, routes };
    return {
      id,
      session_id: sessionId,
      rank,
      score: hit?.score ?? null,
      ...(options.baseRank ? { base_rank: base } : {}),
      routes,
      cause: missCause(partial, k),
    };
  };

  const sessions: GoldItem[] = [];
  for (const key of goldSessionKeys) {
    const documentIndex = corpus.documents.findIndex((_, index) => sessionKey(index) === key);
    const sessionId =
      documentIndex >= 0 ? corpus.documents[documentIndex]!.sessionId : key.replace(/^noans/, 'answer');
    const best = hits.findIndex((hit) => sessionKey(hit.document) === key);
    let rank = best >= 0 ? best + 1 : null;
    if (options.sessionOrder) {
      const ordered = options.sessionOrder.indexOf(sessionId);
      rank = ordered >= 0 ? ordered + 1 : null;
    }
    sessions.push(item(key, sessionId, rank, best >= 0 ? hits[best] : undefined));
  }

  const turns: GoldItem[] = [];
  if (granularity === 'turn') {
    corpus.documents.forEach((document, index) => {
      const gold = rule ? rule.isGold(corpus.officialIds[index]!) : corpus.evidence[index] === true;
      if (!gold) return;
      const at = position.get(index);
      turns.push(
        item(
          official ? corpus.officialIds[index]! : document.id,
          document.sessionId,
          at === undefined ? null : at + 1,
          at === undefined ? undefined : hits[at],
        ),
      );
    });
  }
  return {
    question: record.question,
    question_date: record.question_date,
    answer: String(record.answer),
    gold: { k, sessions, turns },
  };
}
