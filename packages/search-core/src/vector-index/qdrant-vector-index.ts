import { hash } from 'node:crypto';
import type { Schemas } from '@qdrant/js-client-rest';
import { float32Json, float32JsonMaxBytes, writeFloat32Json } from './float32-json.js';
import { createQdrantCollection, type QdrantPayloadType } from './qdrant-collection.js';
import { createQdrantGrpc } from './qdrant-grpc.js';
import type { PayloadFilter, PayloadValue, VectorIndex, VectorRecord } from './vector-index.js';

export type { QdrantPayloadType };

export type QdrantVectorIndexOptions = {
  /** e.g. `http://localhost:6333` (the CLI reads `QDRANT_URL`). */
  url: string;
  apiKey?: string;
  /**
   * Qdrant's gRPC endpoint (`http://localhost:6334`; the CLI reads `QDRANT_GRPC_URL`): upserts go
   * there, packed float32 instead of JSON digits; everything else stays on `url`. Unset: REST only.
   */
  grpcUrl?: string;
  collection: string;
  dimensions: number;
  /** Payload keys to index for filtering: names (keyword indexes) or name -> type. */
  filterKeys: readonly string[] | Readonly<Record<string, QdrantPayloadType>>;
  /** Points per upsert request. Default 128. */
  batchSize?: number;
  /** Exact (brute-force) search instead of HNSW. Default false. */
  exact?: boolean;
  /** Per-request timeout. Default 60 s. */
  timeoutMs?: number;
};

/** Payload key holding the caller's string id (Qdrant point ids must be integers or UUIDs). */
export const QDRANT_ID_KEY = 'lme_id';
const DEFAULT_BATCH_SIZE = 128;
/** Upsert requests in flight at once. */
const UPSERT_IN_FLIGHT = 4;
const DELETE_BATCH_SIZE = 1000;

type QdrantFilter = Schemas['Filter'];
type QdrantCondition = Schemas['Condition'];
type QdrantScoredPoint = { id: string | number; score: number; payload?: Record<string, unknown> | null };

/**
 * A vector index in a Qdrant collection (cosine distance), created on first use with payload
 * indexes on `filterKeys`. String ids map to UUIDs derived from them, so upserting an id twice
 * replaces the point; the original id travels in the payload under `lme_id`.
 */
export function createQdrantVectorIndex(options: QdrantVectorIndexOptions): VectorIndex {
  const { collection, dimensions } = options;
  if (!Number.isInteger(dimensions) || dimensions < 1) {
    throw new Error(`createQdrantVectorIndex: dimensions must be a positive integer, got ${dimensions}.`);
  }
  const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
  const filterKeys: Record<string, QdrantPayloadType> = Array.isArray(options.filterKeys)
    ? Object.fromEntries((options.filterKeys as readonly string[]).map((key) => [key, 'keyword' as const]))
    : { ...(options.filterKeys as Readonly<Record<string, QdrantPayloadType>>) };
  const {
    call,
    ensure: ensureCollection,
    drop,
    http,
  } = createQdrantCollection({
    url: options.url,
    ...(options.apiKey !== undefined ? { apiKey: options.apiKey } : {}),
    collection,
    dimensions,
    filterKeys,
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
  });
  const id = `qdrant:${collection}`;
  const grpc =
    options.grpcUrl === undefined
      ? undefined
      : createQdrantGrpc({
          url: options.grpcUrl,
          ...(options.apiKey !== undefined ? { apiKey: options.apiKey } : {}),
          ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
        });
  const sendBatch = (batch: readonly VectorRecord[], signal: AbortSignal | undefined): Promise<unknown> =>
    grpc
      ? grpc.upsert(
          collection,
          batch.map((record) => ({
            id: qdrantPointId(record.id),
            vector: record.vector,
            payload: { ...record.payload, [QDRANT_ID_KEY]: record.id },
          })),
          { wait: true, ...(signal ? { signal } : {}) },
        )
      : call('upsert', {
          method: 'PUT',
          path: '/points?wait=true',
          rawBody: upsertBody(batch),
          ...(signal ? { signal } : {}),
        });

  return {
    id,

    async upsert({ records, signal }) {
      for (const record of records) {
        if (record.vector.length !== dimensions) {
          throw new Error(
            `${id}: vector "${record.id}" has ${record.vector.length} dimensions, the index has ${dimensions}.`,
          );
        }
        if (!record.vector.every(Number.isFinite))
          throw new Error(`${id}: vector "${record.id}" has a component that is NaN or infinite.`);
      }
      if (records.length === 0) return;
      await ensureCollection();
      // Batches go out without waiting for the previous one's reply (at most UPSERT_IN_FLIGHT at
      // once): the next batch is serialised while the server parses the last.
      const batches: Promise<unknown>[] = [];
      const inFlight = new Set<Promise<unknown>>();
      for (let start = 0; start < records.length; start += batchSize) {
        if (inFlight.size >= UPSERT_IN_FLIGHT) await Promise.race(inFlight);
        const sent = sendBatch(records.slice(start, start + batchSize), signal);
        const settled: Promise<unknown> = sent.then(
          (): void => void inFlight.delete(settled),
          (): void => void inFlight.delete(settled),
        );
        inFlight.add(settled);
        batches.push(sent);
      }
      await Promise.all(batches);
    },

    async search({ vector, limit, filter, payloadKeys, signal }) {
      if (vector.length !== dimensions) {
        throw new Error(
          `${id}: the query vector has ${vector.length} dimensions, the index has ${dimensions}.`,
        );
      }
      const k = Math.floor(limit);
      if (!(k > 0)) return [];
      const qdrantFilter = toQdrantFilter(filter);
      if (qdrantFilter === false) return [];
      await ensureCollection();
      // The query in 9 digits, as upserts send vectors (the same float32 values, half the bytes),
      // and only the payload keys the caller reads (Qdrant's reply time grows with the payload).
      const rest = JSON.stringify({
        limit: k,
        with_payload: payloadKeys ? [...payloadKeys, QDRANT_ID_KEY] : true,
        ...(qdrantFilter ? { filter: qdrantFilter } : {}),
        ...(options.exact ? { params: { exact: true } } : {}),
      });
      const response = await call<{ points: QdrantScoredPoint[] }>('search', {
        method: 'POST',
        path: '/points/query',
        rawBody: `{"query":${float32Json(vector)},${rest.slice(1)}`,
        signal,
      });
      return response.points.map((point) => {
        const { [QDRANT_ID_KEY]: originalId, ...payload } = (point.payload ?? {}) as Record<
          string,
          PayloadValue
        >;
        return {
          id: typeof originalId === 'string' ? originalId : String(point.id),
          score: point.score,
          payload,
        };
      });
    },

    async delete({ ids, filter, wait = true, signal }) {
      if (ids === undefined && filter === undefined) {
        throw new Error(`${id}: delete needs ids or a filter (drop() removes everything).`);
      }
      const qdrantFilter = toQdrantFilter(filter);
      if (qdrantFilter === false || ids?.length === 0) return;
      await ensureCollection();
      // wait=false: Qdrant answers once the delete is in its write-ahead log; its update queue
      // applies operations in order, so a later upsert or delete of this collection comes after it.
      const path = `/points/delete?wait=${wait}`;
      if (ids === undefined) {
        // A filter with no conditions selects everything, as in the memory index.
        const selector = qdrantFilter ?? {};
        await call('delete', {
          method: 'POST',
          path,
          body: { filter: selector },
          signal,
        });
        return;
      }
      for (let start = 0; start < ids.length; start += DELETE_BATCH_SIZE) {
        const points = ids.slice(start, start + DELETE_BATCH_SIZE).map(qdrantPointId);
        const selector = qdrantFilter
          ? { filter: { must: [{ has_id: points }, ...asArray(qdrantFilter.must)] } }
          : { points };
        await call('delete', { method: 'POST', path, body: selector, signal });
      }
    },

    async drop() {
      try {
        await drop();
      } finally {
        http.close();
        grpc?.close();
      }
    },
  };
}

/** The Qdrant point id for a string id: a UUID (version 5 layout) from its SHA-256. */
export function qdrantPointId(recordId: string): string {
  const bytes = hash('sha256', recordId, 'buffer').subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x50;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * The body of an upsert, written by hand into one buffer: `{"points":[{"id","vector","payload"}…]}`
 * with the vectors in 9 significant digits (float32-json.ts), a third of the time and bytes of
 * `JSON.stringify` and nothing for the socket to encode again.
 */
function upsertBody(records: readonly VectorRecord[]): Buffer {
  const payloads = records.map((record) => JSON.stringify({ ...record.payload, [QDRANT_ID_KEY]: record.id }));
  // `{"points":[]}` (13 bytes), then a record's `,{"id":"<uuid>","vector":` (55) and `,"payload":…}` (12).
  let size = 13;
  for (const [index, record] of records.entries())
    size += 67 + float32JsonMaxBytes(record.vector.length) + Buffer.byteLength(payloads[index]!);
  const out = Buffer.allocUnsafe(size);
  let at = out.write('{"points":[', 0, 'latin1');
  for (const [index, record] of records.entries()) {
    at += out.write(`${index === 0 ? '' : ','}{"id":"${qdrantPointId(record.id)}","vector":`, at, 'latin1');
    at = writeFloat32Json(out, at, record.vector);
    at += out.write(`,"payload":${payloads[index]!}}`, at, 'utf8');
  }
  at += out.write(']}', at, 'latin1');
  return out.subarray(0, at);
}

/**
 * A payload filter as a Qdrant filter: every key in `must`; an any-of list becomes a nested
 * `should`. Undefined when there is nothing to filter, false when nothing can match (an empty
 * list).
 */
export function toQdrantFilter(filter: PayloadFilter | undefined): QdrantFilter | undefined | false {
  if (!filter) return undefined;
  const must: QdrantCondition[] = [];
  for (const [key, expected] of Object.entries(filter)) {
    if (Array.isArray(expected)) {
      const values = expected as readonly PayloadValue[];
      if (values.length === 0) return false;
      must.push(
        values.length === 1
          ? matchCondition(key, values[0]!)
          : { should: values.map((value) => matchCondition(key, value)) },
      );
    } else {
      must.push(matchCondition(key, expected as PayloadValue));
    }
  }
  return must.length === 0 ? undefined : { must };
}

/** Exact match; Qdrant matches strings, integers and booleans by value, other numbers by range. */
function matchCondition(key: string, value: PayloadValue): QdrantCondition {
  if (typeof value === 'number' && !Number.isInteger(value))
    return { key, range: { gte: value, lte: value } };
  return { key, match: { value } };
}

function asArray(conditions: QdrantFilter['must']): QdrantCondition[] {
  if (!conditions) return [];
  return Array.isArray(conditions) ? conditions : [conditions as QdrantCondition];
}
