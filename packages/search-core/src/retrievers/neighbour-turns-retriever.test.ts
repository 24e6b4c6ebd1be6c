import { describe, expect, it } from 'vitest';
import { wordsTokenizer } from '../lexical/tokenizer.js';
import { createHashingEmbedder } from '../testing/hashing-embedder.js';
import { createMemoryVectorIndex } from '../vector-index/memory-vector-index.js';
import { createBm25DenseRetriever } from './bm25-dense-retriever.js';
import { createDenseScorer } from './dense-scorer.js';

const documents = [
  { id: 'a0', sessionId: 'a', turnIndex: 0, text: 'we adopted a puppy named biscuit last week' },
  { id: 'a1', sessionId: 'a', turnIndex: 1, text: 'haha same' },
  { id: 'b0', sessionId: 'b', turnIndex: 0, text: 'the weather was rainy all weekend' },
  { id: 'b1', sessionId: 'b', turnIndex: 1, text: 'ok cool' },
];

const dense = () =>
  createDenseScorer({
    embedder: createHashingEmbedder({ dimensions: 64 }),
    createIndex: ({ dimensions }) => createMemoryVectorIndex({ dimensions }),
  });

describe('dense route with neighbour turns', () => {
  it('lifts a short reply next to the matching turn above the other short reply', async () => {
    const scoresOf = async (denseNeighbours: number) => {
      const retriever = createBm25DenseRetriever({
        routes: ['dense'],
        tokenizer: wordsTokenizer,
        dense: dense(),
        fusion: { kind: 'weighted', weights: { dense: 1 } },
        namespace: 'n',
        denseNeighbours,
      });
      await retriever.index({ documents });
      const [route] = await retriever.routeScores('puppy named biscuit');
      return route!.scores;
    };
    const plain = await scoresOf(0);
    const smoothed = await scoresOf(0.5);
    expect(smoothed[1]! - smoothed[3]!).toBeGreaterThan(plain[1]! - plain[3]!);
    expect(smoothed[1]).toBeCloseTo(0.5 * plain[1]! + 0.5 * plain[0]!, 6);
  });
});
