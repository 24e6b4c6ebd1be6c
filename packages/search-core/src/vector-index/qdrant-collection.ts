import { randomBytes } from 'node:crypto';
import { redactSecrets } from '../core/redact-secrets.js';
import { createJsonClient, type JsonRequest } from '../http/json-client.js';
import { createNodeHttpTransport } from '../http/node-http-transport.js';

export type QdrantPayloadType = 'keyword' | 'integer' | 'float' | 'bool';

/**
 * The oldest Qdrant server lme runs against: the Query API (`/points/query`, 1.10) and the
 * versions lme's contract tests ran on (1.18.0 and 1.18.3, issue 36). Older servers are refused
 * before any work, naming their version.
 */
export const MIN_QDRANT_VERSION = '1.18.0';

/**
 * How lme's collections are optimised, for the way lme writes them: every search is filtered to
 * one haystack (a few hundred to a few thousand points, scored exactly from the payload index),
 * so no HNSW graph is ever built (`indexing_threshold` 0); each haystack's points are deleted
 * wholesale when its question ends, so a segment is rebuilt without its deleted points only once
 * it holds 20,000 points and nine in ten of them are deleted, not after every few questions
 * (Qdrant's defaults, 1000 and 0.2, spent as much server CPU rebuilding segments as on the
 * upserts: `scripts/bench-qdrant.ts`, docs/qdrant.md).
 */
const OPTIMIZERS = { indexing_threshold: 0, deleted_threshold: 0.9, vacuum_min_vector_number: 20_000 };

/** Prefix of every collection lme creates; `lme qdrant collections` lists and removes these only. */
export const QDRANT_COLLECTION_PREFIX = 'lme-';

export type QdrantServerOptions = {
  url: string;
  apiKey?: string;
  /** Per-request timeout. Default 60 s. */
  timeoutMs?: number;
  /** Extra attempts after a dropped connection, a timeout or a 5xx. Default 2. */
  maxRetries?: number;
  /** First backoff delay; doubled per attempt. Default 200 ms. */
  retryBaseDelayMs?: number;
};

export type QdrantCollectionOptions = QdrantServerOptions & {
  collection: string;
  dimensions: number;
  /** Payload keys indexed for filtering, with their types. */
  filterKeys: Readonly<Record<string, QdrantPayloadType>>;
};

/** A REST request; `raw` returns the whole reply instead of its `result`. */
export type QdrantRequest = Omit<JsonRequest, 'context'> & { raw?: boolean };

/** A REST call to one Qdrant server; errors are one sentence naming the operation, never the key. */
export type QdrantHttp = {
  /** The base URL without credentials or query, for messages. */
  readonly where: string;
  call<T>(operation: string, request: QdrantRequest, collection?: string): Promise<T>;
  /** Closes the kept-alive connections. */
  close(): void;
};

/**
 * Qdrant's REST API over `createNodeHttpTransport` (kept-alive connections, one write per request;
 * see docs/qdrant.md for why not the client's `fetch`), with the JSON client's retry policy.
 * Replies are `{result, status, time}`; `call` returns `result`.
 */
export function createQdrantHttp(options: QdrantServerOptions): QdrantHttp {
  const { apiKey } = options;
  const baseUrl = options.url.replace(/\/+$/, '');
  const where = safeUrl(options.url);
  const transport = createNodeHttpTransport();
  const redact = (text: string) =>
    redactSecrets(baseUrl !== where ? text.split(baseUrl).join(where) : text, apiKey ? [apiKey] : []);
  const client = createJsonClient({
    baseUrl,
    // Uncompressed replies: Qdrant (actix) streams a compressed one after its headers, in a second
    // segment that its Nagle holds until our delayed ACK, ~40 ms later (docs/qdrant.md, "Latency").
    headers: { 'accept-encoding': 'identity', ...(apiKey ? { 'api-key': apiKey } : {}) },
    timeoutMs: options.timeoutMs ?? 60_000,
    maxRetries: options.maxRetries ?? 2,
    retryBaseDelayMs: options.retryBaseDelayMs ?? 200,
    redact,
    authHint: ' Check QDRANT_API_KEY.',
    transport,
  });
  return {
    where,
    async call<T>(operation: string, { raw, ...request }: QdrantRequest, collection?: string) {
      request.signal?.throwIfAborted();
      try {
        const reply = (await client.request(request)) as { result?: unknown } | undefined;
        return (raw ? reply : reply?.result) as T;
      } catch (error) {
        if (request.signal?.aborted) throw error;
        const on = collection === undefined ? '' : ` on collection "${collection}"`;
        throw new Error(
          `Qdrant ${operation}${on} at ${where} failed: ${redact((error as Error).message).replace(/\.$/, '')}.`,
          { cause: error },
        );
      }
    },
    close: () => transport.close(),
  };
}

/** The server's version (`GET /`), refused in one sentence when older than MIN_QDRANT_VERSION. */
export async function checkQdrantVersion(
  http: QdrantHttp,
  options: { collection?: string; signal?: AbortSignal } = {},
): Promise<string> {
  // GET / is the one endpoint without the {result} envelope.
  const root = await http.call<{ version?: unknown } | undefined>(
    'version check',
    { method: 'GET', path: '/', raw: true, ...(options.signal ? { signal: options.signal } : {}) },
    options.collection,
  );
  const version = typeof root?.version === 'string' ? root.version : 'unknown';
  if (!versionAtLeast(version, MIN_QDRANT_VERSION)) {
    throw new Error(
      `The Qdrant server at ${http.where} is version ${version}; lme needs ${MIN_QDRANT_VERSION} or later (docs/qdrant.md).`,
    );
  }
  return version;
}

/** True when `version` (x.y.z, a `-suffix` ignored) is at least `minimum`. */
export function versionAtLeast(version: string, minimum: string): boolean {
  const parse = (text: string) =>
    text
      .split('-')[0]!
      .split('.')
      .map((part) => Number.parseInt(part, 10));
  const have = parse(version);
  const need = parse(minimum);
  if (have.some((part) => Number.isNaN(part)) || have.length < 2) return false;
  for (let index = 0; index < need.length; index++) {
    const difference = (have[index] ?? 0) - need[index]!;
    if (difference !== 0) return difference > 0;
  }
  return true;
}

/** A collection name for one run: `lme-<UTC timestamp>-<random hex>`, unique across processes and machines. */
export function newQdrantCollectionName(now: Date = new Date()): string {
  const stamp = now.toISOString().replace(/\D/g, '').slice(0, 14);
  return `${QDRANT_COLLECTION_PREFIX}${stamp}-${randomBytes(6).toString('hex')}`;
}

/** One Qdrant collection: its calls with safe errors, and creation on first use. */
export type QdrantCollection = {
  http: QdrantHttp;
  /** Runs one REST call on the collection (`path` relative to `/collections/<name>`). */
  call<T>(operation: string, request: QdrantRequest): Promise<T>;
  /** Checks the server version, creates the collection (cosine, `dimensions`) and its payload indexes once; retried after a failure. */
  ensure(): Promise<void>;
  /** Deletes the collection if it exists; the next `ensure` creates it again. */
  drop(): Promise<void>;
};

export function createQdrantCollection(options: QdrantCollectionOptions): QdrantCollection {
  const { collection, dimensions, filterKeys } = options;
  const http = createQdrantHttp(options);
  const base = `/collections/${encodeURIComponent(collection)}`;
  const call = <T>(operation: string, request: QdrantRequest) =>
    http.call<T>(operation, { ...request, path: `${base}${request.path}` }, collection);
  let ready: Promise<void> | undefined;

  const exists = async () =>
    (await call<{ exists: boolean }>('collection check', { method: 'GET', path: '/exists' })).exists;

  async function createCollection(): Promise<void> {
    await checkQdrantVersion(http, { collection });
    if (!(await exists())) {
      try {
        await call('create collection', {
          method: 'PUT',
          path: '',
          body: { vectors: { size: dimensions, distance: 'Cosine' }, optimizers_config: OPTIMIZERS },
        });
      } catch (error) {
        // Another process may have created it first.
        if (!(await exists())) throw error;
      }
    }
    const info = await call<{ config: { params: { vectors?: { size?: number } } } }>('read collection', {
      method: 'GET',
      path: '',
    });
    const vectors = info.config.params.vectors;
    if (vectors?.size !== undefined && vectors.size !== dimensions) {
      throw new Error(
        `Qdrant collection "${collection}" holds ${vectors.size}-dimensional vectors, this index needs ${dimensions}; drop it or use another collection.`,
      );
    }
    // Qdrant applies a collection's operations in order: only the last index is waited for.
    const indexes = Object.entries(filterKeys);
    for (const [number, [field_name, field_schema]] of indexes.entries()) {
      await call(`create payload index "${field_name}"`, {
        method: 'PUT',
        path: `/index?wait=${number === indexes.length - 1}`,
        body: { field_name, field_schema },
      });
    }
  }

  return {
    http,
    call,
    ensure() {
      ready ??= createCollection().catch((error) => {
        ready = undefined;
        throw error;
      });
      return ready;
    },
    async drop(): Promise<void> {
      ready = undefined;
      if (await exists()) await call('drop collection', { method: 'DELETE', path: '' });
    },
  };
}

export type QdrantCollectionEntry = { name: string; points: number | undefined };

/**
 * The collections lme created on this server (named `lme-…`; others are never listed), by name
 * (oldest first), with their point counts.
 */
export async function listQdrantCollections(options: QdrantServerOptions): Promise<QdrantCollectionEntry[]> {
  const http = createQdrantHttp(options);
  try {
    await checkQdrantVersion(http);
    const { collections } = await http.call<{ collections: { name: string }[] }>('list collections', {
      method: 'GET',
      path: '/collections',
    });
    const names = collections
      .map((entry) => entry.name)
      .filter((name) => name.startsWith(QDRANT_COLLECTION_PREFIX))
      .sort();
    const entries: QdrantCollectionEntry[] = [];
    for (const name of names) {
      const info = await http
        .call<{ points_count?: number | null }>(
          'read collection',
          { method: 'GET', path: `/collections/${encodeURIComponent(name)}` },
          name,
        )
        .catch(() => undefined);
      entries.push({ name, points: info?.points_count ?? undefined });
    }
    return entries;
  } finally {
    http.close();
  }
}

/** Deletes one collection (nothing when it is already gone). */
export async function removeQdrantCollection(
  options: QdrantServerOptions & { collection: string },
): Promise<void> {
  const http = createQdrantHttp(options);
  try {
    await http.call(
      'drop collection',
      {
        method: 'DELETE',
        path: `/collections/${encodeURIComponent(options.collection)}`,
      },
      options.collection,
    );
  } finally {
    http.close();
  }
}

/** The URL without credentials or query (which could hold a key). */
export function safeUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}${parsed.pathname === '/' ? '' : parsed.pathname.replace(/\/+$/, '')}`;
  } catch {
    return '(invalid url)';
  }
}
