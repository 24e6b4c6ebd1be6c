/** Options of BM25Okapi; the defaults are rank_bm25's. */
export type Bm25Options = {
  k1?: number;
  b?: number;
  epsilon?: number;
};

export type Bm25Index = {
  readonly size: number;
  /**
   * One score per document, in corpus order. `weights` (one per query term) scale each term's
   * contribution; without them every occurrence counts once, as BM25Okapi does.
   */
  scores(queryTerms: readonly string[], weights?: ArrayLike<number>): Float64Array;
  /**
   * The terms of the given documents with their weight as feedback: the mean over those documents
   * of the term's share of the document (count / length) times its idf, best first; terms in
   * `exclude` and terms at the idf floor (in most documents) left out.
   */
  feedbackTerms(
    documents: readonly number[],
    count: number,
    exclude: ReadonlySet<string>,
  ): { term: string; weight: number }[];
  /** The idf of a term as BM25Okapi computes it (0 for an unseen term). */
  idf(term: string): number;
};

/**
 * Okapi BM25 identical to rank_bm25 0.2.2 `BM25Okapi` (the retriever of the official
 * LongMemEval scripts): idf = ln(N - df + 0.5) - ln(df + 0.5) with no +1, negative idfs replaced
 * by epsilon times the mean idf over the vocabulary (in first-seen order, as Python's dict), and a
 * query term counted once per occurrence. Scores are accumulated term by term in query order with
 * the same operation order as numpy, so they match to the last bit or so; documents without a
 * term get nothing added (numpy adds an exact 0 there).
 *
 * The postings are flat typed arrays (compressed sparse rows: term id -> documents and counts,
 * documents ascending), built in two passes with no per-document map and no per-term object: at
 * 500 sessions per question (LongMemEval M) the per-term arrays and per-document maps made the
 * index build and the garbage collector most of a BM25 run.
 */
export function createBm25Index(
  documents: readonly (readonly string[])[],
  options: Bm25Options = {},
): Bm25Index {
  const k1 = options.k1 ?? 1.5;
  const b = options.b ?? 0.75;
  const epsilon = options.epsilon ?? 0.25;
  const size = documents.length;
  const docLengths = new Float64Array(size);
  let totalLength = 0;
  for (let doc = 0; doc < size; doc++) {
    docLengths[doc] = documents[doc]!.length;
    totalLength += documents[doc]!.length;
  }

  // Pass 1: term ids in first-seen order, and one (term, count) pair per distinct term of each
  // document, documents in order.
  const termIds = new Map<string, number>();
  const lastDoc: number[] = [];
  const pairOfTerm: number[] = [];
  const pairTerms = new Int32Array(totalLength);
  const pairCounts = new Int32Array(totalLength);
  const docStarts = new Int32Array(size + 1);
  let pairs = 0;
  for (let doc = 0; doc < size; doc++) {
    docStarts[doc] = pairs;
    for (const term of documents[doc]!) {
      let termId = termIds.get(term);
      if (termId === undefined) {
        termId = termIds.size;
        termIds.set(term, termId);
        lastDoc.push(-1);
        pairOfTerm.push(0);
      }
      if (lastDoc[termId] !== doc) {
        lastDoc[termId] = doc;
        pairOfTerm[termId] = pairs;
        pairTerms[pairs] = termId;
        pairCounts[pairs] = 1;
        pairs++;
      } else {
        pairCounts[pairOfTerm[termId]!]!++;
      }
    }
  }
  docStarts[size] = pairs;

  // Pass 2: postings per term, documents ascending.
  const vocabulary = termIds.size;
  const starts = new Int32Array(vocabulary + 1);
  for (let pair = 0; pair < pairs; pair++) starts[pairTerms[pair]! + 1]!++;
  for (let termId = 0; termId < vocabulary; termId++) starts[termId + 1]! += starts[termId]!;
  const postingDocs = new Int32Array(pairs);
  const postingCounts = new Int32Array(pairs);
  const cursor = starts.slice(0, vocabulary);
  for (let doc = 0; doc < size; doc++) {
    for (let pair = docStarts[doc]!; pair < docStarts[doc + 1]!; pair++) {
      const at = cursor[pairTerms[pair]!]!++;
      postingDocs[at] = doc;
      postingCounts[at] = pairCounts[pair]!;
    }
  }

  const averageLength = totalLength / size;
  const idfs = new Float64Array(vocabulary);
  let idfSum = 0;
  const negative: number[] = [];
  for (let termId = 0; termId < vocabulary; termId++) {
    const df = starts[termId + 1]! - starts[termId]!;
    const idf = Math.log(size - df + 0.5) - Math.log(df + 0.5);
    idfs[termId] = idf;
    idfSum += idf;
    if (idf < 0) negative.push(termId);
  }
  const floor = epsilon * (idfSum / vocabulary);
  for (const termId of negative) idfs[termId] = floor;

  // k1 * (1 - b + b * dl / avgdl), per document, as numpy evaluates it.
  const lengthNorm = new Float64Array(size);
  for (let doc = 0; doc < size; doc++)
    lengthNorm[doc] = k1 * (1 - b + (b * docLengths[doc]!) / averageLength);

  /** Term of each id, built on the first feedback query. */
  let terms: string[] | undefined;
  return {
    size,
    idf: (term) => {
      const termId = termIds.get(term);
      return termId === undefined ? 0 : idfs[termId]!;
    },
    scores(queryTerms, weights) {
      const scores = new Float64Array(size);
      for (let position = 0; position < queryTerms.length; position++) {
        const termId = termIds.get(queryTerms[position]!);
        if (termId === undefined) continue;
        const idf = weights ? idfs[termId]! * weights[position]! : idfs[termId]!;
        const end = starts[termId + 1]!;
        for (let at = starts[termId]!; at < end; at++) {
          const doc = postingDocs[at]!;
          const frequency = postingCounts[at]!;
          scores[doc]! += idf * ((frequency * (k1 + 1)) / (frequency + lengthNorm[doc]!));
        }
      }
      return scores;
    },
    feedbackTerms(feedbackDocs, count, exclude) {
      const weightOf = new Map<number, number>();
      for (const doc of feedbackDocs) {
        if (docLengths[doc]! === 0) continue;
        for (let pair = docStarts[doc]!; pair < docStarts[doc + 1]!; pair++) {
          const termId = pairTerms[pair]!;
          if (idfs[termId]! <= floor) continue;
          const share = (pairCounts[pair]! / docLengths[doc]!) * idfs[termId]!;
          weightOf.set(termId, (weightOf.get(termId) ?? 0) + share / feedbackDocs.length);
        }
      }
      terms ??= [...termIds.keys()];
      const known = terms;
      return [...weightOf]
        .filter(([termId]) => !exclude.has(known[termId]!))
        .sort(([leftId, left], [rightId, right]) => right - left || leftId - rightId)
        .slice(0, count)
        .map(([termId, weight]) => ({ term: known[termId]!, weight }));
    },
  };
}
