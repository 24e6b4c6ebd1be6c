export type PendingWritesOptions = {
  /** Write once this many new vectors are waiting. */
  flushEvery: number;
  /** ...or this long after the first unwritten vector. */
  flushIntervalMs: number;
  /** Writes one segment of vectors of one size; `raced`: keys left out because another process had written them. */
  write(
    dimensions: number,
    keys: readonly string[],
    vectorOf: (key: string) => Float32Array,
  ): Promise<{ raced: number }>;
};

/**
 * Vectors embedded but not yet in a visible segment, and when to write them: after `flushEvery`
 * vectors, `flushIntervalMs` after the first unwritten one, or on `flush()`. Flushes run one at
 * a time; a failed flush keeps its vectors for the next one.
 */
export function createPendingWrites(options: PendingWritesOptions) {
  const flushEvery = Math.max(1, options.flushEvery);
  /** Embedded here, not yet written (includes a flush in progress). */
  const pending = new Map<string, Float32Array>();
  let unflushed: string[] = [];
  let flushChain: Promise<void> = Promise.resolve();
  let flushTimer: NodeJS.Timeout | undefined;
  let written = 0;
  let raced = 0;

  function add(key: string, vector: Float32Array): void {
    if (pending.has(key)) return;
    pending.set(key, vector.slice());
    unflushed.push(key);
    if (unflushed.length >= flushEvery) schedule(0);
    else if (!flushTimer) schedule(options.flushIntervalMs);
  }

  function schedule(delayMs: number): void {
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
        const outcome = await options.write(dimensions, groupKeys, (key) => pending.get(key)!);
        for (const key of groupKeys) pending.delete(key);
        written += groupKeys.length - outcome.raced;
        raced += outcome.raced;
      }
    } catch (error) {
      unflushed = keys.filter((key) => pending.has(key)).concat(unflushed);
      throw error;
    }
  }

  return {
    add,
    flush,
    get: (key: string) => pending.get(key),
    has: (key: string) => pending.has(key),
    size: () => pending.size,
    /** Vectors written to visible segments so far. */
    written: () => written,
    /** Vectors not written because another process wrote them first (it embedded them at the same time). */
    raced: () => raced,
  };
}
