import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  Server as GrpcServer,
  ServerCredentials,
  type ServerUnaryCall,
  type sendUnaryData,
  status,
} from '@grpc/grpc-js';
import protobuf from 'protobufjs/minimal.js';

type FakePoint = { vector: number[]; payload: Record<string, unknown> };
type FakeCollection = { size: number; points: Map<string, FakePoint>; indexes: Record<string, unknown> };

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
  grpcCalls: { method: string; apiKey: string | undefined }[];
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

  /** Upsert as Qdrant does: the whole point replaced; an error when a vector has the wrong size. */
  function store(
    collection: FakeCollection,
    points: readonly { id: string; vector: number[]; payload?: Record<string, unknown> }[],
  ): string | undefined {
    for (const point of points) {
      if (point.vector.length !== collection.size)
        return `Wrong input: Vector dimension error: expected dim: ${collection.size}, got ${point.vector.length}`;
      collection.points.set(point.id, { vector: normalise(point.vector), payload: point.payload ?? {} });
    }
    return undefined;
  }

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
  const grpcCalls: FakeQdrant['grpcCalls'] = [];
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

type DecodedUpsert = {
  collection: string;
  wait: boolean;
  points: { id: string; vector: number[]; payload: Record<string, unknown> }[];
};

/**
 * Qdrant's gRPC `Points/Upsert` and `Qdrant/HealthCheck` on a loopback port, decoding the request
 * field by field as Qdrant's `points.proto` lays it out (any field lme does not send is refused,
 * so a message written differently shows).
 */
async function startGrpc(handlers: {
  upsert(request: DecodedUpsert, apiKey: string | undefined): number | { code: status; details: string };
  version: string;
  calls: FakeQdrant['grpcCalls'];
}): Promise<{ url: string; server: GrpcServer }> {
  const server = new GrpcServer();
  const bytes = {
    serialize: (value: Uint8Array) => Buffer.from(value),
    deserialize: (value: Buffer) => value,
  };
  const method = (path: string) => ({
    path,
    requestStream: false,
    responseStream: false,
    requestSerialize: bytes.serialize,
    requestDeserialize: bytes.deserialize,
    responseSerialize: bytes.serialize,
    responseDeserialize: bytes.deserialize,
  });
  const apiKeyOf = (call: ServerUnaryCall<Buffer, Uint8Array>) => {
    const value = call.metadata.get('api-key')[0];
    return value === undefined ? undefined : String(value);
  };
  server.addService(
    { Upsert: method('/qdrant.Points/Upsert'), HealthCheck: method('/qdrant.Qdrant/HealthCheck') },
    {
      Upsert(call: ServerUnaryCall<Buffer, Uint8Array>, callback: sendUnaryData<Uint8Array>) {
        const apiKey = apiKeyOf(call);
        handlers.calls.push({ method: '/qdrant.Points/Upsert', apiKey });
        let request: DecodedUpsert;
        try {
          request = decodeUpsert(call.request);
        } catch (error) {
          return callback({ code: status.INVALID_ARGUMENT, details: (error as Error).message });
        }
        const outcome = handlers.upsert(request, apiKey);
        if (typeof outcome !== 'number') return callback(outcome);
        // PointsOperationResponse { result = 1 { operation_id = 1, status = 2 }, time = 2 }
        const writer = protobuf.Writer.create();
        writer.uint32(10).fork().uint32(8).uint64(1).uint32(16).uint32(outcome).ldelim();
        writer.uint32(17).double(0.001);
        callback(null, writer.finish());
      },
      HealthCheck(call: ServerUnaryCall<Buffer, Uint8Array>, callback: sendUnaryData<Uint8Array>) {
        handlers.calls.push({ method: '/qdrant.Qdrant/HealthCheck', apiKey: apiKeyOf(call) });
        const writer = protobuf.Writer.create();
        writer.uint32(10).string('qdrant - vector search engine').uint32(18).string(handlers.version);
        callback(null, writer.finish());
      },
    },
  );
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', ServerCredentials.createInsecure(), (error, bound) =>
      error ? reject(error) : resolve(bound),
    ),
  );
  return { url: `http://127.0.0.1:${port}`, server };
}

/** Reads a message's fields; `field` returns false for one it does not know, which is an error. */
function fields(
  bytes: Uint8Array,
  what: string,
  field: (number: number, reader: protobuf.Reader) => boolean,
) {
  const reader = protobuf.Reader.create(bytes);
  while (reader.pos < reader.len) {
    const key = reader.uint32();
    if (!field(key >>> 3, reader))
      throw new Error(`fake qdrant: unexpected field ${key >>> 3} (wire type ${key & 7}) in ${what}`);
  }
}

function decodeUpsert(bytes: Uint8Array): DecodedUpsert {
  const request: DecodedUpsert = { collection: '', wait: false, points: [] };
  fields(bytes, 'UpsertPoints', (number, reader) => {
    if (number === 1) request.collection = reader.string();
    else if (number === 2) request.wait = reader.bool();
    else if (number === 3) request.points.push(decodePoint(reader.bytes()));
    else return false;
    return true;
  });
  return request;
}

function decodePoint(bytes: Uint8Array): DecodedUpsert['points'][number] {
  const point: DecodedUpsert['points'][number] = { id: '', vector: [], payload: {} };
  fields(bytes, 'PointStruct', (number, reader) => {
    if (number === 1)
      fields(reader.bytes(), 'PointId', (inner, idReader) => {
        if (inner !== 2) return false;
        point.id = idReader.string();
        return true;
      });
    else if (number === 3) {
      let key = '';
      let value: unknown;
      fields(reader.bytes(), 'payload entry', (inner, entry) => {
        if (inner === 1) key = entry.string();
        else if (inner === 2) value = decodeValue(entry.bytes());
        else return false;
        return true;
      });
      point.payload[key] = value;
    } else if (number === 4)
      fields(reader.bytes(), 'Vectors', (inner, vectors) => {
        if (inner !== 1) return false;
        fields(vectors.bytes(), 'Vector', (kind, vector) => {
          if (kind !== 101) return false;
          fields(vector.bytes(), 'DenseVector', (data, dense) => {
            if (data !== 1) return false;
            const packed = dense.bytes();
            const view = new DataView(packed.buffer, packed.byteOffset, packed.byteLength);
            for (let at = 0; at < packed.byteLength; at += 4) point.vector.push(view.getFloat32(at, true));
            return true;
          });
          return true;
        });
        return true;
      });
    else return false;
    return true;
  });
  return point;
}

function decodeValue(bytes: Uint8Array): unknown {
  let value: unknown = null;
  fields(bytes, 'Value', (number, reader) => {
    if (number === 2) value = reader.double();
    else if (number === 3) value = Number(reader.int64());
    else if (number === 4) value = reader.string();
    else if (number === 5) value = reader.bool();
    else return false;
    return true;
  });
  return value;
}
