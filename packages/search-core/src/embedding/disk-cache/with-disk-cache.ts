import { createHash, randomBytes } from 'node:crypto';
import { mkdir, open, readdir, rename, rm, stat, unlink } from 'node:fs/promises';
import { endianness } from 'node:os';
import { join } from 'node:path';
import type { EmbedDocumentsOptions, Embedder, EmbedQueryOptions } from '../embedder.js';

/*
 * On-disk layout, below `<dir>/embeddings/<embedder slug>/` (one folder per embedder id):
 *
 *   seg-<time>-<pid>-<random>.lmev   a complete, immutable segment (visible to every reader)
 *   .tmp-<time>-<pid>-<random>.lmev  a segment being written (ignored by readers)
 *
 * Each flush writes all of its vectors to a new temp file, fsyncs it and renames it to its
 * `seg-` name, so a segment becomes visible whole or not at all, and concurrent processes never
 * write the same file. Segment format, little-endian:
 *
 *   "LMEVSEG1" | u32 dimensions | u32 count | u32 id byte length | embedder id (UTF-8), padded to 4
 *   | count × 32-byte key | count × dimensions × f32 vector
 *
 * Keys come first so that loading the index reads only the keys; vectors are read on a hit.
 * A key is sha256(embedder id + NUL + text) (queries: sha256(id + NUL + "query" + NUL + text)).
 */

export type DiskCacheOptions = {
  /** Cache root (the CLI uses `.lme-cache/` or `LME_CACHE_DIR`); vectors go to `<dir>/embeddings/`. */
  dir: string;
  /** Write a segment once this many new vectors are waiting. Default 2048. */
  flushEvery?: number;
  /** ...or this long after the first unwritten vector. Default 10 s. */
  flushIntervalMs?: number;
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

export type EmbeddingCacheEntry = {
  embedderId: string;
  dimensions: number;
  /** Stored records (a text embedded by two concurrent runs counts twice). */
  vectors: number;
  segments: number;
  bytes: number;
};

export type EmbeddingCacheSummary = {
  dir: string;
  embedders: EmbeddingCacheEntry[];
  vectors: number;
  bytes: number;
  /** Leftovers of interrupted writes (ignored by readers, removed by clear). */
  tempFiles: number;
  /** Segments that failed validation (ignored by readers, removed by clear). */
  invalidFiles: number;
  /** Bytes of temp and invalid files. */
  wastedBytes: number;
};

const MAGIC = Buffer.from('LMEVSEG1', 'latin1');
const KEY_BYTES = 32;
const FIXED_HEADER_BYTES = 20;
const DEFAULT_FLUSH_EVERY = 2048;
const DEFAULT_FLUSH_INTERVAL_MS = 10_000;
/** Records read in one go when hits lie this close together in a segment. */
const READ_GAP_RECORDS = 16;
const SLOT_RANGE = 2 ** 32;

type Segment = {
  path: string;
  dimensions: number;
  count: number;
  vectorsOffset: number;
  /** Set when the file vanished (e.g. `lme cache clear` while running): its keys become misses. */
  gone: boolean;
};

type Embed = (texts: string[], onProgress: ((done: number) => void) | undefined) => Promise<Float32Array[]>;

type SegmentHeader = { embedderId: string; dimensions: number; count: number; headerBytes: number };

export function withDiskCache(embedder: Embedder, options: DiskCacheOptions): CachedEmbedder {
  if (endianness() !== 'LE') throw new Error('The embedding cache supports little-endian machines only.');
  const folder = embedderFolder(options.dir, embedder.id);
  const flushEvery = Math.max(1, options.flushEvery ?? DEFAULT_FLUSH_EVERY);
  const flushIntervalMs = options.flushIntervalMs ?? DEFAULT_FLUSH_INTERVAL_MS;

  const segments: Segment[] = [];
  const knownFiles = new Set<string>();
  /** key (32 latin1 chars) -> segment number × 2^32 + slot */
  const index = new Map<string, number>();
  /** Embedded here, not yet in a visible segment (includes a flush in progress). */
  const pending = new Map<string, Float32Array>();
  let unflushed: string[] = [];
  const inflight = new Map<string, Promise<Float32Array>>();
  const counters = { hits: 0, misses: 0, written: 0 };
  let loaded: Promise<void> | undefined;
  let flushChain: Promise<void> = Promise.resolve();
  let flushTimer: NodeJS.Timeout | undefined;
  let cachedDimensions = 0;
  let closed = false;

  function keyOf(text: string, kind: 'document' | 'query'): string {
    const hash = createHash('sha256').update(embedder.id).update('\0');
    if (kind === 'query') hash.update('query\0');
    return hash.update(text).digest('binary'); // 'binary' is latin1: 32 one-byte chars
  }

  /** Loads segments not seen yet (written by other processes since the last look). */
  async function refresh(): Promise<void> {
    let names: string[];
    try {
      names = await readdir(folder);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    for (const name of names.sort()) {
      if (!isSegmentName(name) || knownFiles.has(name)) continue;
      knownFiles.add(name);
      const path = join(folder, name);
      const inspected = await inspectSegment(path, true).catch(ignoreMissing);
      if (!inspected || inspected.header.embedderId !== embedder.id) continue;
      const { header, keys } = inspected;
      const segmentNumber = segments.length;
      segments.push({
        path,
        dimensions: header.dimensions,
        count: header.count,
        vectorsOffset: header.headerBytes + header.count * KEY_BYTES,
        gone: false,
      });
      for (let slot = 0; slot < header.count; slot++) {
        const start = slot * KEY_BYTES;
        index.set(keys!.toString('latin1', start, start + KEY_BYTES), segmentNumber * SLOT_RANGE + slot);
      }
    }
  }

  function ensureLoaded(): Promise<void> {
    loaded ??= refresh().catch((error) => {
      loaded = undefined;
      throw error;
    });
    return loaded;
  }

  function expectedDimensions(): number {
    return embedder.dimensions || cachedDimensions;
  }

  /** The disk location of a key, if present with the right size. */
  function locate(key: string): { segment: Segment; slot: number } | undefined {
    const location = index.get(key);
    if (location === undefined) return undefined;
    const segment = segments[Math.floor(location / SLOT_RANGE)]!;
    const expected = expectedDimensions();
    if (segment.gone || (expected > 0 && segment.dimensions !== expected)) return undefined;
    return { segment, slot: location % SLOT_RANGE };
  }

  /** Reads the vectors of located keys; keys whose segment vanished are left out. */
  async function readVectors(keys: readonly string[]): Promise<Map<string, Float32Array>> {
    const found = new Map<string, Float32Array>();
    const bySegment = new Map<Segment, { key: string; slot: number }[]>();
    for (const key of keys) {
      const location = locate(key);
      if (!location) continue;
      const list = bySegment.get(location.segment);
      if (list) list.push({ key, slot: location.slot });
      else bySegment.set(location.segment, [{ key, slot: location.slot }]);
    }
    for (const [segment, list] of bySegment) {
      list.sort((a, b) => a.slot - b.slot);
      const recordBytes = segment.dimensions * 4;
      let handle: Awaited<ReturnType<typeof open>>;
      try {
        handle = await open(segment.path, 'r');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
        segment.gone = true;
        continue;
      }
      try {
        for (let start = 0; start < list.length; ) {
          let end = start + 1;
          while (end < list.length && list[end]!.slot - list[end - 1]!.slot <= READ_GAP_RECORDS) end++;
          const firstSlot = list[start]!.slot;
          const length = (list[end - 1]!.slot - firstSlot + 1) * recordBytes;
          const buffer = Buffer.allocUnsafe(length);
          const { bytesRead } = await handle.read(
            buffer,
            0,
            length,
            segment.vectorsOffset + firstSlot * recordBytes,
          );
          if (bytesRead !== length) {
            // Damaged after it was loaded: forget it, its texts are embedded again.
            segment.gone = true;
            for (const { key } of list) found.delete(key);
            break;
          }
          for (let at = start; at < end; at++) {
            const { key, slot } = list[at]!;
            const vector = new Float32Array(segment.dimensions);
            const offset = (slot - firstSlot) * recordBytes;
            buffer.copy(Buffer.from(vector.buffer), 0, offset, offset + recordBytes);
            found.set(key, vector);
          }
          start = end;
        }
      } finally {
        await handle.close();
      }
      if (!segment.gone) cachedDimensions ||= segment.dimensions;
    }
    return found;
  }

  function remember(key: string, vector: Float32Array): void {
    if (pending.has(key) || locate(key)) return;
    pending.set(key, vector.slice());
    unflushed.push(key);
    if (unflushed.length >= flushEvery) scheduleFlush(0);
    else if (!flushTimer) scheduleFlush(flushIntervalMs);
  }

  function scheduleFlush(delayMs: number): void {
    if (flushTimer) clearTimeout(flushTimer);
    flushTimer = setTimeout(() => {
      flushTimer = undefined;
      // A failed flush keeps its vectors for the next one (and close() reports the failure).
      flush().catch(() => {});
    }, delayMs);
    flushTimer.unref();
  }

  function flush(): Promise<void> {
    if (flushTimer) {
      clearTimeout(flushTimer);
      flushTimer = undefined;
    }
    flushChain = flushChain.then(writeUnflushed, writeUnflushed);
    return flushChain;
  }

  async function writeUnflushed(): Promise<void> {
    if (unflushed.length === 0) return;
    const keys = unflushed;
    unflushed = [];
    // One segment per vector size (a single size in practice).
    const groups = new Map<number, string[]>();
    for (const key of keys) {
      const size = pending.get(key)!.length;
      const group = groups.get(size);
      if (group) group.push(key);
      else groups.set(size, [key]);
    }
    try {
      for (const [dimensions, groupKeys] of groups) {
        const name = await writeSegment(folder, embedder.id, dimensions, groupKeys, pending);
        knownFiles.add(name);
        const segmentNumber = segments.length;
        const headerBytes = headerSize(embedder.id);
        segments.push({
          path: join(folder, name),
          dimensions,
          count: groupKeys.length,
          vectorsOffset: headerBytes + groupKeys.length * KEY_BYTES,
          gone: false,
        });
        groupKeys.forEach((key, slot) => {
          index.set(key, segmentNumber * SLOT_RANGE + slot);
          pending.delete(key);
        });
        counters.written += groupKeys.length;
      }
    } catch (error) {
      // Keep what was not written for the next flush.
      unflushed = keys.filter((key) => pending.has(key)).concat(unflushed);
      throw error;
    }
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
    const onDisk = () => unique.filter((key) => !found.has(key) && locate(key));
    let stored = onDisk();
    if (found.size + stored.length < unique.length) {
      await refresh(); // another process may have written them meanwhile
      stored = onDisk();
    }
    for (const [key, vector] of await readVectors(stored)) {
      found.set(key, vector);
      owned.add(key);
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
      return { ...counters, pending: pending.size };
    },

    async countCached({ texts, kind = 'document' }) {
      await ensureLoaded();
      let cached = 0;
      for (const text of new Set(texts)) {
        const key = keyOf(text, kind);
        if (index.has(key) || pending.has(key)) cached++;
      }
      return cached;
    },

    flush,

    async close(): Promise<void> {
      if (closed) return;
      closed = true;
      try {
        await flush();
      } finally {
        await embedder.close?.();
      }
    },
  };
}

/** What `lme cache stats` shows: stored vectors and bytes per embedder id. */
export async function readEmbeddingCacheStats(options: { dir: string }): Promise<EmbeddingCacheSummary> {
  const root = join(options.dir, 'embeddings');
  const summary: EmbeddingCacheSummary = {
    dir: root,
    embedders: [],
    vectors: 0,
    bytes: 0,
    tempFiles: 0,
    invalidFiles: 0,
    wastedBytes: 0,
  };
  const byId = new Map<string, EmbeddingCacheEntry>();
  for (const folder of await listDirectory(root)) {
    const folderPath = join(root, folder);
    for (const name of await listDirectory(folderPath)) {
      const path = join(folderPath, name);
      const size = (await stat(path).catch(ignoreMissing))?.size;
      if (size === undefined) continue; // renamed or removed meanwhile
      if (name.startsWith('.tmp-')) {
        summary.tempFiles += 1;
        summary.wastedBytes += size;
        continue;
      }
      if (!isSegmentName(name)) continue;
      const inspected = await inspectSegment(path, false).catch(ignoreMissing);
      if (inspected === null) continue;
      const header = inspected?.header;
      if (!header) {
        summary.invalidFiles += 1;
        summary.wastedBytes += size;
        continue;
      }
      let entry = byId.get(header.embedderId);
      if (!entry) {
        entry = {
          embedderId: header.embedderId,
          dimensions: header.dimensions,
          vectors: 0,
          segments: 0,
          bytes: 0,
        };
        byId.set(header.embedderId, entry);
      }
      entry.vectors += header.count;
      entry.segments += 1;
      entry.bytes += size;
      summary.vectors += header.count;
      summary.bytes += size;
    }
  }
  summary.embedders = [...byId.values()].sort((a, b) => a.embedderId.localeCompare(b.embedderId));
  return summary;
}

/**
 * What `lme cache clear` does: removes the cached vectors of one embedder id, or of all.
 * Runs still using the cache treat vanished vectors as misses.
 */
export async function clearEmbeddingCache(options: {
  dir: string;
  embedderId?: string;
}): Promise<{ files: number; bytes: number }> {
  const root = join(options.dir, 'embeddings');
  const folders =
    options.embedderId === undefined ? await listDirectory(root) : [folderName(options.embedderId)];
  let files = 0;
  let bytes = 0;
  for (const folder of folders) {
    const folderPath = join(root, folder);
    for (const name of await listDirectory(folderPath)) {
      try {
        bytes += (await stat(join(folderPath, name))).size;
        files += 1;
      } catch {
        // removed meanwhile
      }
    }
    await rm(folderPath, { recursive: true, force: true });
  }
  if (options.embedderId === undefined) await rm(root, { recursive: true, force: true });
  return { files, bytes };
}

function embedderFolder(dir: string, embedderId: string): string {
  return join(dir, 'embeddings', folderName(embedderId));
}

/** A readable, filesystem-safe folder name that cannot collide for two ids. */
function folderName(embedderId: string): string {
  const readable = embedderId.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 80);
  const digest = createHash('sha256').update(embedderId).digest('hex').slice(0, 12);
  return `${readable}-${digest}`;
}

/** For `.catch`: null when the file is gone (another process renamed or removed it), else rethrow. */
function ignoreMissing(error: unknown): null {
  if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
  throw error;
}

function isSegmentName(name: string): boolean {
  return name.startsWith('seg-') && name.endsWith('.lmev');
}

async function listDirectory(path: string): Promise<string[]> {
  try {
    return await readdir(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

function headerSize(embedderId: string): number {
  const raw = FIXED_HEADER_BYTES + Buffer.byteLength(embedderId, 'utf8');
  return Math.ceil(raw / 4) * 4;
}

/**
 * The header (and, if asked, the key block) of a complete segment; undefined for anything else:
 * wrong magic, or a size that does not match the header (torn). Throws ENOENT if it vanished.
 */
async function inspectSegment(
  path: string,
  withKeys: boolean,
): Promise<{ header: SegmentHeader; keys?: Buffer } | undefined> {
  const handle = await open(path, 'r');
  try {
    const { size } = await handle.stat();
    const fixed = Buffer.alloc(FIXED_HEADER_BYTES);
    if ((await handle.read(fixed, 0, FIXED_HEADER_BYTES, 0)).bytesRead < FIXED_HEADER_BYTES) return undefined;
    if (!fixed.subarray(0, MAGIC.length).equals(MAGIC)) return undefined;
    const dimensions = fixed.readUInt32LE(8);
    const count = fixed.readUInt32LE(12);
    const idBytes = fixed.readUInt32LE(16);
    const headerBytes = Math.ceil((FIXED_HEADER_BYTES + idBytes) / 4) * 4;
    if (dimensions === 0 || size !== headerBytes + count * (KEY_BYTES + dimensions * 4)) return undefined;
    const id = Buffer.alloc(idBytes);
    await handle.read(id, 0, idBytes, FIXED_HEADER_BYTES);
    const header = { embedderId: id.toString('utf8'), dimensions, count, headerBytes };
    if (!withKeys) return { header };
    const keys = Buffer.alloc(count * KEY_BYTES);
    await handle.read(keys, 0, keys.length, headerBytes);
    return { header, keys };
  } finally {
    await handle.close();
  }
}

/** Writes a segment under a temp name, syncs it and renames it into view; returns its name. */
async function writeSegment(
  folder: string,
  embedderId: string,
  dimensions: number,
  keys: readonly string[],
  vectors: ReadonlyMap<string, Float32Array>,
): Promise<string> {
  await mkdir(folder, { recursive: true });
  const idBytes = Buffer.from(embedderId, 'utf8');
  const headerBytes = headerSize(embedderId);
  const file = Buffer.alloc(headerBytes + keys.length * (KEY_BYTES + dimensions * 4));
  MAGIC.copy(file, 0);
  file.writeUInt32LE(dimensions, 8);
  file.writeUInt32LE(keys.length, 12);
  file.writeUInt32LE(idBytes.length, 16);
  idBytes.copy(file, FIXED_HEADER_BYTES);
  const vectorsOffset = headerBytes + keys.length * KEY_BYTES;
  keys.forEach((key, slot) => {
    file.write(key, headerBytes + slot * KEY_BYTES, KEY_BYTES, 'latin1');
    const vector = vectors.get(key)!;
    Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength).copy(
      file,
      vectorsOffset + slot * dimensions * 4,
    );
  });
  const unique = `${Date.now().toString(36).padStart(9, '0')}-${process.pid}-${randomBytes(6).toString('hex')}`;
  const tempPath = join(folder, `.tmp-${unique}.lmev`);
  const name = `seg-${unique}.lmev`;
  const handle = await open(tempPath, 'wx');
  try {
    await handle.writeFile(file);
    await handle.sync();
  } catch (error) {
    await handle.close().catch(() => {});
    await unlink(tempPath).catch(() => {});
    throw error;
  }
  await handle.close();
  await rename(tempPath, join(folder, name));
  return name;
}
