import { loadQdrantClient } from './load-qdrant.js';

export type QdrantPayloadType = 'keyword' | 'integer' | 'float' | 'bool';

export type QdrantCollectionOptions = {
  url: string;
  apiKey?: string;
  collection: string;
  dimensions: number;
  /** Payload keys indexed for filtering, with their types. */
  filterKeys: Readonly<Record<string, QdrantPayloadType>>;
  timeoutMs?: number;
};

type QdrantClient = InstanceType<ReturnType<typeof loadQdrantClient>>;

/** One Qdrant collection: the client, its calls with safe errors, and creation on first use. */
export type QdrantCollection = {
  client: QdrantClient;
  /** Runs one client call; errors name the operation and collection, never the key. */
  call<T>(operation: string, run: () => Promise<T>, signal?: AbortSignal): Promise<T>;
  /** Creates the collection (cosine, `dimensions`) and its payload indexes once; retried after a failure. */
  ensure(): Promise<void>;
  /** Deletes the collection if it exists; the next `ensure` creates it again. */
  drop(): Promise<void>;
};

export function createQdrantCollection(options: QdrantCollectionOptions): QdrantCollection {
  const { collection, dimensions, filterKeys, apiKey } = options;
  // The key goes in as a header rather than `apiKey`: the client prints a warning for an apiKey
  // over http (a local server), and a library must not print.
  const client = new (loadQdrantClient())({
    url: options.url,
    headers: apiKey ? { 'api-key': apiKey } : {},
    checkCompatibility: false,
    timeout: options.timeoutMs ?? 60_000,
  });
  let ready: Promise<void> | undefined;

  async function call<T>(operation: string, run: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    signal?.throwIfAborted();
    try {
      return await run();
    } catch (error) {
      const message = describeError(error);
      const redacted = apiKey && apiKey.length >= 8 ? message.split(apiKey).join('[redacted]') : message;
      throw new Error(
        `Qdrant ${operation} on collection "${collection}" at ${safeUrl(options.url)} failed: ${redacted}`,
      );
    }
  }

  async function createCollection(): Promise<void> {
    const { exists } = await call('collection check', () => client.collectionExists(collection));
    if (!exists) {
      try {
        await call('create collection', () =>
          client.createCollection(collection, { vectors: { size: dimensions, distance: 'Cosine' } }),
        );
      } catch (error) {
        // Another process may have created it first.
        const { exists: nowExists } = await call('collection check', () =>
          client.collectionExists(collection),
        );
        if (!nowExists) throw error;
      }
    }
    const info = await call('read collection', () => client.getCollection(collection));
    const vectors = info.config.params.vectors as { size?: number; distance?: string } | undefined;
    if (vectors?.size !== undefined && vectors.size !== dimensions) {
      throw new Error(
        `Qdrant collection "${collection}" holds ${vectors.size}-dimensional vectors, this index needs ${dimensions}; drop it or use another collection.`,
      );
    }
    for (const [field_name, field_schema] of Object.entries(filterKeys)) {
      await call(`create payload index "${field_name}"`, () =>
        client.createPayloadIndex(collection, { field_name, field_schema, wait: true }),
      );
    }
  }

  function ensureCollection(): Promise<void> {
    ready ??= createCollection().catch((error) => {
      ready = undefined;
      throw error;
    });
    return ready;
  }

  return {
    client,
    call,
    ensure: ensureCollection,
    async drop(): Promise<void> {
      ready = undefined;
      const { exists } = await call('collection check', () => client.collectionExists(collection));
      if (exists) await call('drop collection', () => client.deleteCollection(collection));
    },
  };
}

/** The status and server message of a client error (its `message` alone is often just "Unauthorized"). */
function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const { status, data } = error as Error & { status?: unknown; data?: { status?: { error?: unknown } } };
  const serverMessage = data?.status?.error;
  if (typeof status !== 'number') return error.message;
  return `HTTP ${status} ${error.message}${typeof serverMessage === 'string' ? `: ${serverMessage}` : ''}`;
}

/** The URL without credentials or query (which could hold a key). */
function safeUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}${parsed.pathname === '/' ? '' : parsed.pathname}`;
  } catch {
    return '(invalid url)';
  }
}
