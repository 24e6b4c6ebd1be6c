import type { MemoryDocument, RetrievalHit, Retriever } from '../../core/retriever.js';
import { fts5PorterTokens, meminiQueryTerms } from './fts5-tokenizer.js';

// FTS5's bm25() constants (fts5_aux.c): k1 = 1.2, b = 0.75.
const K1 = 1.2;
const B = 0.75;
const MIN_IDF = 1e-6;

type Indexed = { terms: Map<string, number>; length: number };

/**
 * The statistics bm25() reads from its table: rows, tokens in all of them and, per term, the rows
 * holding it. memini's bench keeps every question's sessions in one table, so its statistics are
 * the whole file's (`scripts/memini-fts5-rankings.py --write-statistics` reads them from FTS5).
 */
export type Fts5Statistics = {
  rows: number;
  tokens: number;
  documentFrequency: ReadonlyMap<string, number>;
};

/**
 * memini's keyword leg (`KeywordSearch` in `internal/store/sqlitevec/store.go` at 033924f2): an
 * FTS5 table `fts5(content, summary, tags, tokenize='porter unicode61')` holding the document's
 * text as content (summary and tags empty; memini's LongMemEval documents are `--turn-form
 * role-prefixed`, `role: content` per turn: the separators between turns make no term), matched
 * by the OR query of `meminiQueryTerms`, ranked by `bm25(fts_memories)`: per query phrase idf × f(k1 + 1) / (f + k1(1 - b + b·D/avgdl)), idf =
 * ln((N - n + 0.5)/(n + 0.5)) floored at 1e-6, N, n, D and avgdl in tokens of the indexed
 * documents. Only documents matching a phrase are returned, best first, ties in corpus order.
 * The statistics are this haystack's, or `statistics` (memini's table of every question's sessions).
 */
export function createFts5Bm25Retriever(statistics?: Fts5Statistics): Retriever {
  let indexed: Indexed[] = [];
  let documents: readonly MemoryDocument[] = [];
  let averageLength = 0;

  return {
    id: 'fts5-bm25',
    async index(input) {
      documents = input.documents;
      indexed = documents.map((document) => {
        const tokens = fts5PorterTokens(document.text);
        const terms = new Map<string, number>();
        for (const token of tokens) terms.set(token, (terms.get(token) ?? 0) + 1);
        return { terms, length: tokens.length };
      });
      const total = statistics?.tokens ?? indexed.reduce((sum, entry) => sum + entry.length, 0);
      const rows = statistics?.rows ?? indexed.length;
      averageLength = rows > 0 ? total / rows : 0;
    },
    async search({ query, limit }) {
      const phrases = meminiQueryTerms(query);
      const count = statistics?.rows ?? indexed.length;
      const idf = phrases.map((phrase) => {
        const hits =
          statistics?.documentFrequency.get(phrase) ??
          (statistics ? 0 : indexed.filter((entry) => entry.terms.has(phrase)).length);
        const value = Math.log((count - hits + 0.5) / (hits + 0.5));
        return value <= 0 ? MIN_IDF : value;
      });
      const scored: { index: number; score: number }[] = [];
      indexed.forEach((entry, index) => {
        let score = 0;
        let matched = false;
        phrases.forEach((phrase, p) => {
          const frequency = entry.terms.get(phrase) ?? 0;
          if (frequency > 0) matched = true;
          score +=
            idf[p]! *
            ((frequency * (K1 + 1)) / (frequency + K1 * (1 - B + (B * entry.length) / averageLength)));
        });
        if (matched) scored.push({ index, score });
      });
      scored.sort((a, b) => b.score - a.score || a.index - b.index);
      return scored.slice(0, limit).map(({ index, score }, rank): RetrievalHit => {
        const document = documents[index]!;
        return {
          document: index,
          id: document.id,
          sessionId: document.sessionId,
          score,
          routes: { bm25: { score, rank: rank + 1 } },
        };
      });
    },
  };
}
