import type { BenchmarkRetrievalOptions } from '../benchmark.js';
import type { Corpus, Granularity } from '../corpus.js';
import { pyRound3 } from '../python-number.js';
import { locomoRecallAcc } from './locomo-recall-acc.js';
import {
  type LocomoAwareRecord,
  locomoDialogId,
  locomoEvidence,
  locomoSessionContextId,
} from './locomo-record.js';

/** The cutoffs LoCoMo retrieval figures are reported at. */
export const LOCOMO_CUTOFFS = [1, 3, 5, 10, 20] as const;

/**
 * Official LoCoMo `recall_acc` of a ranking, per question (see locomoRecallAcc):
 * - `locomo.recall_acc@k`: dialog mode, the context being the dia_ids of the top k turn documents;
 * - `locomo.session_recall_acc@k`: session mode, the context being `S<n>` of the first k distinct
 *   sessions in rank order (the retriever's own session order when it has one, as lme's
 *   `session.*` metrics), like the official summary RAG whose top k are k sessions;
 * - `@context`: the same over the documents `--context-budget` packs (those `context.evidence_recall`
 *   grades), when a budget is set;
 * - `..._as_printed@k`: what the official printed recall adds for the question: the value rounded
 *   to 3 places, but 0 for a question without evidence (its per-question value is 1). The mean
 *   over a category is the official printed figure; the mean of `locomo.recall_acc@k` is the
 *   per-question mean, the corrected figure.
 * At session granularity only the session-mode metrics exist (a session names no dialog).
 */
export function locomoRetrievalMetrics(
  options: BenchmarkRetrievalOptions & { record: LocomoAwareRecord },
): Record<string, number> {
  const { record, corpus, ranking, granularity } = options;
  const evidence = locomoEvidence(record);
  const metrics: Record<string, number> = {};
  const put = (name: string, suffix: string, context: readonly string[]) => {
    // An empty context with evidence makes the official code raise; nothing retrieved recalls nothing.
    const value = context.length === 0 && evidence.length > 0 ? 0 : locomoRecallAcc(evidence, context).value;
    metrics[`locomo.${name}@${suffix}`] = value;
    metrics[`locomo.${name}_as_printed@${suffix}`] =
      evidence.length === 0 ? 0 : pyRound3({ value, isInt: false }).value;
  };

  const documentDialog = (document: number): string | undefined => {
    const { sessionId, turnIndex } = corpus.documents[document]!;
    return turnIndex === undefined ? undefined : locomoDialogId(sessionId, turnIndex);
  };
  const rankedSessions = rankedSessionIds(options);

  for (const k of LOCOMO_CUTOFFS) {
    if (granularity === 'turn') {
      const dialogs = ranking.slice(0, k).flatMap((document) => documentDialog(document) ?? []);
      put('recall_acc', String(k), dialogs);
    }
    put('session_recall_acc', String(k), rankedSessions.slice(0, k));
  }
  if (options.packed) {
    const byId = new Map(corpus.documents.map((document, index) => [document.id, index]));
    const packed = options.packed.flatMap((id) => byId.get(id) ?? []);
    if (granularity === 'turn')
      put(
        'recall_acc',
        'context',
        packed.flatMap((document) => documentDialog(document) ?? []),
      );
    const sessions = distinct(
      packed.flatMap((document) => locomoSessionContextId(corpus.documents[document]!.sessionId) ?? []),
    );
    put('session_recall_acc', 'context', sessions);
  }
  return metrics;
}

function rankedSessionIds(options: {
  record: LocomoAwareRecord;
  corpus: Corpus;
  ranking: readonly number[];
  sessionRanking?: readonly number[];
  granularity: Granularity;
}): string[] {
  const { record, corpus, ranking, sessionRanking, granularity } = options;
  const ids =
    sessionRanking && granularity === 'turn'
      ? sessionRanking.map((index) => record.haystack_session_ids[index]!)
      : ranking.map((document) => corpus.documents[document]!.sessionId);
  return distinct(ids.flatMap((id) => locomoSessionContextId(id) ?? []));
}

function distinct(values: readonly string[]): string[] {
  return [...new Set(values)];
}
