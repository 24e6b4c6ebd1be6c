import { isIP } from 'node:net';
import { endianness } from 'node:os';
import { checkServerIdentity } from 'node:tls';
import { Client, credentials, status as grpcStatus, Metadata } from '@grpc/grpc-js';
import protobuf from 'protobufjs/minimal.js';
import { redactSecrets } from '../core/redact-secrets.js';
import type { Payload } from './vector-index.js';

/**
 * The two calls of Qdrant's gRPC API lme makes (`qdrant.Points/Upsert`, `qdrant.Qdrant/HealthCheck`),
 * through @grpc/grpc-js with the messages written by hand with protobufjs's writer: a vector is one
 * packed run of float32 bytes copied from its Float32Array, where REST makes the server parse ~9
 * decimal digits per number (a third of its time per 128-point upsert, docs/qdrant.md "Latency").
 * Field numbers are those of Qdrant's `points.proto`, `json_with_int.proto` and `qdrant.proto`.
 */

export type QdrantGrpcOptions = {
  /** `http://host:6334` (plain) or `https://…` (TLS); the CLI reads `QDRANT_GRPC_URL`. */
  url: string;
  apiKey?: string;
  /** Per-call deadline. Default 60 s. */
  timeoutMs?: number;
  /** Extra attempts after UNAVAILABLE or RESOURCE_EXHAUSTED. Default 2. */
  maxRetries?: number;
  /** First backoff delay (grpc-js jitters it); doubled per attempt. Default 200 ms. */
  retryBaseDelayMs?: number;
};

export type QdrantGrpc = {
  /** The URL without credentials, for messages. */
  readonly where: string;
  /** Upserts points (ids already Qdrant's UUIDs); resolves when Qdrant reports them applied (`wait`) or logged. */
  upsert(
    collection: string,
    points: readonly { id: string; vector: Float32Array; payload: Payload }[],
    options: { wait: boolean; signal?: AbortSignal },
  ): Promise<void>;
  /** The server's version (HealthCheck). */
  version(signal?: AbortSignal): Promise<string>;
  close(): void;
};

const UPSERT = '/qdrant.Points/Upsert';
const HEALTH = '/qdrant.Qdrant/HealthCheck';
/** UpdateStatus values (points.proto). */
const ACKNOWLEDGED = 1;
const COMPLETED = 2;
const UPDATE_STATUS = ['unknown', 'acknowledged', 'completed', 'clock rejected', 'wait timeout'];

export function createQdrantGrpc(options: QdrantGrpcOptions): QdrantGrpc {
  const parsed = new URL(options.url);
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new Error(`QDRANT_GRPC_URL must be http(s)://host:port, got ${parsed.protocol}.`);
  }
  const tls = parsed.protocol === 'https:';
  const where = `${parsed.protocol}//${parsed.host}`;
  const target = `${parsed.hostname}:${parsed.port || (tls ? 443 : 80)}`;
  const { apiKey } = options;
  const timeoutMs = options.timeoutMs ?? 60_000;
  const retries = options.maxRetries ?? 2;
  const firstDelay = (options.retryBaseDelayMs ?? 200) / 1000;
  const serviceConfig = {
    methodConfig: [
      {
        name: [{ service: 'qdrant.Points' }, { service: 'qdrant.Qdrant' }],
        ...(retries > 0
          ? {
              retryPolicy: {
                maxAttempts: retries + 1,
                initialBackoff: `${firstDelay}s`,
                maxBackoff: `${firstDelay * 2 ** retries}s`,
                backoffMultiplier: 2,
                retryableStatusCodes: ['UNAVAILABLE', 'RESOURCE_EXHAUSTED'],
              },
            }
          : {}),
      },
    ],
  };
  // TLS to an IP address: grpc-js would send the IP as the TLS server name, which Node warns of
  // (DEP0123: RFC 6066 forbids it). A placeholder name goes instead, and the certificate is still
  // checked against the address itself.
  const ipHost = tls && isIP(parsed.hostname.replace(/^\[|\]$/g, '')) !== 0;
  const channelCredentials = !tls
    ? credentials.createInsecure()
    : ipHost
      ? credentials.createSsl(null, null, null, {
          checkServerIdentity: (_name, cert) =>
            checkServerIdentity(parsed.hostname.replace(/^\[|\]$/g, ''), cert),
        })
      : credentials.createSsl();
  const client = new Client(target, channelCredentials, {
    ...(ipHost ? { 'grpc.ssl_target_name_override': 'qdrant.invalid' } : {}),
    'grpc.service_config': JSON.stringify(serviceConfig),
    // A retried call keeps its request; an upsert of 128 points of 768 dimensions is ~400 KB.
    'grpc.per_rpc_retry_buffer_size': 64 << 20,
    'grpc.retry_buffer_size': 256 << 20,
    'grpc.max_receive_message_length': 4 << 20,
  });
  const redact = (text: string) => redactSecrets(text, apiKey ? [apiKey] : []);

  function unary(method: string, request: Uint8Array, signal: AbortSignal | undefined): Promise<Buffer> {
    signal?.throwIfAborted();
    const metadata = new Metadata();
    if (apiKey) metadata.set('api-key', apiKey);
    return new Promise<Buffer>((resolve, reject) => {
      const call = client.makeUnaryRequest<Uint8Array, Buffer>(
        method,
        (message) => Buffer.from(message.buffer, message.byteOffset, message.byteLength),
        (reply) => reply,
        request,
        metadata,
        { deadline: Date.now() + timeoutMs },
        (error, reply) => {
          signal?.removeEventListener('abort', cancel);
          if (error) reject(error);
          else resolve(reply ?? Buffer.alloc(0));
        },
      );
      const cancel = () => call.cancel();
      signal?.addEventListener('abort', cancel, { once: true });
    });
  }

  async function run(
    operation: string,
    collection: string | undefined,
    method: string,
    request: Uint8Array,
    signal?: AbortSignal,
  ) {
    try {
      return await unary(method, request, signal);
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      const on = collection === undefined ? '' : ` on collection "${collection}"`;
      // No `cause`: grpc-js's error carries the server's details as sent, which may echo the key.
      throw new QdrantGrpcError(
        `Qdrant ${operation}${on} at ${where} (gRPC) failed`,
        redact(grpcErrorDetail(error)),
      );
    }
  }

  return {
    where,
    async upsert(collection, points, { wait, signal }) {
      const reply = await run('upsert', collection, UPSERT, encodeUpsert(collection, points, wait), signal);
      const status = updateStatus(reply);
      if (status !== COMPLETED && !(status === ACKNOWLEDGED && !wait)) {
        throw new Error(
          `Qdrant upsert on collection "${collection}" at ${where} (gRPC) answered "${UPDATE_STATUS[status] ?? status}", not "completed".`,
        );
      }
    },
    async version(signal) {
      const reply = await run('health check', undefined, HEALTH, new Uint8Array(0), signal);
      return healthVersion(reply);
    },
    close: () => client.close(),
  };
}

/** A failed gRPC call: the sentence, and its cause alone (`UNAVAILABLE (connect ECONNREFUSED …)`), key removed. */
export class QdrantGrpcError extends Error {
  constructor(
    what: string,
    readonly detail: string,
  ) {
    super(`${what}: ${detail}.`);
    this.name = 'QdrantGrpcError';
  }
}

/**
 * A gRPC error as its status name and details, without grpc-js's wrapping:
 * `UNAVAILABLE (connect ECONNREFUSED 127.0.0.1:6334)`, `NOT_FOUND (Collection … doesn't exist!)`.
 */
function grpcErrorDetail(error: unknown): string {
  const { code, details, message } = error as { code?: number; details?: string; message?: string };
  if (code === undefined) return (message ?? String(error)).replace(/\.$/, '');
  let cause = (details ?? '')
    .replace(/^No connection established\. Last error: (Error: )?/, '')
    .replace(/\.? ?Resolution note: ?$/, '')
    .replace(/\.$/, '');
  // OpenSSL's multi-line text (`…:error:0A00010B:SSL routines:…:wrong version number:…`) as its reason alone.
  const openssl = /SSL routines:[^:]*:([^:\n]+)/.exec(cause);
  if (openssl)
    cause = `TLS failed: ${openssl[1]}${/wrong version number|packet length too long|http request/i.test(openssl[1]!) ? '; the port does not speak TLS: use http:// in QDRANT_GRPC_URL for a plain-text port' : ''}`;
  cause = cause.replace(/\s+/g, ' ').trim();
  return `${grpcStatus[code] ?? code}${cause ? ` (${cause})` : ''}`;
}

const LITTLE_ENDIAN = endianness() === 'LE';

/** A Float32Array's components as little-endian bytes (the wire order of a packed float field). */
function floatBytes(vector: Float32Array): Uint8Array {
  if (LITTLE_ENDIAN) return new Uint8Array(vector.buffer, vector.byteOffset, vector.byteLength);
  const out = Buffer.allocUnsafe(vector.length * 4);
  for (let index = 0; index < vector.length; index++) out.writeFloatLE(vector[index]!, index * 4);
  return out;
}

/** Tag of field `number` with wire type `type` (0 varint, 1 fixed64, 2 length-delimited). */
const tag = (number: number, type: 0 | 1 | 2) => (number << 3) | type;

/**
 * `UpsertPoints { collection_name = 1; wait = 2; repeated PointStruct points = 3 }`, each point
 * `{ PointId id = 1 {uuid = 2}; map<string, Value> payload = 3; Vectors vectors = 4 { Vector
 * vector = 1 { DenseVector dense = 101 { repeated float data = 1 } } } }`.
 */
export function encodeUpsert(
  collection: string,
  points: readonly { id: string; vector: Float32Array; payload: Payload }[],
  wait: boolean,
): Uint8Array {
  const writer = protobuf.Writer.create();
  writer.uint32(tag(1, 2)).string(collection);
  writer.uint32(tag(2, 0)).bool(wait);
  for (const point of points) {
    writer.uint32(tag(3, 2)).fork();
    writer.uint32(tag(1, 2)).fork().uint32(tag(2, 2)).string(point.id).ldelim();
    for (const [key, value] of Object.entries(point.payload)) {
      writer.uint32(tag(3, 2)).fork().uint32(tag(1, 2)).string(key).uint32(tag(2, 2)).fork();
      writeValue(writer, value);
      writer.ldelim().ldelim();
    }
    writer
      .uint32(tag(4, 2))
      .fork()
      .uint32(tag(1, 2))
      .fork()
      .uint32(tag(101, 2))
      .fork()
      .uint32(tag(1, 2))
      .bytes(floatBytes(point.vector))
      .ldelim()
      .ldelim()
      .ldelim();
    writer.ldelim();
  }
  return writer.finish();
}

/**
 * `Value { double_value = 2; int64 integer_value = 3; string_value = 4; bool_value = 5 }`: a safe
 * integer as an integer (as REST reads a JSON number without a fraction), any other number as a double.
 */
function writeValue(writer: protobuf.Writer, value: Payload[string]): void {
  if (typeof value === 'string') writer.uint32(tag(4, 2)).string(value);
  else if (typeof value === 'boolean') writer.uint32(tag(5, 0)).bool(value);
  else if (Number.isSafeInteger(value)) writer.uint32(tag(3, 0)).int64(value);
  else writer.uint32(tag(2, 1)).double(value);
}

/** Calls `field` for each top-level field of a message; unknown fields are skipped. */
function readFields(bytes: Uint8Array, field: (number: number, reader: protobuf.Reader) => boolean): void {
  const reader = protobuf.Reader.create(bytes);
  while (reader.pos < reader.len) {
    const key = reader.uint32();
    if (!field(key >>> 3, reader)) reader.skipType(key & 7);
  }
}

/** `PointsOperationResponse { UpdateResult result = 1 { UpdateStatus status = 2 } }`'s status. */
export function updateStatus(reply: Uint8Array): number {
  let status = 0;
  readFields(reply, (number, reader) => {
    if (number !== 1) return false;
    readFields(reader.bytes(), (inner, innerReader) => {
      if (inner !== 2) return false;
      status = innerReader.uint32();
      return true;
    });
    return true;
  });
  return status;
}

/** `HealthCheckReply { title = 1; version = 2 }`'s version. */
function healthVersion(reply: Uint8Array): string {
  let version = 'unknown';
  readFields(reply, (number, reader) => {
    if (number !== 2) return false;
    version = reader.string();
    return true;
  });
  return version;
}
