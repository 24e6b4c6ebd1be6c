/**
 * Texts being embedded right now, by cache key, so a concurrent call for the same text waits for
 * that answer instead of embedding it twice; a key is shared only while its embedding runs.
 */
export function createInflightEmbeddings() {
  const inflight = new Map<string, Promise<Float32Array>>();

  return {
    /** The embedding of a key running now, if any (taken before awaiting anything: it ends). */
    get: (key: string) => inflight.get(key),

    /** Awaits `settled` (the vectors of `keys`, in order), sharing each key while it runs. */
    async share(keys: readonly string[], settled: Promise<Float32Array[]>): Promise<Float32Array[]> {
      keys.forEach((key, at) => {
        const promise = settled.then((vectors) => vectors[at]!);
        promise.catch(() => {});
        inflight.set(key, promise);
      });
      try {
        return await settled;
      } finally {
        for (const key of keys) inflight.delete(key);
      }
    },

    /**
     * Waits for keys another call is embedding (as `get` gave them), into `found`; returns those whose call failed (it
     * was aborted, say), for the caller to embed itself.
     */
    async waitFor(
      shared: readonly (readonly [string, Promise<Float32Array>])[],
      found: Map<string, Float32Array>,
    ): Promise<string[]> {
      const orphans: string[] = [];
      for (const [key, promise] of shared) {
        try {
          found.set(key, await promise);
        } catch {
          orphans.push(key);
        }
      }
      return orphans;
    },
  };
}
