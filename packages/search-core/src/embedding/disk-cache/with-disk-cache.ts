import { endianness } from 'node:os';
import {
  cacheIdentityOf,
  type EmbedDocumentsOptions,
  type Embedder,
  type EmbedQueryOptions,
} from '../embedder.js';
import { embedderFolder } from './cache-folder.js';
import { createCachedVectors } from './cached-vectors.js';
import { createInflightEmbeddings } from './inflight-embeddings.js';
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
  /**
   * Texts this instance embedded that another process embedded at the same time and wrote first
   * (found under the folder's write lock and not written again): the only way a text is embedded
   * twice in a shared cache.
   */
  raced: number;
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
  /** Which of these texts are cached already; embeds nothing. */
  cachedTexts(options: { texts: readonly string[]; kind?: 'document' | 'query' }): Promise<Set<string>>;
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
  const identity = cacheIdentityOf(embedder);
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
  const cached = createCachedVectors({ store, pending, modelDimensions: () => embedder.dimensions });
  const expectedDimensions = cached.dimensions;
  const inflight = createInflightEmbeddings();
  /** `raced`: texts embedded here that a segment of another process held by the time they came back. */
  const counters = { hits: 0, misses: 0, raced: 0 };
  let closed = false;

  const keyOf = (text: string, kind: 'document' | 'query') => cacheKey(identity, text, kind);

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
    const vectors = await inflight.share(
      missing,
      embed(missingTexts, onProgress).then((answer) =>
        checkVectors(answer, missingTexts.length, embedder.id, expectedDimensions()),
      ),
    );
    missing.forEach((key, at) => {
      found.set(key, vectors[at]!);
      owned.add(key);
      if (!cached.remember(key, vectors[at]!)) counters.raced += 1;
    });
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
    const positions = positionsOf(keys);
    const textOf = (key: string) => texts[positions.get(key)![0]!]!;
    const unique = [...positions.keys()];
    const { found, owned } = await cached.lookup(unique);
    const waits: [string, Promise<Float32Array>][] = [];
    const missing: string[] = [];
    for (const key of unique) {
      const shared = found.has(key) ? undefined : inflight.get(key);
      if (shared) waits.push([key, shared]);
      else if (!found.has(key)) missing.push(key);
    }
    counters.misses += missing.length;
    counters.hits += keys.length - missing.length;
    const ready = keys.length - missing.reduce((sum, key) => sum + positions.get(key)!.length, 0);
    if (missing.length > 0) {
      if (ready > 0) onProgress?.(ready);
      await embedMissing(missing, textOf, embed, (done) => onProgress?.(ready + done), found, owned);
    }
    // Texts another call is embedding right now; if that call fails (say it was aborted), embed them here.
    const orphans = await inflight.waitFor(waits, found);
    if (orphans.length > 0) {
      signal?.throwIfAborted();
      counters.misses += orphans.length;
      counters.hits -= orphans.length;
      await embedMissing(orphans, textOf, embed, undefined, found, owned);
    }

    onProgress?.(keys.length);
    return placeVectors(positions, found, owned, keys.length);
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
        // Seen when the vectors came back (another process wrote them meanwhile) or when writing.
        raced: counters.raced + pending.raced(),
        ...store.counters(),
        truncated,
      };
    },

    async cachedTexts({ texts, kind = 'document' }) {
      await cached.ensureLoaded();
      return new Set(texts.filter((text) => cached.has(keyOf(text, kind))));
    },

    async countCached(options) {
      return (await this.cachedTexts(options)).size;
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

/** Each distinct key and the positions it holds in `keys`, in first-seen order. */
function positionsOf(keys: readonly string[]): Map<string, number[]> {
  const positions = new Map<string, number[]>();
  keys.forEach((key, position) => {
    const list = positions.get(key);
    if (list) list.push(position);
    else positions.set(key, [position]);
  });
  return positions;
}

/**
 * The answer in the callers' order. Callers own what they get: no two positions share an array,
 * nor share one with the cache (only a fresh `owned` vector is handed out as it is, once).
 */
function placeVectors(
  positions: ReadonlyMap<string, readonly number[]>,
  found: ReadonlyMap<string, Float32Array>,
  owned: ReadonlySet<string>,
  length: number,
): Float32Array[] {
  const result = new Array<Float32Array>(length);
  for (const [key, list] of positions) {
    const vector = found.get(key)!;
    list.forEach((position, nth) => {
      result[position] = nth === 0 && owned.has(key) ? vector : vector.slice();
    });
  }
  return result;
}

/**
 * The wrapped embedder's answer, checked before anything is cached: an array of `expected`
 * Float32Arrays of one size (the declared one, else the first vector's), every value finite.
 */
function checkVectors(
  vectors: unknown,
  expected: number,
  embedderId: string,
  dimensions: number,
): Float32Array[] {
  const fail = (problem: string): never => {
    throw new Error(`${embedderId} returned unusable vectors (${problem}); nothing was cached.`);
  };
  if (!Array.isArray(vectors)) return fail('not an array');
  if (vectors.length !== expected) fail(`${vectors.length} vectors for ${expected} texts`);
  const size = dimensions || (vectors[0] as Float32Array | undefined)?.length || 0;
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
