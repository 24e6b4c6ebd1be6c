import type { ExternalIngestResult } from './external-memory.js';

/** What one question is charged for the ingest of its haystack. */
export type IngestCharge = {
  /** Wall time of reset and ingest; 0 when another question's ingest served it (`shared`). */
  ms: number;
  /** The namespace was ingested for an earlier question and searched again. */
  shared: boolean;
  /** Tokens and cost the system reported for the ingest (charged with `ms`). */
  usage?: ExternalIngestResult['usage'];
};

/** A namespace holding one haystack, and the questions still to search it. */
export type HaystackNamespace = {
  namespace: string;
  /** Opaque session id of each haystack session, by position. */
  sessionIds: string[];
  /** Haystack position of each opaque session id. */
  positions: Map<string, number>;
};

type Entry = HaystackNamespace & {
  ingest?: Promise<{ ms: number; usage?: ExternalIngestResult['usage'] }>;
  charged: boolean;
  /** An ingest completed: there is something to free (a failed first request left nothing to). */
  ingested: boolean;
  remaining: number;
};

/**
 * The namespaces of a run, one per distinct haystack key: created on first use, ingested once
 * (questions arriving while it is ingested wait for it), and freed by `free` after the last
 * question `plan` counted for the key. A key no plan counted is freed after its one question. A
 * failed ingest is not kept: the next question of the key ingests again (a namespace never
 * ingested is not freed: its first request failed).
 */
export function createSharedNamespaces<Haystack extends { length: number }>(options: {
  /** A new namespace and session ids for a haystack of `sessions` sessions. */
  create(sessions: number): HaystackNamespace;
  /** Resets and ingests the namespace; resolves with the ingest's wall time and usage. */
  ingest(
    entry: HaystackNamespace,
    haystack: Haystack,
    signal: AbortSignal | undefined,
  ): Promise<{ ms: number; usage?: ExternalIngestResult['usage'] }>;
  /** Removes the namespace's contents (failures are ignored). */
  free(entry: HaystackNamespace): Promise<void>;
}) {
  const entries = new Map<string, Entry>();
  const planned = new Map<string, number>();
  return {
    /** Counts the questions that will search each key (call before the first `acquire`). */
    plan(keys: Iterable<string>): void {
      for (const key of keys) {
        planned.set(key, (planned.get(key) ?? 0) + 1);
        const entry = entries.get(key);
        if (entry) entry.remaining++;
      }
    },
    /** The key's namespace, ingested: by this call (charged) or an earlier one (shared). */
    async acquire(
      key: string,
      haystack: Haystack,
      signal?: AbortSignal,
    ): Promise<{ entry: HaystackNamespace; charge: IngestCharge }> {
      let entry = entries.get(key);
      if (!entry) {
        entry = {
          ...options.create(haystack.length),
          charged: false,
          ingested: false,
          remaining: planned.get(key) ?? 1,
        };
        planned.delete(key);
        entries.set(key, entry);
      }
      const owner = entry.ingest === undefined;
      if (owner) {
        const started = options.ingest(entry, haystack, signal);
        entry.ingest = started;
        started.then(
          () => {
            entry.ingested = true;
          },
          () => {
            if (entry.ingest === started) delete entry.ingest;
          },
        );
      }
      const result = await entry.ingest!;
      if (owner && !entry.charged) {
        entry.charged = true;
        return {
          entry,
          charge: { ms: result.ms, shared: false, ...(result.usage ? { usage: result.usage } : {}) },
        };
      }
      return { entry, charge: { ms: 0, shared: true } };
    },
    /** One question of the key is done with it; the last one frees the namespace. */
    async release(key: string): Promise<void> {
      const entry = entries.get(key);
      if (!entry) return;
      entry.remaining--;
      if (entry.remaining > 0) return;
      entries.delete(key);
      if (entry.ingested) await options.free(entry).catch(() => undefined);
    },
    /** Frees every namespace still held (a run stopped before its last questions). */
    async close(): Promise<void> {
      const left = [...entries.values()].filter((entry) => entry.ingested);
      entries.clear();
      await Promise.all(left.map((entry) => options.free(entry).catch(() => undefined)));
    },
  };
}
