import { createJsonClient } from '@lme/search-core';
import type { ProviderIdentity } from '../../results/provider-identity.js';
import type { ExternalMemory } from '../external/external-memory.js';
import { describeIssues, healthResponseSchema, searchResponseSchema } from '../http/protocol.js';

export type ProtocolMemoryOptions = {
  /** The bridge's address, `http://127.0.0.1:<port>`. */
  url: string;
  /** The provider kind recorded with the results (`mem0`, `mempalace`). */
  kind: string;
  timeoutMs: number;
  maxRetries: number;
};

/**
 * An ExternalMemory speaking lme's provider protocol (docs/provider-protocol.md) to a server on
 * loopback: the bridges' client. Replies are checked with the protocol's zod schemas.
 */
export function createProtocolMemory(options: ProtocolMemoryOptions): ExternalMemory {
  const base = options.url.replace(/\/+$/, '');
  const client = createJsonClient({
    baseUrl: base,
    timeoutMs: options.timeoutMs,
    maxRetries: options.maxRetries,
  });
  const identity: ProviderIdentity = { kind: options.kind, url: base };
  const post = (path: string, body: unknown, signal: AbortSignal | undefined) =>
    client.request({ method: 'POST', path, body, ...(signal ? { signal } : {}) });

  return {
    identity: () => ({ ...identity }),
    async preflight({ signal } = {}) {
      const body = await client.request({ method: 'GET', path: '/v1/health', ...(signal ? { signal } : {}) });
      const parsed = healthResponseSchema.safeParse(body);
      if (!parsed.success)
        throw new Error(`GET ${base}/v1/health: unexpected reply (${describeIssues(parsed.error)}).`);
      if (parsed.data.name !== undefined) identity.name = parsed.data.name;
      if (parsed.data.version !== undefined) identity.version = parsed.data.version;
    },
    async reset(namespace, { signal } = {}) {
      await post('/v1/reset', { namespace }, signal);
    },
    async ingest(namespace, sessions, { signal } = {}) {
      await post('/v1/ingest', { namespace, sessions }, signal);
      return {};
    },
    async search(request, { signal } = {}) {
      const body = await post(
        '/v1/search',
        {
          namespace: request.namespace,
          query: request.query,
          ...(request.queryDate === undefined ? {} : { query_date: request.queryDate }),
          top_k: request.topK,
          granularity: request.granularity,
        },
        signal,
      );
      const parsed = searchResponseSchema.safeParse(body);
      if (!parsed.success)
        throw new Error(`POST ${base}/v1/search: unexpected reply (${describeIssues(parsed.error)}).`);
      return parsed.data;
    },
  };
}
