import { randomUUID } from 'node:crypto';
import { inspect } from 'node:util';
import { status } from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeQdrant } from '../testing/qdrant-wire-server.js';
import { createQdrantGrpc } from './qdrant-grpc.js';
import {
  createQdrantVectorIndex,
  type QdrantVectorIndexOptions,
  qdrantPointId,
  toQdrantFilter,
} from './qdrant-vector-index.js';
import { describeVectorIndexContract } from './vector-index.contract.js';

describe('qdrantPointId', () => {
  it('derives the same UUID from the same id and different UUIDs from different ids', () => {
    const id = qdrantPointId('q1:session_3:turn_7');
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(qdrantPointId('q1:session_3:turn_7')).toBe(id);
    expect(qdrantPointId('q1:session_3:turn_8')).not.toBe(id);
  });
});

describe('toQdrantFilter', () => {
  it('puts every key in must and turns any-of lists into a nested should', () => {
    expect(
      toQdrantFilter({ session: 's1', turn: 2, user: true, score: 0.5, kind: ['a', 'b'], one: ['x'] }),
    ).toEqual({
      must: [
        { key: 'session', match: { value: 's1' } },
        { key: 'turn', match: { value: 2 } },
        { key: 'user', match: { value: true } },
        { key: 'score', range: { gte: 0.5, lte: 0.5 } },
        {
          should: [
            { key: 'kind', match: { value: 'a' } },
            { key: 'kind', match: { value: 'b' } },
          ],
        },
        { key: 'one', match: { value: 'x' } },
      ],
    });
  });

  it('says when nothing can match and when there is nothing to filter', () => {
    expect(toQdrantFilter({ session: [] })).toBe(false);
    expect(toQdrantFilter({})).toBeUndefined();
    expect(toQdrantFilter(undefined)).toBeUndefined();
  });
});

describe('createQdrantVectorIndex against a loopback Qdrant stand-in', () => {
  let fake: Awaited<ReturnType<typeof startFakeQdrant>>;
  beforeAll(async () => {
    fake = await startFakeQdrant({ requireKey: 'qdrant-secret-key-123' });
  });
  afterAll(() => fake.close());

  /** An index on a fresh collection of the stand-in, with the key it requires. */
  function standInIndex(dimensions: number, filterKeys: QdrantVectorIndexOptions['filterKeys']) {
    const collection = `lme_test_${randomUUID()}`;
    const options = { url: fake.url, apiKey: 'qdrant-secret-key-123', collection, dimensions, filterKeys };
    return { collection, index: createQdrantVectorIndex(options) };
  }

  describeVectorIndexContract('qdrant (stand-in)', ({ dimensions }) =>
    createQdrantVectorIndex({
      url: fake.url,
      apiKey: 'qdrant-secret-key-123',
      collection: `lme_test_${randomUUID()}`,
      dimensions,
      filterKeys: { session: 'keyword', turn: 'integer', user: 'bool' },
      batchSize: 64,
    }),
  );

  it('creates a cosine collection with payload indexes and keeps the string id in the payload', async () => {
    const { collection, index } = standInIndex(2, ['session']);
    await index.upsert({
      records: [{ id: 'q1/turn 1', vector: Float32Array.from([1, 0]), payload: { session: 's' } }],
    });
    const stored = fake.collections.get(collection)!;
    expect(stored.size).toBe(2);
    expect(stored.indexes).toEqual({ session: { data_type: 'keyword' } });
    expect(stored.points.get(qdrantPointId('q1/turn 1'))!.payload).toEqual({
      session: 's',
      lme_id: 'q1/turn 1',
    });
    await index.drop();
    expect(fake.collections.has(collection)).toBe(false);
  });

  it('creates its collection without an HNSW graph, vacuumed only when large and mostly deleted, and waits for its last payload index only', async () => {
    const { collection, index } = standInIndex(2, { session: 'keyword', turn: 'integer' });
    const first = fake.urls.length;
    await index.upsert({
      records: [{ id: 'a', vector: Float32Array.from([1, 0]), payload: { session: 's', turn: 1 } }],
    });
    const created = fake.bodies[fake.urls.indexOf(`PUT /collections/${collection}`, first)]!;
    // Every search is filtered to one haystack: a graph is never used; a question's points are
    // deleted wholesale, so rebuilding small segments after each question is wasted server CPU.
    expect(JSON.parse(created).optimizers_config).toEqual({
      indexing_threshold: 0,
      deleted_threshold: 0.9,
      vacuum_min_vector_number: 20_000,
    });
    expect(fake.urls.slice(first).filter((url) => url.includes('/index'))).toEqual([
      `PUT /collections/${collection}/index?wait=false`,
      `PUT /collections/${collection}/index?wait=true`,
    ]);
    await index.drop();
  });

  it('sends vectors whose every component takes the widest form, intact', async () => {
    const { index } = standInIndex(16, []);
    // 17 characters each as toPrecision(9) writes them: -0.00000123456789.
    const widest = (n: number) =>
      Float32Array.from({ length: 16 }, (_, k) => -(1.23456789 + n + k / 100) * 1e-6);
    await index.upsert({
      records: Array.from({ length: 20 }, (_, n) => ({ id: `w${n}`, vector: widest(n), payload: {} })),
    });
    const hits = await index.search({ vector: widest(0), limit: 20 });
    expect(hits).toHaveLength(20);
    await index.drop();
  });

  it('asks for only the payload keys a search names, and sends its query as the same float32 values', async () => {
    const { collection, index } = standInIndex(3, ['session']);
    await index.upsert({
      records: [
        {
          id: 'a',
          vector: Float32Array.from([1, 0, 0]),
          payload: { session: 's', position: 4, text: 'long' },
        },
      ],
    });
    const query = Float32Array.from([0.1, 1 / 3, -0.2]);
    const [hit] = await index.search({
      vector: query,
      limit: 1,
      filter: { session: 's' },
      payloadKeys: ['position'],
    });
    expect(hit).toMatchObject({ id: 'a', payload: { position: 4 } });
    expect(hit!.payload).toEqual({ position: 4 });
    const body = JSON.parse(
      fake.bodies[fake.urls.lastIndexOf(`POST /collections/${collection}/points/query`)]!,
    );
    expect(body.with_payload).toEqual(['position', 'lme_id']);
    expect(Float32Array.from(body.query)).toEqual(query);
    const [whole] = await index.search({ vector: query, limit: 1 });
    expect(whole!.payload).toEqual({ session: 's', position: 4, text: 'long' });
    await index.drop();
  });

  it('sends payload text outside ASCII as UTF-8, intact', async () => {
    const { collection, index } = standInIndex(2, ['session']);
    const session = 'café ✓ 日本 \u{1F600} "quoted" \\ back';
    await index.upsert({ records: [{ id: 'ü', vector: Float32Array.from([1, 0]), payload: { session } }] });
    const [hit] = await index.search({ vector: Float32Array.from([1, 0]), limit: 1, filter: { session } });
    expect(hit).toMatchObject({ id: 'ü', payload: { session } });
    expect(fake.collections.get(collection)!.points.get(qdrantPointId('ü'))!.payload.session).toBe(session);
    await index.drop();
  });

  it('sends each vector component in at most 9 significant digits, read back as the same float32', async () => {
    const { collection, index } = standInIndex(8, []);
    const edges = [1e-45, -3.4028234663852886e38, 1 / 3, -0.1, 0, -0, 1.17549435e-38, 0.999999940395];
    const vectors = [
      Float32Array.from(edges),
      ...Array.from({ length: 50 }, () => Float32Array.from({ length: 8 }, () => Math.random() - 0.5)),
    ];
    await index.upsert({
      records: vectors.map((vector, n) => ({ id: `v${n}`, vector, payload: { n } })),
    });
    const upserts = fake.bodies.filter((_, n) =>
      fake.urls[n]!.startsWith(`PUT /collections/${collection}/points`),
    );
    expect(upserts).toHaveLength(1);
    const numbers = [...upserts[0]!.matchAll(/"vector":\[([^\]]*)\]/g)].flatMap((match) =>
      match[1]!.split(','),
    );
    expect(numbers).toHaveLength(vectors.length * 8);
    // Significant digits: those of the mantissa, leading zeros not counted.
    const digits = (text: string) => text.replace(/e.*$/i, '').replace(/[-.]/g, '').replace(/^0+/, '').length;
    expect(Math.max(...numbers.map(digits))).toBeLessThanOrEqual(9);
    const sent = (JSON.parse(upserts[0]!) as { points: { vector: number[]; payload: { n: number } }[] })
      .points;
    // -0 is sent as 0, as JSON.stringify does.
    for (const point of sent)
      expect(Array.from(Float32Array.from(point.vector))).toEqual(
        Array.from(vectors[point.payload.n]!, (value) => value + 0),
      );
    await index.drop();
  });

  it('asks for uncompressed replies on every request', async () => {
    const { index } = standInIndex(2, ['session']);
    const first = fake.requests.length;
    await index.upsert({
      records: [{ id: 'a', vector: Float32Array.from([1, 0]), payload: { session: 's' } }],
    });
    await index.search({ vector: Float32Array.from([1, 0]), limit: 1, filter: { session: 's' } });
    await index.delete({ filter: { session: 's' } });
    await index.drop();
    // A gzip reply (what fetch asks for) comes after its headers in a second segment, which
    // Qdrant's Nagle holds until the client's delayed ACK: ~40 ms a call.
    const encodings = fake.acceptEncodings.slice(first);
    expect(encodings.length).toBeGreaterThan(5);
    expect(new Set(encodings)).toEqual(new Set(['identity']));
  });

  it('refuses a vector with a NaN or infinite component before sending it', async () => {
    const { collection, index } = standInIndex(2, []);
    await expect(
      index.upsert({ records: [{ id: 'bad', vector: Float32Array.from([Number.NaN, 1]), payload: {} }] }),
    ).rejects.toThrow(`qdrant:${collection}: vector "bad" has a component that is NaN or infinite.`);
    expect(fake.requests.some((route) => route.includes(collection))).toBe(false);
  });

  it('refuses an existing collection of another vector size', async () => {
    const collection = `lme_test_${randomUUID()}`;
    const options = { url: fake.url, apiKey: 'qdrant-secret-key-123', collection, filterKeys: [] };
    const first = createQdrantVectorIndex({ ...options, dimensions: 2 });
    await first.upsert({ records: [{ id: 'a', vector: Float32Array.from([1, 0]), payload: {} }] });
    const second = createQdrantVectorIndex({ ...options, dimensions: 3 });
    await expect(second.search({ vector: Float32Array.from([1, 0, 0]), limit: 1 })).rejects.toThrow(
      /holds 2-dimensional vectors, this index needs 3/,
    );
    await first.drop();
  });

  it('names the operation and collection on failure, never the API key', async () => {
    const index = createQdrantVectorIndex({
      url: fake.url,
      apiKey: 'wrong-key-abcdefgh',
      collection: 'lme_test_denied',
      dimensions: 2,
      filterKeys: [],
    });
    const error = await index
      .search({ vector: Float32Array.from([1, 0]), limit: 1 })
      .catch((caught) => caught);
    expect(error).toBeInstanceOf(Error);
    expect(error.message).toMatch(/Qdrant version check on collection "lme_test_denied"/);
    expect(error.message).toMatch(/401/);
    expect(error.message).not.toContain('wrong-key-abcdefgh');
    expect(JSON.stringify(error, Object.getOwnPropertyNames(error))).not.toContain('wrong-key-abcdefgh');
  });
});

describe('createQdrantVectorIndex with upserts over gRPC (loopback stand-in)', () => {
  let fake: Awaited<ReturnType<typeof startFakeQdrant>>;
  let failUpserts = 0;
  beforeAll(async () => {
    fake = await startFakeQdrant({
      requireKey: 'qdrant-secret-key-123',
      grpc: true,
      grpcFail: () => (failUpserts-- > 0 ? { code: status.UNAVAILABLE, details: 'try again' } : undefined),
    });
  });
  afterAll(() => fake.close());
  const options = (collection: string, dimensions: number) => ({
    url: fake.url,
    grpcUrl: fake.grpcUrl!,
    apiKey: 'qdrant-secret-key-123',
    collection,
    dimensions,
    filterKeys: { session: 'keyword', turn: 'integer', user: 'bool' } as const,
  });

  describeVectorIndexContract('qdrant, gRPC upserts (stand-in)', ({ dimensions }) =>
    createQdrantVectorIndex({ ...options(`lme_test_${randomUUID()}`, dimensions), batchSize: 64 }),
  );

  it('sends every point over gRPC with the key, each float32 and payload value intact, and no REST upsert', async () => {
    const collection = `lme_test_${randomUUID()}`;
    const index = createQdrantVectorIndex(options(collection, 3));
    const vector = Float32Array.from([0.1, -3.4028234663852886e38, 1.401298464324817e-45]);
    const payload = { session: 'sé ✓', turn: 7, user: false, weight: 0.25, big: 2 ** 60 };
    const before = fake.grpcCalls.length;
    await index.upsert({ records: [{ id: 'q1:s1', vector, payload }] });
    expect(fake.grpcCalls.slice(before)).toEqual([
      { method: '/qdrant.Points/Upsert', apiKey: 'qdrant-secret-key-123' },
    ]);
    expect(fake.requests.filter((route) => route.endsWith('/points') && route.startsWith('PUT'))).toEqual([]);
    const stored = fake.collections.get(collection)!.points.get(qdrantPointId('q1:s1'))!;
    expect(stored.payload).toEqual({ ...payload, lme_id: 'q1:s1' });
    const hits = await index.search({ vector: Float32Array.from([1, 0, 0]), limit: 1 });
    expect(hits.map((hit) => [hit.id, hit.payload])).toEqual([['q1:s1', payload]]);
    await index.drop();
  });

  it('asks again after UNAVAILABLE, and names the collection, the gRPC URL and the status when it gives up, never the key', async () => {
    const collection = `lme_test_${randomUUID()}`;
    const index = createQdrantVectorIndex(options(collection, 2));
    const records = [{ id: 'a', vector: Float32Array.from([1, 0]), payload: {} }];
    failUpserts = 1;
    await index.upsert({ records });
    expect(fake.collections.get(collection)!.points.size).toBe(1);
    failUpserts = 10;
    const error = (await index.upsert({ records }).catch((caught: unknown) => caught)) as Error;
    failUpserts = 0;
    expect(error.message).toBe(
      `Qdrant upsert on collection "${collection}" at ${fake.grpcUrl} (gRPC) failed: UNAVAILABLE (try again).`,
    );
    // A key the gRPC port refuses (the stand-in echoes it back, as a careless proxy might).
    const denied = createQdrantGrpc({ url: fake.grpcUrl!, apiKey: 'wrong-key-abcdefgh' });
    const refused = (await denied
      .upsert(collection, [{ ...records[0]!, id: qdrantPointId('a') }], { wait: true })
      .catch((caught: unknown) => caught)) as Error;
    denied.close();
    expect(refused.message).toBe(
      `Qdrant upsert on collection "${collection}" at ${fake.grpcUrl} (gRPC) failed: UNAUTHENTICATED (Invalid api-key [redacted]).`,
    );
    // Nor anything it carries: grpc-js's own error holds the server's words as sent.
    expect(inspect(refused, { depth: 8 })).not.toContain('wrong-key-abcdefgh');
    await index.drop();
  });
});

describe.skipIf(!process.env['QDRANT_GRPC_URL'] || !process.env['QDRANT_URL'])(
  'createQdrantVectorIndex against QDRANT_URL with upserts over QDRANT_GRPC_URL',
  () => {
    describeVectorIndexContract('qdrant (gRPC upserts)', ({ dimensions }) =>
      createQdrantVectorIndex({
        url: process.env['QDRANT_URL']!,
        grpcUrl: process.env['QDRANT_GRPC_URL']!,
        apiKey: process.env['QDRANT_API_KEY'],
        collection: `lme_test_${randomUUID()}`,
        dimensions,
        filterKeys: { session: 'keyword', turn: 'integer', user: 'bool' },
        exact: true,
      }),
    );
  },
);

describe.skipIf(!process.env['QDRANT_URL'])('createQdrantVectorIndex against QDRANT_URL', () => {
  describeVectorIndexContract('qdrant', ({ dimensions }) =>
    createQdrantVectorIndex({
      url: process.env['QDRANT_URL']!,
      apiKey: process.env['QDRANT_API_KEY'],
      collection: `lme_test_${randomUUID()}`,
      dimensions,
      filterKeys: { session: 'keyword', turn: 'integer', user: 'bool' },
      exact: true,
    }),
  );
});

describe('createQdrantVectorIndex when the server cannot be reached', () => {
  /** A loopback URL nothing listens on. */
  async function closedPort(): Promise<number> {
    const fake = await startFakeQdrant();
    const port = Number(new URL(fake.url).port);
    await fake.close();
    return port;
  }
  const index = (url: string) =>
    createQdrantVectorIndex({ url, collection: 'lme-unreachable', dimensions: 2, filterKeys: [] });

  it('names the refused connection and the URL, not "fetch failed"', async () => {
    const port = await closedPort();
    const error = (await index(`http://127.0.0.1:${port}`)
      .search({ vector: Float32Array.from([1, 0]), limit: 1 })
      .catch((caught: unknown) => caught)) as Error;
    expect(error.message).toMatch(
      new RegExp(
        `^Qdrant version check on collection "lme-unreachable" at http://127\\.0\\.0\\.1:${port} failed: .*ECONNREFUSED \\(connect ECONNREFUSED 127\\.0\\.0\\.1:${port}\\)`,
      ),
    );
    expect(error.message).not.toMatch(/fetch failed/);
  });

  it('names a TLS failure (https to a plain http server) by its code', async () => {
    const fake = await startFakeQdrant();
    try {
      const error = (await index(fake.url.replace('http:', 'https:'))
        .search({ vector: Float32Array.from([1, 0]), limit: 1 })
        .catch((caught: unknown) => caught)) as Error;
      expect(error.message).toMatch(/failed: .*(EPROTO|ERR_SSL_WRONG_VERSION_NUMBER|ECONNRESET) \(/);
      expect(error.message).not.toMatch(/fetch failed/);
    } finally {
      await fake.close();
    }
  });

  it('names an unknown host (DNS)', async () => {
    const error = (await index('http://qdrant.invalid:6333')
      .search({ vector: Float32Array.from([1, 0]), limit: 1 })
      .catch((caught: unknown) => caught)) as Error;
    expect(error.message).toMatch(
      /failed: .*(ENOTFOUND|EAI_AGAIN) \(getaddrinfo (ENOTFOUND|EAI_AGAIN) qdrant\.invalid\)/,
    );
  });

  it('refuses a server older than the minimum version, naming both', async () => {
    const fake = await startFakeQdrant({ version: '1.9.2' });
    try {
      await expect(index(fake.url).search({ vector: Float32Array.from([1, 0]), limit: 1 })).rejects.toThrow(
        `The Qdrant server at ${fake.url} is version 1.9.2; lme needs 1.18.0 or later (docs/qdrant.md).`,
      );
      expect(fake.requests).toEqual(['GET /']);
    } finally {
      await fake.close();
    }
  });
});
