import type { Benchmark } from '../benchmarks/benchmark.js';
import { benchmarkOfRecord } from '../benchmarks/benchmark-registry.js';
import {
  type Convention,
  type Corpus,
  type Granularity,
  officialRuleOf,
} from '../benchmarks/build-corpus.js';
import type { LongMemEvalRecord } from '../benchmarks/longmemeval-record.js';
import { type ContextGrade, gradeContext } from './context-recall.js';
import {
  type AtK,
  CUTOFFS,
  evaluateAtK,
  evaluateDistinctAtK,
  type GradedRanking,
} from './retrieval-metrics.js';

export type MetricValues = Record<string, number>;

export type QuestionRetrievalResult = {
  metrics: MetricValues;
  /** No gold at all at the scored level (the official convention B drops these). */
  noTarget: boolean;
  /** The gold keys at session level, for reports. */
  goldSessions: string[];
  /**
   * Evidence convention: gold sessions (answer_session_ids) the haystack does not hold. No
   * retriever can find them, so they count as not retrieved; reported, never silently.
   */
  absentGold?: string[];
  /** The packed context `context.evidence_recall` was measured on, when a budget was given. */
  context?: ContextGrade;
};

/** `answer_280352e9_5` → `answer_280352e9`: the official `strip_turn_id`. */
export function stripTurnId(id: string): string {
  return id.split('_').slice(0, -1).join('_');
}

/**
 * Grades one ranking of a haystack's documents at every official cutoff. Session granularity
 * gives session metrics; turn granularity gives turn metrics and session metrics through the
 * official turn-to-session conversion. Metric names: `session.recall_all@5`, `turn.ndcg_any@10`.
 */
export function evaluateQuestion(options: {
  record: LongMemEvalRecord;
  corpus: Corpus;
  ranking: readonly number[];
  /** Haystack session indices in rank order, when the retriever ranks sessions itself. */
  sessionRanking?: readonly number[];
  granularity: Granularity;
  convention: Convention;
  /** Also pack the ranking into this many tokens and measure `context.evidence_recall`. */
  contextBudget?: number;
  /** The run's benchmark (its own retrieval metrics); unset: the record's, by its question type. */
  benchmark?: Benchmark | undefined;
}): QuestionRetrievalResult {
  const { record, corpus, ranking, granularity, convention, sessionRanking } = options;
  const metrics: MetricValues = {};
  const put = (level: string, k: number, values: AtK) => {
    metrics[`${level}.recall_any@${k}`] = values.recallAny;
    metrics[`${level}.recall_all@${k}`] = values.recallAll;
    metrics[`${level}.ndcg_any@${k}`] = values.ndcgAny;
  };

  let primary: GradedRanking;
  let sessionLevel: GradedRanking | undefined;
  if (convention === 'official') {
    const rule = officialRuleOf(corpus);
    const keys = corpus.officialIds;
    const gold = new Set(keys.filter((id) => rule.isGold(id)));
    primary = { ranking, keys, gold };
    if (granularity === 'turn') {
      sessionLevel = {
        ranking,
        keys: keys.map((key) => rule.sessionOfKey(key)),
        gold: new Set([...gold].map((key) => rule.sessionOfKey(key))),
      };
    }
  } else {
    const gold = new Set(
      corpus.documents.filter((_, index) => corpus.evidence[index]).map((document) => document.id),
    );
    primary = { ranking, keys: corpus.documents.map((document) => document.id), gold };
    if (granularity === 'session') {
      // Evidence sessions are the answer_session_ids, present in the haystack or not.
      primary = { ...primary, gold: new Set(record.answer_session_ids) };
    } else {
      sessionLevel = {
        ranking,
        keys: corpus.documents.map((document) => document.sessionId),
        gold: new Set(record.answer_session_ids),
      };
    }
  }

  // A retriever that ranks sessions itself is graded on that order at session level.
  const ownSessionOrder =
    sessionRanking && granularity === 'turn'
      ? sessionGraded(record, corpus, sessionRanking, convention)
      : undefined;
  if (ownSessionOrder) sessionLevel = ownSessionOrder;
  for (const k of CUTOFFS) {
    put(granularity, k, evaluateAtK(primary, k));
    if (sessionLevel)
      put(
        'session',
        k,
        ownSessionOrder ? evaluateAtK(sessionLevel, k) : evaluateDistinctAtK(sessionLevel, k),
      );
  }
  if (convention === 'evidence') {
    metrics[`${granularity}.mrr`] = reciprocalRank(primary);
    if (sessionLevel) metrics['session.mrr'] = reciprocalRank(sessionLevel);
  }
  const sessionGold = sessionLevel?.gold ?? primary.gold;
  const context =
    options.contextBudget === undefined
      ? undefined
      : gradeContext({ record, corpus, ranking, budgetTokens: options.contextBudget, convention });
  if (context) Object.assign(metrics, context.metrics);
  // The benchmark's own retrieval figures (LoCoMo: official recall_acc, dialog and session level).
  const ownMetrics = (options.benchmark ?? benchmarkOfRecord(record))?.retrievalMetrics?.({
    record,
    corpus,
    ranking,
    ...(sessionRanking ? { sessionRanking } : {}),
    granularity,
    ...(context ? { packed: context.packed } : {}),
  });
  if (ownMetrics) Object.assign(metrics, ownMetrics);
  const haystack = new Set(record.haystack_session_ids);
  const absentGold =
    convention === 'evidence' ? record.answer_session_ids.filter((id) => !haystack.has(id)) : [];
  return {
    metrics,
    noTarget: primary.gold.size === 0,
    goldSessions: [...sessionGold],
    ...(absentGold.length > 0 ? { absentGold } : {}),
    ...(context ? { context } : {}),
  };
}

/** A session ranking graded with the session-granularity keys and gold of a convention. */
function sessionGraded(
  record: LongMemEvalRecord,
  corpus: Corpus,
  sessionRanking: readonly number[],
  convention: Convention,
): GradedRanking {
  if (convention === 'official') {
    const rule = officialRuleOf(corpus);
    const keys = record.haystack_sessions.map((turns, index) =>
      rule.sessionKey(record.haystack_session_ids[index]!, turns),
    );
    return { ranking: sessionRanking, keys, gold: new Set(keys.filter((id) => rule.isGold(id))) };
  }
  return {
    ranking: sessionRanking,
    keys: record.haystack_session_ids,
    gold: new Set(record.answer_session_ids),
  };
}

/** 1 / rank of the first relevant document, 0 when none is ranked. */
function reciprocalRank({ ranking, keys, gold }: GradedRanking): number {
  for (let rank = 0; rank < ranking.length; rank++) {
    if (gold.has(keys[ranking[rank]!]!)) return 1 / (rank + 1);
  }
  return 0;
}
