import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createQdrantVectorIndex, qdrantPointId, toQdrantFilter } from './qdrant-vector-index.js';
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

/**
 * A loopback stand-in for the few Qdrant REST endpoints the index uses (no Qdrant server can run
 * on the build machines), with Qdrant's semantics: cosine on normalised vectors, must/should/
 * has_id/range filters, upsert overwrites the whole point.
 */
type FakePoint = { vector: number[]; payload: Record<string, unknown> };
type FakeCollection = { size: number; points: Map<string, FakePoint>; indexes: Record<string, unknown> };

async function startFakeQdrant(options: { requireKey?: string } = {}) {
  const collections = new Map<string, FakeCollection>();
  const server: Server = createServer((request, response) => {
    void handle(request, response);
  });
  const reply = (response: ServerResponse, status: number, body: unknown) => {
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(body));
  };
  const ok = (response: ServerResponse, result: unknown) =>
    reply(response, 200, { result, status: 'ok', time: 0 });
  const done = { operation_id: 1, status: 'completed' };

  function matches(
    payload: Record<string, unknown>,
    id: string,
    condition: Record<string, unknown>,
  ): boolean {
    if ('has_id' in condition) return (condition['has_id'] as string[]).includes(id);
    if ('must' in condition || 'should' in condition) return matchesFilter(payload, id, condition);
    const value = payload[condition['key'] as string];
    const match = condition['match'] as { value?: unknown; any?: unknown[] } | undefined;
    if (match && 'value' in match) return value === match.value;
    if (match?.any) return match.any.includes(value);
    const range = condition['range'] as { gte: number; lte: number } | undefined;
    if (range) return typeof value === 'number' && value >= range.gte && value <= range.lte;
    throw new Error(`fake qdrant: unsupported condition ${JSON.stringify(condition)}`);
  }
  function matchesFilter(
    payload: Record<string, unknown>,
    id: string,
    filter: Record<string, unknown> | undefined,
  ) {
    if (!filter) return true;
    const list = (value: unknown) => (value === undefined ? [] : Array.isArray(value) ? value : [value]);
    const must = list(filter['must']);
    const should = list(filter['should']);
    return (
      must.every((condition) => matches(payload, id, condition)) &&
      (should.length === 0 || should.some((condition) => matches(payload, id, condition)))
    );
  }
  const normalise = (vector: number[]) => {
    const norm = Math.sqrt(vector.reduce((sum, value) => sum + value * value, 0)) || 1;
    return vector.map((value) => value / norm);
  };

  async function handle(request: IncomingMessage, response: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : undefined;
    if (options.requireKey && request.headers['api-key'] !== options.requireKey) {
      // Echo the wrong key back, as a careless proxy might, to prove errors redact it.
      return reply(response, 401, { status: { error: `Invalid api-key ${request.headers['api-key']}` } });
    }
    const url = new URL(request.url ?? '/', 'http://localhost');
    if (request.method === 'GET' && url.pathname === '/')
      return reply(response, 200, { title: 'qdrant - vector search engine', version: '1.18.3' });
    const match = /^\/collections\/([^/]+)(\/.*)?$/.exec(url.pathname);
    if (!match) return reply(response, 404, { status: { error: 'not found' } });
    const name = decodeURIComponent(match[1]!);
    const rest = match[2] ?? '';
    const collection = collections.get(name);
    const route = `${request.method} ${rest}`;
    if (route === 'GET /exists') return ok(response, { exists: collections.has(name) });
    if (route === 'PUT ') {
      if (collection)
        return reply(response, 409, { status: { error: `Collection \`${name}\` already exists!` } });
      collections.set(name, { size: body.vectors.size, points: new Map(), indexes: {} });
      return ok(response, true);
    }
    if (route === 'DELETE ') return ok(response, collections.delete(name));
    if (!collection)
      return reply(response, 404, { status: { error: `Collection \`${name}\` doesn't exist!` } });
    if (route === 'GET ') {
      return ok(response, {
        status: 'green',
        points_count: collection.points.size,
        config: { params: { vectors: { size: collection.size, distance: 'Cosine' } } },
        payload_schema: collection.indexes,
      });
    }
    if (route === 'PUT /index') {
      collection.indexes[body.field_name] = { data_type: body.field_schema };
      return ok(response, done);
    }
    if (route === 'PUT /points') {
      for (const point of body.points) {
        if (point.vector.length !== collection.size)
          return reply(response, 400, { status: { error: 'wrong size' } });
        collection.points.set(point.id, { vector: normalise(point.vector), payload: point.payload ?? {} });
      }
      return ok(response, done);
    }
    if (route === 'POST /points/query') {
      const query = normalise(body.query as number[]);
      const points = [...collection.points]
        .filter(([id, point]) => matchesFilter(point.payload, id, body.filter))
        .map(([id, point]) => ({
          id,
          version: 0,
          score: point.vector.reduce((sum, value, d) => sum + value * query[d]!, 0),
          payload: body.with_payload ? point.payload : undefined,
        }))
        .sort((a, b) => b.score - a.score)
        .slice(0, body.limit);
      return ok(response, { points });
    }
    if (route === 'POST /points/delete') {
      for (const [id, point] of collection.points) {
        const selected = body.points
          ? body.points.includes(id)
          : matchesFilter(point.payload, id, body.filter);
        if (selected) collection.points.delete(id);
      }
      return ok(response, done);
    }
    return reply(response, 404, { status: { error: `fake qdrant: no route ${route}` } });
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    collections,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe('createQdrantVectorIndex against a loopback Qdrant stand-in', () => {
  let fake: Awaited<ReturnType<typeof startFakeQdrant>>;
  beforeAll(async () => {
    fake = await startFakeQdrant({ requireKey: 'qdrant-secret-key-123' });
  });
  afterAll(() => fake.close());

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
    const collection = `lme_test_${randomUUID()}`;
    const index = createQdrantVectorIndex({
      url: fake.url,
      apiKey: 'qdrant-secret-key-123',
      collection,
      dimensions: 2,
      filterKeys: ['session'],
    });
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
