import { type MemoryDocument, packContext, type RetrievalHit } from '@lme/search-core';
import { type Convention, type Corpus, officialRuleOf } from '../benchmarks/build-corpus.js';
import type { LongMemEvalRecord } from '../benchmarks/longmemeval-record.js';
import { countTokens } from './truncate-tokens.js';

/** Ranked documents the context is packed from: the deepest cutoff of the retrieval metrics. */
export const CONTEXT_CANDIDATES = 50;

export type ContextGrade = {
  /** `context.evidence_recall`; absent when the question has no evidence turn under the convention. */
  metrics: Record<string, number>;
  budgetTokens: number;
  usedTokens: number;
  /** Ids of the packed documents, in the order the reader would see them (chronological). */
  packed: string[];
  /** Ids of the candidates that did not fit. */
  skipped: string[];
  /** The evidence turns (`<session id>_<n>`, n 1-based as in turn ids) and which were packed. */
  evidence: string[];
  packedEvidence: string[];
};

/**
 * Packs the top `CONTEXT_CANDIDATES` ranked documents (original text) into a budget of
 * o200k_base tokens with `packContext` (greedy in rank order, a document that does not fit is
 * skipped) and measures `context.evidence_recall`: the share of the question's evidence turns
 * inside the packed documents. Evidence turns: under `official`, user turns with `has_answer` in
 * answer sessions; under `evidence`, turns of any role with `has_answer`. A turn document holds
 * its turn, a round its user turn and the reply, a session document the turns of its roles.
 */
export function gradeContext(options: {
  record: LongMemEvalRecord;
  corpus: Corpus;
  ranking: readonly number[];
  budgetTokens: number;
  convention: Convention;
}): ContextGrade {
  const { record, corpus, ranking, budgetTokens, convention } = options;
  const evidence = evidenceTurns(record, convention, corpus);
  const hits: RetrievalHit[] = ranking.slice(0, CONTEXT_CANDIDATES).map((document) => {
    const { id, sessionId } = corpus.documents[document]!;
    return { document, id, sessionId, score: 0, routes: {} };
  });
  const { packed, usedTokens, skipped } = packContext({
    hits,
    documents: corpus.documents,
    budgetTokens,
    countTokens: boundedCountTokens,
  });
  const inContext = new Set(packed.flatMap(({ document }) => turnsOf(document, record)));
  const packedEvidence = evidence.filter((turn) => inContext.has(turn));
  const metrics: Record<string, number> = {};
  if (evidence.length > 0) metrics['context.evidence_recall'] = packedEvidence.length / evidence.length;
  return {
    metrics,
    budgetTokens,
    usedTokens,
    packed: packed.map(({ document }) => document.id),
    skipped: skipped.map(({ id }) => id),
    evidence,
    packedEvidence,
  };
}

/** The packed context as explain.jsonl records it. */
export function contextTrace(grade: ContextGrade): Record<string, unknown> {
  return {
    budget_tokens: grade.budgetTokens,
    used_tokens: grade.usedTokens,
    packed: grade.packed,
    skipped: grade.skipped,
    evidence: grade.evidence,
    packed_evidence: grade.packedEvidence,
    evidence_recall: grade.metrics['context.evidence_recall'] ?? null,
  };
}

/**
 * Evidence turn ids of a question under a convention (empty for `_abs` questions and noans ones):
 * under `evidence`, turns with `has_answer`; under `official`, those the corpus's benchmark rule
 * takes (`KeyedGold.evidenceTurn`).
 */
export function evidenceTurns(record: LongMemEvalRecord, convention: Convention, corpus: Corpus): string[] {
  const rule = convention === 'official' ? officialRuleOf(corpus) : undefined;
  const turns = new Set<string>();
  record.haystack_sessions.forEach((session, sessionIndex) => {
    const sessionId = record.haystack_session_ids[sessionIndex]!;
    session.forEach((turn, turnIndex) => {
      if (turn.has_answer !== true) return;
      if (rule && !rule.evidenceTurn(sessionId, turn)) return;
      turns.add(`${sessionId}_${turnIndex + 1}`);
    });
  });
  return [...turns];
}

/** The turn ids a document holds. */
function turnsOf(document: MemoryDocument, record: LongMemEvalRecord): string[] {
  const { sessionId, turnIndex } = document;
  if (turnIndex !== undefined) {
    const own = `${sessionId}_${turnIndex + 1}`;
    return document.role === 'mixed' ? [own, `${sessionId}_${turnIndex + 2}`] : [own];
  }
  const session = record.haystack_session_ids.indexOf(sessionId);
  const turns = record.haystack_sessions[session] ?? [];
  return turns.flatMap((turn, index) =>
    document.role === 'mixed' || turn.role === 'user' ? [`${sessionId}_${index + 1}`] : [],
  );
}

/** Token counts by text: haystacks share sessions, and ablation variants share every text. */
const tokenCounts = new Map<string, number>();
const MAX_CACHED_COUNTS = 200_000;

/**
 * The o200k_base count of a text, or, for a text far longer than what is left of the budget
 * (`room`), the count of a prefix cut at a space when that alone exceeds it (BPE counts a prefix
 * cut between words at most one token above the whole text's share of it). Either way a document
 * that cannot fit is known not to fit, without tokenizing whole sessions: that keeps the metric
 * off the hot path.
 */
function boundedCountTokens(text: string, room: number): number {
  const prefixChars = (room + 2) * 12;
  if (text.length > prefixChars * 2) {
    const cut = text.lastIndexOf(' ', prefixChars);
    const prefixCount = cachedCountTokens(text.slice(0, cut > 0 ? cut : prefixChars));
    if (prefixCount > room + 1) return prefixCount;
  }
  return cachedCountTokens(text);
}

function cachedCountTokens(text: string): number {
  let count = tokenCounts.get(text);
  if (count === undefined) {
    count = countTokens(text);
    if (tokenCounts.size >= MAX_CACHED_COUNTS) tokenCounts.clear();
    tokenCounts.set(text, count);
  }
  return count;
}
