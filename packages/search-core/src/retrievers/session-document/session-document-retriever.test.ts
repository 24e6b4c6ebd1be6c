import { describe, expect, it } from 'vitest';
import type { MemoryDocument } from '../../core/retriever.js';
import type { Embedder } from '../../embedding/embedder.js';
import { getTokenizer } from '../../lexical/tokenizer.js';
import { createHashingEmbedder } from '../../testing/hashing-embedder.js';
import { createMemoryVectorIndex } from '../../vector-index/memory-vector-index.js';
import { createDenseScorer } from '../dense-scorer.js';
import { createFts5Bm25Retriever } from '../fts5-bm25/fts5-bm25-retriever.js';
import { extractKeywords, keywordOverlap } from './keyword-overlap.js';
import {
  bm25KeywordLeg,
  createSessionDocumentRetriever,
  type SessionDocumentRetrieverOptions,
} from './session-document-retriever.js';

const session = (id: string, parts: string[]): MemoryDocument => ({
  id,
  sessionId: id,
  text: parts.join(' '),
  parts,
});

/** The hashing embedder, remembering every document text it embeds. */
function recordingEmbedder(): { embedder: Embedder; embedded: string[] } {
  const base = createHashingEmbedder({ dimensions: 512 });
  const embedded: string[] = [];
  return {
    embedded,
    embedder: {
      ...base,
      embedDocuments: (options) => {
        embedded.push(...options.texts);
        return base.embedDocuments(options);
      },
    },
  };
}

async function rank(
  documents: MemoryDocument[],
  query: string,
  settings: Partial<SessionDocumentRetrieverOptions> = {},
) {
  const { embedder, embedded } = recordingEmbedder();
  const dense = createDenseScorer({ embedder, createIndex: (options) => createMemoryVectorIndex(options) });
  const retriever = createSessionDocumentRetriever({ dense, namespace: 'q', results: 50, ...settings });
  await retriever.index({ documents });
  const hits = await retriever.search({ query, limit: Number.POSITIVE_INFINITY });
  await retriever.close?.();
  return { hits, embedded };
}

describe('createSessionDocumentRetriever (MemPalace raw mode)', () => {
  it('embeds one text per session, its turns joined by a newline, and leaves out sessions without turns', async () => {
    const { hits, embedded } = await rank(
      [
        session('a', ['I adopted a cat', 'her name is Luna']),
        session('empty', []),
        session('b', ['', 'tax forms']),
      ],
      'my cat',
    );
    expect(embedded).toEqual(['I adopted a cat\nher name is Luna', '\ntax forms']);
    expect(hits.map((hit) => [hit.id, hit.document])).toEqual([
      ['a', 0],
      ['b', 2],
    ]);
  });

  it('ranks by squared L2 distance, nearest first, equal documents in corpus order, at most `results`', async () => {
    const documents = [
      session('tax', ['tax forms are due in April']),
      session('cat1', ['my cat Luna sleeps all day']),
      session('weather', ['rain again tomorrow']),
      session('cat2', ['my cat Luna sleeps all day']),
    ];
    const { hits } = await rank(documents, 'my cat Luna');
    expect(hits.slice(0, 2).map((hit) => hit.id)).toEqual(['cat1', 'cat2']);
    expect(hits[0]!.score).toBe(hits[1]!.score);
    // Unit vectors: squared L2 distance is 2 - 2 cos, so scores (minus distances) lie in [-4, 0].
    for (const hit of hits) expect(hit.score).toBeLessThanOrEqual(0);
    expect(hits.map((hit) => hit.score)).toEqual([...hits.map((hit) => hit.score)].sort((a, b) => b - a));
    const capped = await rank(documents, 'my cat Luna', { results: 3 });
    expect(capped.hits.map((hit) => hit.id)).toEqual(hits.slice(0, 3).map((hit) => hit.id));
  });

  it('with the keyword-overlap boost, moves a document naming the question words ahead (hybrid v1)', async () => {
    const documents = [
      session('near', ['stand stand stand my my my']),
      session('named', ['I bought a KitchenAid stand mixer yesterday']),
    ];
    const plain = await rank(documents, 'What stand mixer did I buy?');
    const boosted = await rank(documents, 'What stand mixer did I buy?', {
      boost: { kind: 'keyword-overlap', weight: 0.3 },
    });
    const hit = (hits: typeof plain.hits, id: string) => hits.find((each) => each.id === id)!;
    // "stand" and "mixer" both in `named`: its distance times 1 - 0.3 × 2/2; one of two in `near`.
    expect(hit(boosted.hits, 'named').score).toBeCloseTo(hit(plain.hits, 'named').score * 0.7, 12);
    expect(hit(boosted.hits, 'near').score).toBeCloseTo(hit(plain.hits, 'near').score * 0.85, 12);
    // The dense route keeps the distance and rank the vector search gave.
    expect(hit(boosted.hits, 'near').routes).toEqual(hit(plain.hits, 'near').routes);
  });
});

describe("MemPalace's keyword overlap", () => {
  it("extracts the words Python's \\b[a-z]{3,}\\b finds, less the stop words, repeats kept", () => {
    // Python 3: re.findall(r'\b[a-z]{3,}\b', text.lower()) gives what, did, buy, the, starbucks,
    // bought, and, tea, tea: "café", "lattes_x" and "naïve" hold no word under Unicode boundaries.
    const text = 'What café did I buy at the Starbucks? I bought 2 lattes_x and naïve tea, TEA!';
    expect(extractKeywords(text)).toEqual(['starbucks', 'and', 'tea', 'tea']);
  });

  it('counts the keywords found as substrings of the lower-cased document (0.75 by Python)', () => {
    expect(keywordOverlap(['starbucks', 'and', 'tea', 'tea'], 'Tea and scones')).toBe(0.75);
    expect(keywordOverlap([], 'anything')).toBe(0);
  });

  it("with a keyword leg, fuses each leg's normalized pool as memini does, and traces both routes", async () => {
    const documents = [
      session('tax', ['tax forms are due in April']),
      session('cat', ['my cat Luna sleeps all day']),
      session('rain', ['rain again tomorrow']),
    ];
    const tokenizer = getTokenizer('words');
    const vectorOnly = await rank(documents, 'when are tax forms due', {
      keyword: { weight: 0, leg: bm25KeywordLeg(tokenizer) },
    });
    const keywordOnly = await rank(documents, 'when are tax forms due', {
      keyword: { weight: 1, leg: bm25KeywordLeg(tokenizer) },
    });
    // Weight 1: only the keyword leg counts, and only `tax` matches: 1, the others 0.
    expect(keywordOnly.hits[0]).toMatchObject({ id: 'tax', score: 1 });
    expect(keywordOnly.hits[0]!.routes!.bm25).toMatchObject({ rank: 1 });
    expect(keywordOnly.hits.slice(1).map((hit) => hit.score)).toEqual([0, 0]);
    // Any lexical retriever can be the leg: memini's FTS5 bm25 ranks the same match first.
    const fts5 = await rank(documents, 'when are tax forms due', {
      keyword: { weight: 1, leg: createFts5Bm25Retriever() },
    });
    expect(fts5.hits[0]).toMatchObject({ id: 'tax', score: 1 });
    // Weight 0: the vector leg's min-max over its pool, nearest 1 and farthest 0.
    expect(vectorOnly.hits[0]!.score).toBe(1);
    expect(vectorOnly.hits.at(-1)!.score).toBe(0);
  });
});
