import { describe, expect, it } from 'vitest';
import { createMemoryVectorIndex } from './memory-vector-index.js';
import { describeVectorIndexContract } from './vector-index.contract.js';

describeVectorIndexContract('memory vector index', ({ dimensions }) =>
  createMemoryVectorIndex({ dimensions }),
);

/** A small deterministic PRNG so the large cases are reproducible. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32 - 0.5;
  };
}

describe('createMemoryVectorIndex', () => {
  it('matches a full sort on thousands of vectors after growth, replacement and deletes', async () => {
    const dimensions = 16;
    const next = random(7);
    const index = createMemoryVectorIndex({ dimensions });
    const live = new Map<string, { vector: Float32Array; group: number }>();
    for (let batch = 0; batch < 5; batch++) {
      const records = Array.from({ length: 1000 }, (_, n) => {
        const id = `r${(batch * 1000 + n) % 3500}`; // ids repeat: later batches replace earlier records
        const vector = Float32Array.from({ length: dimensions }, next);
        const group = n % 5;
        live.set(id, { vector, group });
        return { id, vector, payload: { group } };
      });
      await index.upsert({ records });
    }
    const removed = [...live.keys()].filter((_, n) => n % 3 === 0);
    await index.delete({ ids: removed });
    for (const id of removed) live.delete(id);

    const query = Float32Array.from({ length: dimensions }, next);
    const cosine = (a: Float32Array, b: Float32Array) => {
      let dot = 0;
      let na = 0;
      let nb = 0;
      for (let d = 0; d < dimensions; d++) {
        dot += a[d]! * b[d]!;
        na += a[d]! * a[d]!;
        nb += b[d]! * b[d]!;
      }
      return dot / Math.sqrt(na * nb);
    };
    const expected = [...live]
      .filter(([, entry]) => entry.group === 1 || entry.group === 3)
      .map(([id, entry]) => ({ id, score: cosine(query, entry.vector) }))
      .sort((a, b) => b.score - a.score)
      .slice(0, 25);
    const hits = await index.search({ vector: query, limit: 25, filter: { group: [1, 3] } });
    expect(hits.map((hit) => hit.id)).toEqual(expected.map((hit) => hit.id));
    hits.forEach((hit, at) => {
      expect(hit.score).toBeCloseTo(expected[at]!.score, 5);
    });
  });

  it('orders equal scores by id, independent of insertion order', async () => {
    const forward = createMemoryVectorIndex({ dimensions: 2 });
    const backward = createMemoryVectorIndex({ dimensions: 2 });
    const records = ['c', 'a', 'd', 'b'].map((id) => ({
      id,
      vector: Float32Array.from([1, 1]),
      payload: {},
    }));
    await forward.upsert({ records });
    await backward.upsert({ records: [...records].reverse() });
    const ids = async (index: typeof forward) =>
      (await index.search({ vector: Float32Array.from([1, 0]), limit: 3 })).map((hit) => hit.id);
    expect(await ids(forward)).toEqual(['a', 'b', 'c']);
    expect(await ids(backward)).toEqual(['a', 'b', 'c']);
  });

  it('scores a zero vector 0 instead of NaN', async () => {
    const index = createMemoryVectorIndex({ dimensions: 2 });
    await index.upsert({ records: [{ id: 'zero', vector: new Float32Array(2), payload: {} }] });
    const [hit] = await index.search({ vector: Float32Array.from([1, 0]), limit: 1 });
    expect(hit!.score).toBe(0);
  });

  it('refuses a delete with neither ids nor filter', async () => {
    const index = createMemoryVectorIndex({ dimensions: 2 });
    await expect(index.delete({})).rejects.toThrow(/ids or a filter/);
  });

  it('stops when the signal is aborted', async () => {
    const index = createMemoryVectorIndex({ dimensions: 2 });
    const controller = new AbortController();
    controller.abort();
    await expect(
      index.search({ vector: Float32Array.from([1, 0]), limit: 1, signal: controller.signal }),
    ).rejects.toThrow();
  });
});
