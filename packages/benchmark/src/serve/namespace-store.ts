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
  /** Empties the namespace and frees it: it no longer counts against the bounds. */
  reset(name: string): void;
  /** Appends sessions; 507 (nothing changed) when the namespace alone would exceed the memory bound. */
  append(name: string, sessions: ProtocolSession[]): StoredNamespace<Index>;
};

/** Names of emptied namespaces remembered (a search on one finds nothing rather than 404). */
export const EMPTIED_NAMES_KEPT = 10_000;

/**
 * The namespaces of `lme serve`, least recently used first, bounded in count and estimated
 * memory: beyond either bound the least recently used ones are dropped (never the one in use).
 * A reset frees its namespace: only namespaces holding sessions count against the bounds, so the
 * empty ones of finished clients never push out a live one. The names of emptied namespaces are
 * remembered (at most `EMPTIED_NAMES_KEPT`, the oldest forgotten first), so a search on one
 * finds nothing instead of 404.
 */
export function createNamespaceStore<Index>(options: NamespaceStoreOptions): NamespaceStore<Index> {
  const namespaces = new Map<string, StoredNamespace<Index>>();
  const emptied = new Set<string>();
  let heldBytes = 0;

  function rememberEmptied(name: string): void {
    emptied.delete(name);
    emptied.add(name);
    for (const oldest of emptied) {
      if (emptied.size <= EMPTIED_NAMES_KEPT) break;
      emptied.delete(oldest);
    }
  }

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
      // An emptied namespace is searched as empty; it is stored again only when it gets sessions.
      if (!create && emptied.has(name)) return { sessions: [], indexes: new Map(), bytes: 0 };
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
      const namespace = namespaces.get(name);
      if (namespace) {
        heldBytes -= namespace.bytes;
        namespaces.delete(name);
      }
      rememberEmptied(name);
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
      emptied.delete(name);
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
