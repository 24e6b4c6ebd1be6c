import type { Granularity } from '../benchmarks/build-corpus.js';
import type { ProtocolSession } from '../providers/http/protocol.js';
import { httpError } from './http-exchange.js';
import { sessionsBytes } from './namespace-size.js';

/** One namespace: its sessions, the indexes built on them (per granularity), their estimated size. */
export type StoredNamespace<Index> = {
  sessions: ProtocolSession[];
  indexes: Map<Granularity, Index>;
  bytes: number;
};

export type NamespaceStoreOptions = {
  /** Namespaces kept at once. */
  maxNamespaces: number;
  /** Estimated bytes all namespaces may hold (`sessionsBytes`). */
  maxMemoryBytes: number;
};

export type NamespaceStore<Index> = {
  readonly size: number;
  readonly heldBytes: number;
  /** The namespace, marked most recently used; created when `create` is set, else 404 if unknown. */
  use(name: string, create: boolean): StoredNamespace<Index>;
  /** Empties the namespace (creating it). */
  reset(name: string): void;
  /** Appends sessions; 507 (nothing changed) when the namespace alone would exceed the memory bound. */
  append(name: string, sessions: ProtocolSession[]): StoredNamespace<Index>;
};

/**
 * The namespaces of `lme serve`, least recently used first, bounded in count and estimated
 * memory: beyond either bound the least recently used ones are dropped (never the one in use).
 */
export function createNamespaceStore<Index>(options: NamespaceStoreOptions): NamespaceStore<Index> {
  const namespaces = new Map<string, StoredNamespace<Index>>();
  let heldBytes = 0;

  function evict(keep: string): void {
    for (const [name, namespace] of namespaces) {
      if (namespaces.size <= options.maxNamespaces && heldBytes <= options.maxMemoryBytes) return;
      if (name === keep) continue;
      heldBytes -= namespace.bytes;
      namespaces.delete(name);
    }
  }

  function use(name: string, create: boolean): StoredNamespace<Index> {
    let found = namespaces.get(name);
    if (found) {
      namespaces.delete(name);
    } else {
      if (!create) {
        throw httpError(
          404,
          `namespace ${JSON.stringify(name)} is unknown (reset or ingest it first; the least recently used namespaces are dropped beyond the server's namespace and memory bounds).`,
        );
      }
      found = { sessions: [], indexes: new Map(), bytes: 0 };
    }
    namespaces.set(name, found);
    evict(name);
    return found;
  }

  return {
    get size() {
      return namespaces.size;
    },
    get heldBytes() {
      return heldBytes;
    },
    use,
    reset(name) {
      const namespace = use(name, true);
      namespace.sessions = [];
      namespace.indexes.clear();
      heldBytes -= namespace.bytes;
      namespace.bytes = 0;
    },
    append(name, sessions) {
      const added = sessionsBytes(sessions);
      const total = (namespaces.get(name)?.bytes ?? 0) + added;
      if (total > options.maxMemoryBytes) {
        throw httpError(
          507,
          `ingest refused: namespace ${JSON.stringify(name)} would hold about ${megabytes(total)} MB, over the server's memory bound of ${megabytes(options.maxMemoryBytes)} MB (lme serve --max-memory-mb).`,
        );
      }
      const namespace = use(name, true);
      namespace.sessions.push(...sessions);
      namespace.indexes.clear();
      namespace.bytes += added;
      heldBytes += added;
      evict(name);
      return namespace;
    },
  };
}

/** Bytes as MiB, one decimal place. */
export function megabytes(bytes: number): number {
  return Math.round((bytes / (1024 * 1024)) * 10) / 10;
}
