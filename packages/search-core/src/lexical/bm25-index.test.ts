import { describe, expect, it } from 'vitest';
import { createBm25Index } from './bm25-index.js';

// Expected values computed independently from rank_bm25's BM25Okapi formulas (k1 1.5, b 0.75,
// epsilon 0.25) in Python for this corpus.
const corpus = [
  ['the', 'cat', 'sat'],
  ['the', 'dog', 'sat', 'down'],
  ['the', 'cat', 'the', 'mat'],
  ['a', 'bird'],
];

describe('createBm25Index', () => {
  it('floors a negative idf at epsilon times the mean idf, as BM25Okapi does', () => {
    const index = createBm25Index(corpus);
    // ln(4 - 3 + 0.5) - ln(3 + 0.5) < 0, replaced by 0.25 * mean idf.
    expect(index.idf('the')).toBeCloseTo(0.10591223254840046, 15);
    expect(index.idf('cat')).toBe(0);
    expect(index.idf('dog')).toBeCloseTo(0.8472978603872037, 15);
    expect(index.idf('unseen')).toBe(0);
  });

  it('scores a repeated query term once per occurrence', () => {
    const scores = createBm25Index(corpus).scores(['cat', 'the', 'cat']);
    const expected = [0.10970988232105226, 0.09594836398112934, 0.14085514303112082, 0];
    for (const [doc, value] of expected.entries()) expect(scores[doc]).toBeCloseTo(value, 14);
  });

  it('gives zero to documents without any query term', () => {
    expect([...createBm25Index(corpus).scores(['zebra'])]).toEqual([0, 0, 0, 0]);
  });

  it('ranks an exact rare-term match first', () => {
    const scores = createBm25Index(corpus).scores(['mat']);
    expect(scores.indexOf(Math.max(...scores))).toBe(2);
  });

  it('gives bit-identical scores and idfs to a map-of-postings BM25Okapi on a repetitive corpus', () => {
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const words = Array.from({ length: 300 }, (_, index) => `w${index}`);
    const documents = Array.from({ length: 120 }, () =>
      Array.from(
        { length: 1 + Math.floor(random() * 80) },
        () => words[Math.floor(random() ** 2 * words.length)]!,
      ),
    );
    documents.push([]);
    const index = createBm25Index(documents);
    const reference = referenceBm25(documents);
    for (const word of [...words, 'unseen']) expect(index.idf(word)).toBe(reference.idf(word));
    const query = ['w0', 'w1', 'w0', 'w150', 'w299', 'unseen', 'w3'];
    expect([...index.scores(query)]).toEqual([...reference.scores(query)]);
  });
});

/** rank_bm25's BM25Okapi written the plain way (a map of postings per term), as the index was. */
function referenceBm25(documents: string[][]) {
  const [k1, b, epsilon] = [1.5, 0.75, 0.25];
  const postings = new Map<string, { docs: number[]; counts: number[] }>();
  const lengths = documents.map((terms) => terms.length);
  documents.forEach((terms, doc) => {
    const frequencies = new Map<string, number>();
    for (const term of terms) frequencies.set(term, (frequencies.get(term) ?? 0) + 1);
    for (const [term, count] of frequencies) {
      const posting = postings.get(term) ?? { docs: [], counts: [] };
      postings.set(term, posting);
      posting.docs.push(doc);
      posting.counts.push(count);
    }
  });
  const average = lengths.reduce((sum, length) => sum + length, 0) / documents.length;
  const idfs = new Map<string, number>();
  let sum = 0;
  for (const [term, { docs }] of postings) {
    const idf = Math.log(documents.length - docs.length + 0.5) - Math.log(docs.length + 0.5);
    idfs.set(term, idf);
    sum += idf;
  }
  const floor = epsilon * (sum / idfs.size);
  for (const [term, idf] of idfs) if (idf < 0) idfs.set(term, floor);
  return {
    idf: (term: string) => idfs.get(term) ?? 0,
    scores(query: string[]) {
      const scores = new Float64Array(documents.length);
      for (const term of query) {
        const posting = postings.get(term);
        if (!posting) continue;
        posting.docs.forEach((doc, at) => {
          const frequency = posting.counts[at]!;
          scores[doc]! +=
            idfs.get(term)! *
            ((frequency * (k1 + 1)) / (frequency + k1 * (1 - b + (b * lengths[doc]!) / average)));
        });
      }
      return scores;
    },
  };
}
