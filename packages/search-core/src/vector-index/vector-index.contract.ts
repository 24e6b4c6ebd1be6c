import { afterEach, describe, expect, it } from 'vitest';
import type { PayloadFilter, VectorIndex, VectorRecord } from './vector-index.js';

export type VectorIndexFactory = (options: { dimensions: number }) => VectorIndex | Promise<VectorIndex>;

function record(id: string, vector: number[], payload: VectorRecord['payload'] = {}): VectorRecord {
  return { id, vector: Float32Array.from(vector), payload };
}

/** Behaviour every VectorIndex must have; register it from a `.test.ts` with the factory to check. */
export function describeVectorIndexContract(name: string, factory: VectorIndexFactory): void {
  describe(`${name} (VectorIndex contract)`, () => {
    const created: VectorIndex[] = [];
    async function createIndex(dimensions = 3): Promise<VectorIndex> {
      const index = await factory({ dimensions });
      created.push(index);
      return index;
    }
    afterEach(async () => {
      await Promise.all(created.splice(0).map((index) => index.drop()));
    });

    const corpus = [
      record('a', [1, 0, 0], { session: 's1', turn: 0, user: true }),
      record('b', [0, 1, 0], { session: 's1', turn: 1, user: false }),
      record('c', [1, 1, 0], { session: 's2', turn: 0, user: true }),
      record('d', [0, 0, 2], { session: 's3', turn: 0, user: true }),
    ];

    async function search(index: VectorIndex, vector: number[], limit = 10, filter?: PayloadFilter) {
      return index.search({ vector: Float32Array.from(vector), limit, filter });
    }

    it('ranks by cosine similarity, whatever the vector lengths', async () => {
      const index = await createIndex();
      await index.upsert({ records: corpus });
      const hits = await search(index, [2, 0, 0]);
      expect(hits).toHaveLength(4);
      expect(hits.map((hit) => hit.id).slice(0, 2)).toEqual(['a', 'c']);
      expect(
        hits
          .map((hit) => hit.id)
          .slice(2)
          .sort(),
      ).toEqual(['b', 'd']); // both score 0
      expect(hits[2]!.score).toBeCloseTo(0, 5);
      expect(hits[0]!.score).toBeCloseTo(1, 5);
      expect(hits[1]!.score).toBeCloseTo(Math.SQRT1_2, 5);
      expect(hits[0]!.payload).toEqual({ session: 's1', turn: 0, user: true });
    });

    it('returns at most limit hits, none for a limit of 0', async () => {
      const index = await createIndex();
      await index.upsert({ records: corpus });
      expect(await search(index, [1, 1, 1], 2)).toHaveLength(2);
      expect(await search(index, [1, 1, 1], 0)).toEqual([]);
    });

    it('returns nothing from an empty index', async () => {
      const index = await createIndex();
      expect(await search(index, [1, 0, 0])).toEqual([]);
    });

    it('filters by exact payload values of every type', async () => {
      const index = await createIndex();
      await index.upsert({ records: corpus });
      const ids = async (filter: PayloadFilter) =>
        (await search(index, [1, 0.5, 0.2], 10, filter)).map((hit) => hit.id).sort();
      expect(await ids({ session: 's1' })).toEqual(['a', 'b']);
      expect(await ids({ turn: 0 })).toEqual(['a', 'c', 'd']);
      expect(await ids({ user: false })).toEqual(['b']);
      expect(await ids({ session: 's1', user: true })).toEqual(['a']);
      expect(await ids({ session: 'nope' })).toEqual([]);
      expect(await ids({ missing: 'x' })).toEqual([]);
    });

    it('filters by any-of lists', async () => {
      const index = await createIndex();
      await index.upsert({ records: corpus });
      const ids = async (filter: PayloadFilter) =>
        (await search(index, [1, 0.5, 0.2], 10, filter)).map((hit) => hit.id).sort();
      expect(await ids({ session: ['s1', 's3'] })).toEqual(['a', 'b', 'd']);
      expect(await ids({ session: ['s2'] })).toEqual(['c']);
      expect(await ids({ session: ['s1', 's2'], turn: 1 })).toEqual(['b']);
      expect(await ids({ session: [] })).toEqual([]);
    });

    it('replaces the vector and payload when an id is upserted again', async () => {
      const index = await createIndex();
      await index.upsert({ records: corpus });
      await index.upsert({ records: [record('a', [0, 0, 1], { session: 's9', turn: 5, user: false })] });
      const hits = await search(index, [0, 0, 1]);
      expect(hits).toHaveLength(4);
      expect(
        hits
          .slice(0, 2)
          .map((hit) => hit.id)
          .sort(),
      ).toEqual(['a', 'd']);
      expect(hits.find((hit) => hit.id === 'a')!.payload).toEqual({ session: 's9', turn: 5, user: false });
      expect((await search(index, [1, 0, 0], 10, { session: 's1' })).map((hit) => hit.id)).toEqual(['b']);
    });

    it('deletes by ids, by filter, and by ids that also match a filter', async () => {
      const index = await createIndex();
      await index.upsert({ records: corpus });
      await index.delete({ ids: ['a', 'missing'] });
      expect((await search(index, [1, 1, 1])).map((hit) => hit.id).sort()).toEqual(['b', 'c', 'd']);
      await index.delete({ filter: { session: ['s2', 'nope'] } });
      expect((await search(index, [1, 1, 1])).map((hit) => hit.id).sort()).toEqual(['b', 'd']);
      await index.delete({ ids: ['b', 'd'], filter: { session: 's3' } });
      expect((await search(index, [1, 1, 1])).map((hit) => hit.id)).toEqual(['b']);
      await index.delete({ ids: [] });
      expect(await search(index, [1, 1, 1])).toHaveLength(1);
    });

    it('drop() removes everything', async () => {
      const index = await createIndex();
      await index.upsert({ records: corpus });
      await index.drop();
      expect(await search(index, [1, 0, 0])).toEqual([]);
    });

    it('rejects vectors of the wrong size', async () => {
      const index = await createIndex();
      await expect(index.upsert({ records: [record('x', [1, 0])] })).rejects.toThrow(/dimensions/);
      await expect(search(index, [1, 0, 0, 0])).rejects.toThrow(/dimensions/);
    });

    it('keeps string ids and payloads intact at a few hundred records', async () => {
      const index = await createIndex(8);
      const records = Array.from({ length: 300 }, (_, n) =>
        record(
          `q1:sess_${n % 7}:turn/${n}`,
          Array.from({ length: 8 }, (_, d) => Math.sin(n * 1.3 + d * 0.7)),
          {
            session: `sess_${n % 7}`,
            n,
          },
        ),
      );
      await index.upsert({ records });
      const query = records[42]!.vector;
      const hits = await index.search({ vector: query, limit: 5 });
      expect(hits[0]).toMatchObject({ id: 'q1:sess_0:turn/42', payload: { session: 'sess_0', n: 42 } });
      expect(hits[0]!.score).toBeCloseTo(1, 5);
      const filtered = await index.search({ vector: query, limit: 100, filter: { session: 'sess_3' } });
      expect(filtered).toHaveLength(records.filter((r) => r.payload['session'] === 'sess_3').length);
      for (let at = 1; at < filtered.length; at++)
        expect(filtered[at - 1]!.score).toBeGreaterThanOrEqual(filtered[at]!.score);
    });
  });
}
