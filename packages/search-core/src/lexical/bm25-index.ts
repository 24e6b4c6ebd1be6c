/** Options of BM25Okapi; the defaults are rank_bm25's. */
export type Bm25Options = {
  k1?: number;
  b?: number;
  epsilon?: number;
};

export type Bm25Index = {
  readonly size: number;
  /** One score per document, in corpus order. */
  scores(queryTerms: readonly string[]): Float64Array;
  /** The idf of a term as BM25Okapi computes it (0 for an unseen term). */
  idf(term: string): number;
};

type Posting = { docs: number[]; counts: number[] };

/**
 * Okapi BM25 identical to rank_bm25 0.2.2 `BM25Okapi` (the retriever of the official
 * LongMemEval scripts): idf = ln(N - df + 0.5) - ln(df + 0.5) with no +1, negative idfs replaced
 * by epsilon times the mean idf over the vocabulary (in first-seen order, as Python's dict), and a
 * query term counted once per occurrence. Scores are accumulated term by term in query order with
 * the same operation order as numpy, so they match to the last bit or so; documents without a
 * term get nothing added (numpy adds an exact 0 there).
 */
export function createBm25Index(
  documents: readonly (readonly string[])[],
  options: Bm25Options = {},
): Bm25Index {
  const k1 = options.k1 ?? 1.5;
  const b = options.b ?? 0.75;
  const epsilon = options.epsilon ?? 0.25;
  const size = documents.length;
  const postings = new Map<string, Posting>();
  const docLengths = new Float64Array(size);
  let totalLength = 0;

  for (let doc = 0; doc < size; doc++) {
    const terms = documents[doc]!;
    docLengths[doc] = terms.length;
    totalLength += terms.length;
    const frequencies = new Map<string, number>();
    for (const term of terms) frequencies.set(term, (frequencies.get(term) ?? 0) + 1);
    for (const [term, count] of frequencies) {
      let posting = postings.get(term);
      if (!posting) {
        posting = { docs: [], counts: [] };
        postings.set(term, posting);
      }
      posting.docs.push(doc);
      posting.counts.push(count);
    }
  }

  const averageLength = totalLength / size;
  const idfs = new Map<string, number>();
  let idfSum = 0;
  const negative: string[] = [];
  for (const [term, posting] of postings) {
    const df = posting.docs.length;
    const idf = Math.log(size - df + 0.5) - Math.log(df + 0.5);
    idfs.set(term, idf);
    idfSum += idf;
    if (idf < 0) negative.push(term);
  }
  const floor = epsilon * (idfSum / idfs.size);
  for (const term of negative) idfs.set(term, floor);

  // k1 * (1 - b + b * dl / avgdl), per document, as numpy evaluates it.
  const lengthNorm = new Float64Array(size);
  for (let doc = 0; doc < size; doc++)
    lengthNorm[doc] = k1 * (1 - b + (b * docLengths[doc]!) / averageLength);

  return {
    size,
    idf: (term) => idfs.get(term) ?? 0,
    scores(queryTerms) {
      const scores = new Float64Array(size);
      for (const term of queryTerms) {
        const posting = postings.get(term);
        if (!posting) continue;
        const idf = idfs.get(term)!;
        const { docs, counts } = posting;
        for (let i = 0; i < docs.length; i++) {
          const doc = docs[i]!;
          const frequency = counts[i]!;
          scores[doc]! += idf * ((frequency * (k1 + 1)) / (frequency + lengthNorm[doc]!));
        }
      }
      return scores;
    },
  };
}
