import { rankByScore } from '../core/rank-by-score.js';
import type { MemoryDocument, RetrievalHit, Retriever } from '../core/retriever.js';
import { type Bm25Feedback, bm25FeedbackScores } from './bm25-feedback.js';
import { type Bm25Index, type Bm25Options, createBm25Index } from './bm25-index.js';
import type { Tokenizer } from './tokenizer.js';

export type Bm25RetrieverOptions = Bm25Options & { tokenizer: Tokenizer };

/** Ranks documents by BM25Okapi over the chosen tokenizer's terms. */
export function createBm25Retriever(options: Bm25RetrieverOptions): Retriever & {
  /** Raw scores for every document, in corpus order (for fusion). */
  scoreAll(query: string): Float64Array;
  /** scoreAll with the query expanded by the terms of `ranking`'s top documents (bm25-feedback.ts). */
  scoreWithFeedback(query: string, ranking: readonly number[], feedback: Bm25Feedback): Float64Array;
} {
  const { tokenizer } = options;
  let documents: readonly MemoryDocument[] = [];
  let bm25: Bm25Index | undefined;

  const scoreAll = (query: string): Float64Array => {
    if (!bm25) throw new Error('bm25 retriever: search before index');
    return bm25.scores(tokenizer.tokenize(query));
  };

  return {
    id: `bm25:${tokenizer.id}`,
    async index(indexOptions) {
      documents = indexOptions.documents;
      bm25 = createBm25Index(
        documents.map((document) => tokenizer.tokenize(document.text)),
        options,
      );
    },
    async search({ query, limit }) {
      const scores = scoreAll(query);
      const order = rankByScore(scores);
      const count = Math.min(limit, order.length);
      const hits: RetrievalHit[] = [];
      for (let rank = 0; rank < count; rank++) {
        const index = order[rank]!;
        const document = documents[index]!;
        const score = scores[index]!;
        hits.push({
          document: index,
          id: document.id,
          sessionId: document.sessionId,
          score,
          routes: { bm25: { score, rank: rank + 1 } },
        });
      }
      return hits;
    },
    scoreAll,
    scoreWithFeedback(query, ranking, feedback) {
      if (!bm25) throw new Error('bm25 retriever: search before index');
      return bm25FeedbackScores(bm25, tokenizer.tokenize(query), ranking, feedback);
    },
  };
}
