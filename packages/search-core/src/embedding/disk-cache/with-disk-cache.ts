import { endianness } from 'node:os';
import type { EmbedDocumentsOptions, Embedder, EmbedQueryOptions } from '../embedder.js';
import { embedderFolder } from './cache-folder.js';
import { createPendingWrites } from './pending-writes.js';
import { cacheKey } from './segment-format.js';
import { createSegmentStore } from './segment-store.js';

/*
 * Vectors persist below `<dir>/embeddings/<embedder folder>/` in immutable, checksummed segments
 * (see segment-format.ts); each flush writes a new segment atomically, so any number of processes
 * can share the folder. A corrupt segment is set aside and its texts are embedded again.
 */

export type DiskCacheOptions = {
  /** Cache root (the CLI uses `.lme-cache/` or `LME_CACHE_DIR`); vectors go to `<dir>/embeddings/`. */
  dir: string;
  /** Write a segment once this many new vectors are waiting. Default 2048. */
  flushEvery?: number;
  /** ...or this long after the first unwritten vector. Default 10 s. */
  flushIntervalMs?: number;
  /** Told about corrupt segments set aside and legacy segments skipped (the cache never prints). */
  onWarning?: (message: string) => void;
};

export type EmbeddingCacheStats = {
  /** Texts answered without calling the wrapped embedder (disk, this process, or a duplicate). */
  hits: number;
  /** Distinct texts sent to the wrapped embedder. */
  misses: number;
  /** Vectors written to visible segments by this instance. */
  written: number;
  /** Vectors embedded but not yet written. */
  pending: number;
  /** Segments this instance found corrupt and set aside (their texts were embedded again). */
  corrupt: number;
  /** Legacy (LMEVSEG1) segments skipped: not read until `lme cache upgrade` converts them. */
  legacy: number;
  /** Texts the wrapped embedder cut at its model's token limit (ONNX embedders; 0 for others). */
  truncated: number;
};

/** An embedder with the same id whose vectors persist in a disk cache. */
export type CachedEmbedder = Embedder & {
  stats(): EmbeddingCacheStats;
  /** How many of these distinct texts are cached already (for dry runs); embeds nothing. */
  countCached(options: { texts: readonly string[]; kind?: 'document' | 'query' }): Promise<number>;
  /** Writes pending vectors now. */
  flush(): Promise<void>;
  /** Flushes, then closes the wrapped embedder. Safe to call twice. */
  close(): Promise<void>;
};

const DEFAULT_FLUSH_EVERY = 2048;
const DEFAULT_FLUSH_INTERVAL_MS = 10_000;

type Embed = (texts: string[], onProgress: ((done: number) => void) | undefined) => Promise<Float32Array[]>;

export function withDiskCache(embedder: Embedder, options: DiskCacheOptions): CachedEmbedder {
  if (endianness() !== 'LE') throw new Error('The embedding cache supports little-endian machines only.');
  // Vectors are stored under the model's identity (its id for embedders whose id pins the model).
  const identity = embedder.cacheIdentity ?? embedder.id;
  const store = createSegmentStore({
    folder: embedderFolder(options.dir, identity),
    embedderId: identity,
    onWarning: options.onWarning,
  });
  const pending = createPendingWrites({
    flushEvery: options.flushEvery ?? DEFAULT_FLUSH_EVERY,
    flushIntervalMs: options.flushIntervalMs ?? DEFAULT_FLUSH_INTERVAL_MS,
    write: store.write,
  });
  const inflight = new Map<string, Promise<Float32Array>>();
  const counters = { hits: 0, misses: 0 };
  let loaded: Promise<void> | undefined;
  let cachedDimensions = 0;
  let closed = false;

  const keyOf = (text: string, kind: 'document' | 'query') => cacheKey(identity, text, kind);

  function ensureLoaded(): Promise<void> {
    loaded ??= store.refresh().catch((error) => {
      loaded = undefined;
      throw error;
    });
    return loaded;
  }

  function expectedDimensions(): number {
    return embedder.dimensions || cachedDimensions;
  }

  function remember(key: string, vector: Float32Array): void {
    if (!store.locate(key, expectedDimensions())) pending.add(key, vector);
  }

  /** Embeds `missing` keys with the wrapped embedder; caches them only if the answer is sound. */
  async function embedMissing(
    missing: readonly string[],
    textOf: (key: string) => string,
    embed: Embed,
    onProgress: ((done: number) => void) | undefined,
    found: Map<string, Float32Array>,
    owned: Set<string>,
  ): Promise<void> {
    const missingTexts = missing.map(textOf);
    const settled = embed(missingTexts, onProgress).then((vectors) => validate(vectors, missingTexts.length));
    missing.forEach((key, at) => {
      const promise = settled.then((vectors) => vectors[at]!);
      promise.catch(() => {});
      inflight.set(key, promise);
    });
    try {
      const vectors = await settled;
      missing.forEach((key, at) => {
        const vector = vectors[at]!;
        found.set(key, vector);
        owned.add(key);
        remember(key, vector);
      });
    } finally {
      for (const key of missing) inflight.delete(key);
    }
  }

  async function resolveAll(
    keys: readonly string[],
    texts: readonly string[],
    signal: AbortSignal | undefined,
    onProgress: ((done: number) => void) | undefined,
    embed: Embed,
  ): Promise<Float32Array[]> {
    if (closed) throw new Error(`The disk cache of ${embedder.id} is closed.`);
    signal?.throwIfAborted();
    await ensureLoaded();
    const positions = new Map<string, number[]>();
    keys.forEach((key, position) => {
      const list = positions.get(key);
      if (list) list.push(position);
      else positions.set(key, [position]);
    });
    const textOf = (key: string) => texts[positions.get(key)![0]!]!;
    const unique = [...positions.keys()];
    /** Vectors found so far; those in `owned` are fresh arrays nobody else holds. */
    const found = new Map<string, Float32Array>();
    const owned = new Set<string>();
    for (const key of unique) {
      const vector = pending.get(key);
      if (vector) found.set(key, vector);
    }
    const onDisk = () => unique.filter((key) => !found.has(key) && store.locate(key, expectedDimensions()));
    let stored = onDisk();
    if (found.size + stored.length < unique.length) {
      await store.refresh(); // another process may have written them meanwhile
      stored = onDisk();
    }
    for (const [key, vector] of await store.readVectors(stored, expectedDimensions())) {
      cachedDimensions ||= vector.length;
      found.set(key, vector);
      owned.add(key);
      // Verified, but its segment was set aside meanwhile (another record was corrupt): keep it.
      remember(key, vector);
    }

    const waits: [string, Promise<Float32Array>][] = [];
    const missing: string[] = [];
    for (const key of unique) {
      if (found.has(key)) continue;
      const shared = inflight.get(key);
      if (shared) waits.push([key, shared]);
      else missing.push(key);
    }
    counters.misses += missing.length;
    counters.hits += keys.length - missing.length;
    const ready = keys.length - missing.reduce((sum, key) => sum + positions.get(key)!.length, 0);
    if (missing.length > 0) {
      if (ready > 0) onProgress?.(ready);
      await embedMissing(missing, textOf, embed, (done) => onProgress?.(ready + done), found, owned);
    }
    // Texts another call is embedding right now; if that call fails (say it was aborted), embed them here.
    const orphans: string[] = [];
    for (const [key, promise] of waits) {
      try {
        found.set(key, await promise);
      } catch {
        orphans.push(key);
      }
    }
    if (orphans.length > 0) {
      signal?.throwIfAborted();
      counters.misses += orphans.length;
      counters.hits -= orphans.length;
      await embedMissing(orphans, textOf, embed, undefined, found, owned);
    }

    const result = new Array<Float32Array>(keys.length);
    for (const [key, list] of positions) {
      const vector = found.get(key)!;
      list.forEach((position, nth) => {
        // Callers own what they get: no two positions share an array, nor share one with the cache.
        result[position] = nth === 0 && owned.has(key) ? vector : vector.slice();
      });
    }
    onProgress?.(keys.length);
    return result;
  }

  function validate(vectors: unknown, expected: number): Float32Array[] {
    const fail = (problem: string): never => {
      throw new Error(`${embedder.id} returned unusable vectors (${problem}); nothing was cached.`);
    };
    if (!Array.isArray(vectors)) return fail('not an array');
    if (vectors.length !== expected) fail(`${vectors.length} vectors for ${expected} texts`);
    const size = expectedDimensions() || (vectors[0] as Float32Array | undefined)?.length || 0;
    vectors.forEach((vector: unknown, at) => {
      if (!(vector instanceof Float32Array)) {
        fail(`vector ${at} is not a Float32Array`);
        return;
      }
      if (vector.length !== size || size === 0)
        fail(`vector ${at} has ${vector.length} dimensions, expected ${size}`);
      for (const value of vector) if (!Number.isFinite(value)) fail(`vector ${at} holds ${value}`);
    });
    return vectors as Float32Array[];
  }

  return {
    id: embedder.id,
    cacheIdentity: identity,
    get dimensions() {
      return expectedDimensions();
    },

    embedDocuments({ texts, signal, onProgress }: EmbedDocumentsOptions): Promise<Float32Array[]> {
      if (texts.length === 0) return Promise.resolve([]);
      const keys = texts.map((text) => keyOf(text, 'document'));
      return resolveAll(keys, texts, signal, onProgress, (missingTexts, onInnerProgress) =>
        embedder.embedDocuments({ texts: missingTexts, signal, onProgress: onInnerProgress }),
      );
    },

    async embedQuery({ text, signal }: EmbedQueryOptions): Promise<Float32Array> {
      const [vector] = await resolveAll(
        [keyOf(text, 'query')],
        [text],
        signal,
        undefined,
        async ([query]) => [await embedder.embedQuery({ text: query!, signal })],
      );
      return vector!;
    },

    stats(): EmbeddingCacheStats {
      const truncated = embedder.truncated?.() ?? 0;
      return {
        ...counters,
        written: pending.written(),
        pending: pending.size(),
        ...store.counters(),
        truncated,
      };
    },

    async countCached({ texts, kind = 'document' }) {
      await ensureLoaded();
      let cached = 0;
      for (const text of new Set(texts)) {
        const key = keyOf(text, kind);
        if (store.has(key) || pending.has(key)) cached++;
      }
      return cached;
    },

    flush: () => pending.flush(),

    async close(): Promise<void> {
      if (closed) return;
      closed = true;
      try {
        await pending.flush();
      } finally {
        await embedder.close?.();
      }
    },
  };
}
