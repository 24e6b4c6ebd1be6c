import type { MemoryDocument, RetrievalHit } from '../core/retriever.js';
import { parseLongMemEvalDate } from '../query/temporal-scope.js';

export type PackContextOptions = {
  /** Hits in rank order. */
  hits: readonly RetrievalHit[];
  documents: readonly MemoryDocument[];
  budgetTokens: number;
  /**
   * Token count of a text (the benchmark's reader tokenizer: tiktoken's o200k_base), or, when the
   * text has more than `room` tokens (what is left of the budget), any number above `room`: a
   * text that cannot fit need not be counted whole.
   */
  countTokens: (text: string, room: number) => number;
  /**
   * The text of a memory as it will appear in the context (with any header the reader adds);
   * what is counted. Defaults to the document's text.
   */
  render?: (document: MemoryDocument) => string;
};

export type PackedMemory = {
  document: MemoryDocument;
  /** Index of the document in `documents`. */
  documentIndex: number;
  tokens: number;
  /** 1-based position of its hit in the ranking it was packed from. */
  rank: number;
};

export type PackContextResult = {
  /** The packed memories in chronological order: session date, then session id, then turn index. */
  packed: PackedMemory[];
  usedTokens: number;
  /** Hits that did not fit in what was left of the budget, in rank order (tokens: more than was left). */
  skipped: { id: string; tokens: number; rank: number }[];
};

/**
 * Packs memories into a token budget greedily in rank order: a hit that does not fit in what is
 * left is skipped and later, smaller ones may still fit; a document already packed is not
 * counted twice. The packed memories are then put in chronological order (session date, session
 * id, turn index; undated documents last, by rank) so the reader sees the conversation as it went.
 */
export function packContext(options: PackContextOptions): PackContextResult {
  const { hits, documents, budgetTokens, countTokens } = options;
  const render = options.render ?? ((document: MemoryDocument) => document.text);
  const packed: PackedMemory[] = [];
  const skipped: PackContextResult['skipped'] = [];
  const seen = new Set<number>();
  let usedTokens = 0;
  hits.forEach((hit, position) => {
    if (seen.has(hit.document)) return;
    const document = documents[hit.document];
    if (!document) throw new Error(`context budget: hit ${hit.id} points at no document (${hit.document})`);
    const tokens = countTokens(render(document), budgetTokens - usedTokens);
    if (usedTokens + tokens > budgetTokens) {
      skipped.push({ id: hit.id, tokens, rank: position + 1 });
      return;
    }
    seen.add(hit.document);
    usedTokens += tokens;
    packed.push({ document, documentIndex: hit.document, tokens, rank: position + 1 });
  });
  const time = (memory: PackedMemory) => {
    const date = memory.document.date === undefined ? undefined : parseLongMemEvalDate(memory.document.date);
    return date ? date.getTime() : Number.POSITIVE_INFINITY;
  };
  packed.sort(
    (left, right) =>
      time(left) - time(right) ||
      (left.document.sessionId < right.document.sessionId
        ? -1
        : left.document.sessionId > right.document.sessionId
          ? 1
          : 0) ||
      (left.document.turnIndex ?? -1) - (right.document.turnIndex ?? -1) ||
      left.rank - right.rank,
  );
  return { packed, usedTokens, skipped };
}

/** Share of the evidence ids (turn ids) present among the packed ids; 1 when there is no evidence. */
export function contextEvidenceRecall(
  packedDocumentIds: Iterable<string>,
  evidenceIds: Iterable<string>,
): number {
  const packed = new Set(packedDocumentIds);
  const evidence = new Set(evidenceIds);
  if (evidence.size === 0) return 1;
  let present = 0;
  for (const id of evidence) if (packed.has(id)) present++;
  return present / evidence.size;
}
