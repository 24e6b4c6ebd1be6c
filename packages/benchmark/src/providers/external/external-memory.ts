import type { ProviderIdentity } from '../../results/provider-identity.js';
import type { ProtocolSession, SearchResponse } from '../http/protocol.js';

/**
 * An external memory system as lme drives it, one namespace at a time: the HTTP protocol
 * (docs/provider-protocol.md) as a TypeScript type. The protocol client, the bridges to
 * open-source systems (a child process speaking the protocol) and the hosted-API adapters each
 * implement it; the external provider around it builds the corpus, sends opaque ids, shares a
 * namespace between questions with the same haystack, times ingest and maps hits back.
 *
 * Ids an implementation receives (namespaces, session ids) are already opaque: it passes them on
 * as they are and returns them as it got them.
 */
export type ExternalMemory = {
  /** Kind, URL (no secrets) and, after `preflight`, the name and version the system reported. */
  identity(): ProviderIdentity;
  /** Checks the system answers and accepts its credentials; one sentence if not. */
  preflight(options?: { signal?: AbortSignal }): Promise<void>;
  /** Removes everything stored under the namespace (a no-op when there is nothing). */
  reset(namespace: string, options?: { signal?: AbortSignal }): Promise<void>;
  /** Appends sessions (every sent turn with its position in the session) to the namespace. */
  ingest(
    namespace: string,
    sessions: ProtocolSession[],
    options?: { signal?: AbortSignal },
  ): Promise<ExternalIngestResult>;
  /** Ranked hits for the query, and the system's own answer when it gives one. */
  search(request: ExternalSearchRequest, options?: { signal?: AbortSignal }): Promise<SearchResponse>;
  /** Why it can answer no more (a child process that died), in one sentence. */
  unavailable?(): string | undefined;
  /** Releases clients and child processes. */
  close?(): Promise<void>;
};

export type ExternalSearchRequest = {
  namespace: string;
  query: string;
  /** The question's date as the dataset gives it, when it has one. */
  queryDate?: string;
  topK: number;
  granularity: 'session' | 'turn';
};

/** What a system reports of one ingest call: tokens and cost when it knows them. */
export type ExternalIngestResult = {
  usage?: { prompt_tokens: number; completion_tokens: number; cost_usd?: number; model?: string };
};
