/**
 * supermemory as an lme external memory system.
 *
 * Written from supermemory's public API reference, the OpenAPI document (version 3.0.0) of its
 * official TypeScript SDK, `.speakeasy/out.openapi.yaml` of supermemoryai/sdk-ts at commit
 * e8ad71abb407eab7b25b863fc1486d7b05c7f024: `Authorization: Bearer <key>`; POST /v3/documents
 * (content, containerTag, customId, metadata, dreaming) → `{id, status}`; GET /v3/documents/{id}
 * (status `queued` … `done`/`failed`); POST /v4/search (q, containerTag, limit ≤ 100, threshold,
 * rerank, searchMode, include.documents) → `{results: [{id, metadata, similarity, documents}]}`;
 * DELETE /v3/container-tags/{containerTag}; GET /v3/settings to check the key. Verified against a
 * loopback stand-in that follows that reference, not against the live service.
 *
 * Mapping: a namespace is a container tag (the namespace itself when it is a valid tag, else a
 * hash of it); a session is one document whose content is its date line and one `role: text` line
 * per turn, with `metadata: {lme_session_id, lme_date}` and a customId derived from the namespace
 * and session (so a retried add replaces instead of duplicating). supermemory processes documents
 * asynchronously: each is polled until `done`, within `max-wait-ms`. A search result maps back to
 * its session through its own metadata or, failing that, the metadata of the documents it came
 * from; reset deletes the container tag. Cannot: rank turns (a document is a whole session), report
 * tokens.
 */
import type { ExternalMemoryDependencies } from '../external/external-memory-descriptor.js';
import {
  createHostedConnection,
  type HostedMemory,
  type HostedTestHooks,
} from '../hosted/hosted-connection.js';
import { sessionsOnlyError } from '../hosted/hosted-options.js';
import { createHostedHitMapper, resultsToAsk } from '../hosted/map-hosted-hits.js';
import { pollHostedJob } from '../hosted/poll-until-done.js';
import { safeIdentifier } from '../hosted/safe-identifier.js';
import { sessionTranscript, spokenTurns } from '../hosted/session-text.js';
import {
  addDocumentReply,
  deleteTagReply,
  documentReply,
  searchReply,
  settingsReply,
} from './supermemory-api.js';
import { SUPERMEMORY_SESSIONS_ONLY, type SupermemoryOptions } from './supermemory-options.js';

/** The most results one search returns (`limit` maximum in the reference). */
const MAX_LIMIT = 100;

export function createSupermemoryMemory(
  options: SupermemoryOptions,
  dependencies: ExternalMemoryDependencies,
  hooks: HostedTestHooks = {},
): HostedMemory {
  const connection = createHostedConnection({
    system: 'supermemory',
    displayName: 'supermemory',
    baseUrl: options['base-url'],
    apiKeyEnv: 'SUPERMEMORY_API_KEY',
    authHeaders: (key) => ({ Authorization: `Bearer ${key}` }),
    dependencies,
    hooks,
  });
  const hits = createHostedHitMapper();

  async function awaitDocument(id: string, signal: AbortSignal | undefined) {
    await pollHostedJob(connection, options, {
      what: `supermemory document ${id}`,
      signal,
      async check() {
        const document = await connection.request(documentReply, {
          method: 'GET',
          path: `/v3/documents/${encodeURIComponent(id)}`,
          signal,
        });
        if (document.status === 'done') return { state: 'done' };
        if (document.status === 'failed') return { state: 'failed', reason: 'status failed' };
        return { state: 'pending' };
      },
    });
  }

  return {
    identity: () => ({ ...connection.identity }),
    droppedHits: hits.dropped,
    async preflight({ signal } = {}) {
      await connection.request(settingsReply, { method: 'GET', path: '/v3/settings', signal });
    },
    async reset(namespace, { signal } = {}) {
      await connection.requestOrMissing(deleteTagReply, {
        method: 'DELETE',
        path: `/v3/container-tags/${encodeURIComponent(safeIdentifier(namespace))}`,
        signal,
      });
    },
    async ingest(namespace, sessions, { signal } = {}) {
      const containerTag = safeIdentifier(namespace);
      const pending: string[] = [];
      for (const session of sessions) {
        if (spokenTurns(session).length === 0) continue;
        const added = await connection.request(addDocumentReply, {
          method: 'POST',
          path: '/v3/documents',
          body: {
            content: sessionTranscript(session),
            containerTag,
            customId: safeIdentifier(`${containerTag}.${session.session_id}`),
            metadata: { lme_session_id: session.session_id, lme_date: session.date },
            dreaming: options.dreaming,
          },
          signal,
        });
        if (added.status !== 'done') pending.push(added.id);
      }
      for (const id of pending) await awaitDocument(id, signal);
      return {};
    },
    async search(request, { signal } = {}) {
      if (request.granularity === 'turn') {
        throw sessionsOnlyError('supermemory', SUPERMEMORY_SESSIONS_ONLY);
      }
      const reply = await connection.request(searchReply, {
        method: 'POST',
        path: '/v4/search',
        body: {
          q: request.query,
          containerTag: safeIdentifier(request.namespace),
          limit: resultsToAsk(request.topK, MAX_LIMIT),
          threshold: options.threshold,
          rerank: options.rerank,
          searchMode: options['search-mode'],
          include: { documents: true },
        },
        signal,
      });
      return hits.map(
        reply.results.map((result) => ({
          sessionId:
            result.metadata?.['lme_session_id'] ??
            result.documents?.map((document) => document.metadata?.['lme_session_id']).find(Boolean),
          score: result.similarity,
        })),
        { granularity: 'session', topK: request.topK },
      );
    },
  };
}
