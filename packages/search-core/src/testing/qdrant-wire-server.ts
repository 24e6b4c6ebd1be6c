import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { status } from '@grpc/grpc-js';
import { type FakeCollection, matchesFilter, normalise, store } from './qdrant-fake-collection.js';
import { type FakeGrpcCall, startGrpc } from './qdrant-grpc-server.js';

export type FakeQdrantOptions = {
  /** The `api-key` header every request must carry; a wrong one is echoed back in the 401. */
  requireKey?: string;
  /** What `GET /` reports. Default 1.18.3. */
  version?: string;
  /**
   * How many of the matching points a query returns (the short reply Qdrant 1.18.0 gave while its
   * optimizer worked, issue 36); undefined: all up to `limit`. `count` is the number of the query.
   */
  shortReply?: (query: {
    collection: string;
    limit: number;
    matched: number;
    count: number;
  }) => number | undefined;
  /** A reply to send instead of the real one for `METHOD /path` (e.g. a 500 on `DELETE /collections/x`). */
  fail?: (route: string) => { status: number; body: unknown } | undefined;
  /** Also serve Qdrant's gRPC `Points/Upsert` and `Qdrant/HealthCheck` (on `grpcUrl`). */
  grpc?: boolean;
  /** A gRPC error to answer instead for `/qdrant.Points/Upsert` (the number of the call from 1). */
  grpcFail?: (method: string, count: number) => { code: status; details: string } | undefined;
};

export type FakeQdrant = {
  url: string;
  /** The gRPC endpoint, when started with `grpc`. */
  grpcUrl?: string;
  /** `method` of every gRPC call, in order, and the `api-key` metadata it carried. */
  grpcCalls: FakeGrpcCall[];
  collections: Map<string, FakeCollection>;
  /** `METHOD /path` of every request, in order (`urls` without their queries). */
  readonly requests: string[];
  /** `METHOD /path?query` of every request, in order (`wait=true` or not). */
  urls: string[];
  /** The body of every request as sent, in order ('' when none). */
  bodies: string[];
  /** The `accept-encoding` header of every request, in order (undefined when absent). */
  acceptEncodings: (string | undefined)[];
  close(): Promise<void>;
};

/**
 * A loopback stand-in for the Qdrant REST endpoints lme uses (no Qdrant server can run on the
 * build machines), with Qdrant's shapes (`{result, status, time}`, `{status: {error}}`) and
 * semantics: cosine on normalised vectors, must/should/has_id/range filters, upsert overwrites the
 * whole point, `GET /` reports the version, `GET /collections` lists.
 */
export async function startFakeQdrant(options: FakeQdrantOptions = {}): Promise<FakeQdrant> {
  const collections = new Map<string, FakeCollection>();
  const urls: string[] = [];
  const bodies: string[] = [];
  const acceptEncodings: (string | undefined)[] = [];
  let queries = 0;
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

  async function handle(request: IncomingMessage, response: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const body = chunks.length ? JSON.parse(text) : undefined;
    if (options.requireKey && request.headers['api-key'] !== options.requireKey) {
      // Echo the wrong key back, as a careless proxy might, to prove errors redact it.
      return reply(response, 401, { status: { error: `Invalid api-key ${request.headers['api-key']}` } });
    }
    const url = new URL(request.url ?? '/', 'http://localhost');
    urls.push(`${request.method} ${url.pathname}${url.search}`);
    bodies.push(text);
    acceptEncodings.push(request.headers['accept-encoding']);
    const failure = options.fail?.(`${request.method} ${url.pathname}`);
    if (failure) return reply(response, failure.status, failure.body);
    if (request.method === 'GET' && url.pathname === '/')
      return reply(response, 200, {
        title: 'qdrant - vector search engine',
        version: options.version ?? '1.18.3',
      });
    if (request.method === 'GET' && url.pathname === '/collections')
      return ok(response, { collections: [...collections.keys()].map((name) => ({ name })) });
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
      const error = store(collection, body.points);
      return error ? reply(response, 400, { status: { error } }) : ok(response, done);
    }
    if (route === 'POST /points/query') {
      const query = normalise(body.query as number[]);
      const matched = [...collection.points].filter(([id, point]) =>
        matchesFilter(point.payload, id, body.filter),
      );
      queries += 1;
      const kept = options.shortReply?.({
        collection: name,
        limit: body.limit,
        matched: matched.length,
        count: queries,
      });
      const points = matched
        .slice(0, kept ?? matched.length)
        .map(([id, point]) => ({
          id,
          version: 0,
          score: point.vector.reduce((sum, value, d) => sum + value * query[d]!, 0),
          payload: Array.isArray(body.with_payload)
            ? Object.fromEntries(
                Object.entries(point.payload).filter(([key]) =>
                  (body.with_payload as string[]).includes(key),
                ),
              )
            : body.with_payload
              ? point.payload
              : undefined,
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
  const grpcCalls: FakeGrpcCall[] = [];
  const grpc = options.grpc
    ? await startGrpc({
        upsert(request, apiKey) {
          if (options.requireKey && apiKey !== options.requireKey)
            return { code: status.UNAUTHENTICATED, details: `Invalid api-key ${apiKey}` };
          const failure = options.grpcFail?.('/qdrant.Points/Upsert', grpcCalls.length);
          if (failure) return failure;
          const collection = collections.get(request.collection);
          if (!collection)
            return { code: status.NOT_FOUND, details: `Collection \`${request.collection}\` doesn't exist!` };
          const error = store(collection, request.points);
          return error ? { code: status.INVALID_ARGUMENT, details: error } : request.wait ? 2 : 1;
        },
        version: options.version ?? '1.18.3',
        calls: grpcCalls,
      })
    : undefined;
  return {
    url: `http://127.0.0.1:${port}`,
    ...(grpc ? { grpcUrl: grpc.url } : {}),
    grpcCalls,
    collections,
    get requests() {
      return urls.map((route) => route.replace(/\?.*$/, ''));
    },
    urls,
    bodies,
    acceptEncodings,
    close: async () => {
      grpc?.server.forceShutdown();
      await new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      });
    },
  };
}
