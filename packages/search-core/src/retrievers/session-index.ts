import type { MemoryDocument } from '../core/retriever.js';
import type { SessionSummary } from '../core/summarizer.js';
import { centroid } from '../core/vector-math.js';
import { createBm25Index } from '../lexical/bm25-index.js';
import type { SessionAwareOptions, SessionWeights } from './session-aware-options.js';
import { parseDates } from './time-boost.js';

/** The indexed haystack grouped into sessions, and the indexes both stages search. */
export type SessionIndex = {
  documents: readonly MemoryDocument[];
  sessionIds: string[];
  /** The documents (turns) of each session, in order. */
  turnsOf: number[][];
  sessionDates: (Date | undefined)[];
  summaries: SessionSummary[];
  turnIndex: ReturnType<typeof createBm25Index>;
  textIndex?: ReturnType<typeof createBm25Index>;
  summaryIndex?: ReturnType<typeof createBm25Index>;
  centroids: Float32Array[];
};

/** Groups the documents into sessions and builds the turn, session-text and summary indexes and the dense centroids. */
export async function indexSessions(
  options: SessionAwareOptions,
  weights: SessionWeights,
  documents: readonly MemoryDocument[],
  signal: AbortSignal | undefined,
): Promise<SessionIndex> {
  const { tokenizer, dense } = options;
  // Dense first: a remote vector store stores the vectors while the lexical indexes are built.
  if (dense) await dense.index({ documents, namespace: options.namespace, signal });
  const position = new Map<string, number>();
  const sessionIds: string[] = [];
  const turnsOf: number[][] = [];
  documents.forEach((document, index) => {
    let session = position.get(document.sessionId);
    if (session === undefined) {
      session = sessionIds.length;
      position.set(document.sessionId, session);
      sessionIds.push(document.sessionId);
      turnsOf.push([]);
    }
    turnsOf[session]!.push(index);
  });
  const sessionDates = options.timeBoost
    ? parseDates(turnsOf.map((turns) => documents[turns[0]!]!.date))
    : [];
  const turnIndex = createBm25Index(
    documents.map((document) => tokenizer.tokenize(document.text)),
    options.bm25,
  );
  const sessionText = turnsOf.map((turns) => turns.map((document) => documents[document]!.text).join(' '));
  const textIndex =
    weights.text > 0
      ? createBm25Index(
          sessionText.map((text) => tokenizer.tokenize(text)),
          options.bm25,
        )
      : undefined;
  let summaries: SessionSummary[] = [];
  let summaryIndex: ReturnType<typeof createBm25Index> | undefined;
  if (options.summarizer) {
    summaries = await options.summarizer.summarize({
      sessions: turnsOf.map((turns, session) => ({
        sessionId: sessionIds[session]!,
        date: documents[turns[0]!]!.date ?? '',
        turns: turns.map((document) => ({
          role: documents[document]!.role === 'assistant' ? 'assistant' : 'user',
          content: documents[document]!.text,
        })),
      })),
      signal,
    });
    summaryIndex = createBm25Index(
      summaries.map((summary) =>
        tokenizer.tokenize([summary.topics.join(' '), summary.text, summary.entities.join(' ')].join(' ')),
      ),
      options.bm25,
    );
  }
  let centroids: Float32Array[] = [];
  if (dense) {
    const vectors = dense.vectors();
    centroids = turnsOf.map((turns) =>
      centroid(
        turns.map((document) => vectors[document]!),
        vectors[0]?.length ?? 0,
      ),
    );
  }
  return {
    documents,
    sessionIds,
    turnsOf,
    sessionDates,
    summaries,
    turnIndex,
    ...(textIndex ? { textIndex } : {}),
    ...(summaryIndex ? { summaryIndex } : {}),
    centroids,
  };
}
