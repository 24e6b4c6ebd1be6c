import { describe, expect, it } from 'vitest';
import { dot } from '../core/vector-math.js';
import { createHashingEmbedder } from '../testing/hashing-embedder.js';
import { concatEmbedders } from './concat-embedder.js';
import type { Embedder } from './embedder.js';

const texts = ['my cousin had a baby girl', 'the baby shower is on Sunday', 'tax forms are due in April'];

describe('concatEmbedders', () => {
  const small = createHashingEmbedder({ dimensions: 16 });
  const large = createHashingEmbedder({ dimensions: 64 });
  const both = concatEmbedders([small, large]);

  it('gives unit vectors whose cosine is the mean of the parts’ cosines', async () => {
    const [a, b] = await both.embedDocuments({ texts });
    const [smallA, smallB] = await small.embedDocuments({ texts });
    const [largeA, largeB] = await large.embedDocuments({ texts });
    expect(a).toHaveLength(80);
    expect(dot(a!, a!)).toBeCloseTo(1, 6);
    expect(dot(a!, b!)).toBeCloseTo((dot(smallA!, smallB!) + dot(largeA!, largeB!)) / 2, 6);
    const query = await both.embedQuery({ text: texts[0]! });
    expect(Array.from(query)).toEqual(Array.from(a!));
  });

  it('is named, sized and cached by its parts, and closes them all', async () => {
    let closed = 0;
    const late: Embedder = {
      ...small,
      id: 'late',
      // An ONNX embedder knows its size once its model has loaded.
      get dimensions() {
        return closed > 0 ? 0 : 16;
      },
      close: async () => {
        closed++;
      },
    };
    const joined = concatEmbedders([late, { ...large, cacheIdentity: 'large@sha' }]);
    expect(joined.id).toBe(`late+${large.id}`);
    expect(joined.cacheIdentity).toBe('late+large@sha');
    expect(joined.dimensions).toBe(80);
    await joined.close?.();
    expect(closed).toBe(1);
    expect(joined.dimensions).toBe(64);
    expect(() => concatEmbedders([small])).toThrow(/at least two/);
  });

  it('reports progress as the slower part has it', async () => {
    const reporting = (embedder: Embedder, step: number): Embedder => ({
      ...embedder,
      async embedDocuments(options) {
        for (let done = step; done <= options.texts.length; done += step) options.onProgress?.(done);
        return embedder.embedDocuments(options);
      },
    });
    const seen: number[] = [];
    await concatEmbedders([reporting(small, 1), reporting(large, 3)]).embedDocuments({
      texts,
      onProgress: (done) => seen.push(done),
    });
    // The first part reports 1, 2, 3 before the second reports 3.
    expect(seen).toEqual([0, 0, 0, 3]);
  });
});
