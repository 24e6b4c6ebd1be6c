import type { createPendingWrites } from './pending-writes.js';
import type { SegmentStore } from './segment-store.js';

type PendingWrites = ReturnType<typeof createPendingWrites>;

/**
 * What one embedder's disk cache holds: vectors embedded here and not yet written (pending), then
 * verified vectors of the visible segments (refreshed once when some are missing: another process
 * may have written them meanwhile). Learns the vector size from the first vector read when the
 * embedder does not declare one.
 */
export function createCachedVectors(options: {
  store: SegmentStore;
  pending: PendingWrites;
  /** The embedder's declared size (0 until known). */
  modelDimensions: () => number;
}) {
  const { store, pending } = options;
  let loaded: Promise<void> | undefined;
  let cachedDimensions = 0;

  const dimensions = () => options.modelDimensions() || cachedDimensions;

  function ensureLoaded(): Promise<void> {
    loaded ??= store.refresh().catch((error) => {
      loaded = undefined;
      throw error;
    });
    return loaded;
  }

  /** Queues a vector for writing unless a visible segment holds it already; says whether it queued it. */
  function remember(key: string, vector: Float32Array): boolean {
    if (store.locate(key, dimensions())) return false;
    pending.add(key, vector);
    return true;
  }

  /**
   * The vectors held for these distinct keys; those in `owned` are fresh arrays nobody else holds
   * (read from disk), the others are pending vectors the caller must copy.
   */
  async function lookup(unique: readonly string[]): Promise<{
    found: Map<string, Float32Array>;
    owned: Set<string>;
  }> {
    await ensureLoaded();
    const found = new Map<string, Float32Array>();
    const owned = new Set<string>();
    for (const key of unique) {
      const vector = pending.get(key);
      if (vector) found.set(key, vector);
    }
    const onDisk = () => unique.filter((key) => !found.has(key) && store.locate(key, dimensions()));
    let stored = onDisk();
    if (found.size + stored.length < unique.length) {
      await store.refresh(); // another process may have written them meanwhile
      stored = onDisk();
    }
    for (const [key, vector] of await store.readVectors(stored, dimensions())) {
      cachedDimensions ||= vector.length;
      found.set(key, vector);
      owned.add(key);
      // Verified, but its segment was set aside meanwhile (another record was corrupt): keep it.
      remember(key, vector);
    }
    return { found, owned };
  }

  return {
    dimensions,
    ensureLoaded,
    remember,
    lookup,
    has: (key: string) => store.has(key) || pending.has(key),
  };
}
