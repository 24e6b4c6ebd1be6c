import { describe, expect, it } from 'vitest';
import type { MemoryDocument } from '../../core/retriever.js';
import { createFts5Bm25Retriever } from './fts5-bm25-retriever.js';
import { fts5PorterTokens, meminiQueryTerms } from './fts5-tokenizer.js';

/** A session as `--turn-form role-prefixed` writes it: `role: content` per turn. */
const session = (id: string, turns: [role: string, content: string][]): MemoryDocument => {
  const parts = turns.map(([role, content]) => `${role}: ${content}`);
  return { id, sessionId: id, text: parts.join(' '), parts };
};

const HAYSTACK = [
  session('A', [['user', 'I adopted two cats last spring']]),
  session('B', [
    ['user', 'my cat chases mice'],
    ['assistant', 'Cats are curious.'],
  ]),
  session('C', [['user', 'the dog sleeps all day']]),
  session('D', [
    ['user', 'birds sing at dawn'],
    ['assistant', 'what about the dogs? Café time'],
  ]),
];

describe('fts5 porter unicode61 terms', () => {
  it('folds case and diacritics, splits on what is not a letter or digit, stems words of 3 or more', () => {
    // As SQLite's fts5vocab lists them for the same text.
    expect(fts5PorterTokens('assistant: Cats are curious. Café day, I')).toEqual([
      'assist',
      'cat',
      'ar',
      'curiou',
      'cafe',
      'dai',
      'i',
    ]);
  });

  it("keeps SQLite's own character classes: emoji join a token, a few marks fold, Hangul stays whole", () => {
    // SQLite 3.40.1: ['nice📸shot', 'et', 'naiv', '한국어', 'ǖ', 'μ', 'x'] for the same text.
    expect(fts5PorterTokens('Nice📸shot ✨ — ÉTÉ naïve 한국어 ǖ µ_x')).toEqual([
      'nice📸shot',
      'et',
      'naiv',
      '한국어',
      'ǖ',
      'μ',
      'x',
    ]);
  });

  it("turns a question into memini's OR phrases: lowercased ASCII runs of two or more", () => {
    expect(meminiQueryTerms('When did I adopt the cats? cats!')).toEqual([
      'when',
      'did',
      'adopt',
      'the',
      'cat',
      'cat',
    ]);
  });
});

describe('fts5-bm25 retriever', () => {
  it("scores like FTS5's bm25() on a hand-worked case, matching documents only", async () => {
    const retriever = createFts5Bm25Retriever();
    await retriever.index({ documents: HAYSTACK });
    const hits = await retriever.search({ query: 'When did I adopt the cats?', limit: 10 });
    // Tokens: A 7, B 9, C 6, D 12; N = 4, avgdl = 34 / 4 = 8.5. "when" and "did" match nothing;
    // adopt is in 1 document: idf ln(3.5 / 1.5); cat and the in 2: ln(2.5 / 2.5) = 0, floored at 1e-6.
    // A: ln(3.5/1.5) × 2.2 / (1 + 1.2 × (0.25 + 0.75 × 7 / 8.5)) + 1e-6 × 2.2 / (same) = 0.91322701...
    const norm = (length: number) => 1 + 1.2 * (0.25 + (0.75 * length) / 8.5);
    const a = (Math.log(3.5 / 1.5) * 2.2) / norm(7) + (1e-6 * 2.2) / norm(7);
    const b = 1e-6 * ((2 * 2.2) / (2 + 1.2 * (0.25 + (0.75 * 9) / 8.5)));
    expect(hits.map((hit) => hit.id)).toEqual(['A', 'B', 'C', 'D']);
    expect(hits[0]!.score).toBeCloseTo(a, 12);
    expect(hits[1]!.score).toBeCloseTo(b, 15);
    // SQLite 3.40.1 FTS5, the same rows and MATCH '"when" OR "did" OR "adopt" OR "the" OR "cats"':
    // -bm25() = 0.9132270137890901, 1.352622061482821e-06, 1.1367781155015197e-06, 8.558352402745997e-07.
    const sqlite = [0.9132270137890901, 1.352622061482821e-6, 1.1367781155015197e-6, 8.558352402745997e-7];
    for (const [index, hit] of hits.entries()) expect(hit.score).toBeCloseTo(sqlite[index]!, 15);
  });

  it('returns nothing for a question without a usable word, and no document matching no phrase', async () => {
    const retriever = createFts5Bm25Retriever();
    await retriever.index({ documents: HAYSTACK });
    expect(await retriever.search({ query: 'a ? !', limit: 10 })).toEqual([]);
    expect((await retriever.search({ query: 'spring birds', limit: 10 })).map((hit) => hit.id)).toEqual([
      'A',
      'D',
    ]);
  });

  it("takes bm25's table statistics when given them (memini's one table of every question)", async () => {
    // 100 rows of 10 tokens on average; adopt in 3 of them: idf ln(97.5 / 3.5); cat, the: 1e-6.
    const retriever = createFts5Bm25Retriever({
      rows: 100,
      tokens: 1000,
      documentFrequency: new Map([
        ['adopt', 3],
        ['cat', 90],
        ['the', 80],
      ]),
    });
    await retriever.index({ documents: HAYSTACK });
    const hits = await retriever.search({ query: 'When did I adopt the cats?', limit: 1 });
    const norm = 1 + 1.2 * (0.25 + (0.75 * 7) / 10);
    expect(hits[0]!.id).toBe('A');
    expect(hits[0]!.score).toBeCloseTo((Math.log(97.5 / 3.5) * 2.2) / norm + (1e-6 * 2.2) / norm, 12);
  });
});
