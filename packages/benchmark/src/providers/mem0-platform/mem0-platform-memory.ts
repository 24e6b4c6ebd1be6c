/**
 * Mem0 Platform (the hosted Mem0 service) as an lme external memory system.
 *
 * Written from Mem0's public API reference, the OpenAPI document `docs/openapi.json` of
 * mem0ai/mem0 at commit 8d5b7865bd0521e75fe9ab1b260eeccc83f8a378 (the v3 memory endpoints), and
 * its official Python SDK `mem0/client/main.py` (`MemoryClient`: `Authorization: Token <key>`,
 * `add` → POST /v3/memories/add/, `search` → POST /v3/memories/search/ with the user in
 * `filters`, `delete_all` → DELETE /v1/memories/?user_id=…, the key checked by GET /v1/ping/),
 * at the same commit. Verified against a loopback stand-in that follows that reference, not
 * against the live service.
 *
 * Mapping: a namespace is a Mem0 `user_id`; a session is one add of its messages (every role
 * sent, in order) with `metadata: {lme_session_id, lme_date}` and `timestamp` (the session's date
 * as Unix seconds, which backdates the memories); a memory found by search maps back to the
 * session through `metadata.lme_session_id`; reset deletes the user's memories and waits until
 * the deletion event has run. Mem0 extracts memories asynchronously: each add returns an event,
 * polled (GET /v1/event/{id}/) until it has succeeded, within `max-wait-ms`. Cannot: rank turns
 * (a memory is distilled from a whole session), nor report tokens.
 */

import type { ExternalSearchRequest } from '../external/external-memory.js';
import type { ExternalMemoryDependencies } from '../external/external-memory-descriptor.js';
import {
  createHostedConnection,
  type HostedMemory,
  type HostedTestHooks,
} from '../hosted/hosted-connection.js';
import { sessionsOnlyError } from '../hosted/hosted-options.js';
import { createHostedHitMapper, resultsToAsk } from '../hosted/map-hosted-hits.js';
import { type PollState, pollHostedJob } from '../hosted/poll-until-done.js';
import { sessionInstant, spokenTurns } from '../hosted/session-text.js';
import type { ProtocolSession } from '../http/protocol.js';
import { addReply, deleteReply, eventReply, pingReply, searchReply } from './mem0-platform-api.js';
import { MEM0_PLATFORM_SESSIONS_ONLY, type Mem0PlatformOptions } from './mem0-platform-options.js';

/** The most results one Mem0 search returns (`top_k` maximum in the reference). */
const MAX_TOP_K = 1000;

export function createMem0PlatformMemory(
  options: Mem0PlatformOptions,
  dependencies: ExternalMemoryDependencies,
  hooks: HostedTestHooks = {},
): HostedMemory {
  const connection = createHostedConnection({
    system: 'mem0-platform',
    displayName: 'Mem0 Platform',
    baseUrl: options['base-url'],
    apiKeyEnv: 'MEM0_API_KEY',
    authHeaders: (key) => ({ Authorization: `Token ${key}` }),
    dependencies,
    hooks,
  });
  const hits = createHostedHitMapper();

  async function awaitEvent(eventId: string, what: string, signal: AbortSignal | undefined) {
    await pollHostedJob(connection, options, {
      what: `Mem0 Platform ${what} event ${eventId}`,
      signal,
      async check(): Promise<PollState> {
        const event = await connection.requestOrMissing(eventReply, {
          method: 'GET',
          path: `/v1/event/${encodeURIComponent(eventId)}/`,
          signal,
        });
        // An event the service no longer knows has nothing left to wait for.
        if (event === undefined || event.status === 'SUCCEEDED') return { state: 'done' };
        if (event.status === 'FAILED') {
          return { state: 'failed', reason: connection.redact(event.error ?? 'no reason given') };
        }
        return { state: 'pending' };
      },
    });
  }

  function addBody(namespace: string, session: ProtocolSession) {
    const instant = sessionInstant(session.date);
    return {
      messages: spokenTurns(session).map((turn) => ({ role: turn.role, content: turn.content })),
      user_id: namespace,
      metadata: { lme_session_id: session.session_id, lme_date: session.date },
      infer: options.infer,
      ...(instant ? { timestamp: Math.floor(instant.getTime() / 1000) } : {}),
    };
  }

  return {
    identity: () => ({ ...connection.identity }),
    droppedHits: hits.dropped,
    async preflight({ signal } = {}) {
      await connection.request(pingReply, { method: 'GET', path: '/v1/ping/', signal });
    },
    async reset(namespace, { signal } = {}) {
      const reply = await connection.requestOrMissing(deleteReply, {
        method: 'DELETE',
        path: `/v1/memories/?user_id=${encodeURIComponent(namespace)}`,
        signal,
      });
      // Deletion runs in the background: wait, or it could remove what the next ingest adds.
      if (reply?.event_id) await awaitEvent(reply.event_id, 'deletion', signal);
    },
    async ingest(namespace, sessions, { signal } = {}) {
      const pending: string[] = [];
      for (const session of sessions) {
        const body = addBody(namespace, session);
        if (body.messages.length === 0) continue;
        const reply = await connection.request(addReply, {
          method: 'POST',
          path: '/v3/memories/add/',
          body,
          signal,
        });
        if (reply.event_id && reply.status !== 'SUCCEEDED') pending.push(reply.event_id);
      }
      for (const eventId of pending) await awaitEvent(eventId, 'ingest', signal);
      return {};
    },
    async search(request: ExternalSearchRequest, { signal } = {}) {
      if (request.granularity === 'turn') {
        throw sessionsOnlyError('mem0-platform', MEM0_PLATFORM_SESSIONS_ONLY);
      }
      const referenceDate = options['reference-date'] ? sessionInstant(request.queryDate) : undefined;
      const reply = await connection.request(searchReply, {
        method: 'POST',
        path: '/v3/memories/search/',
        body: {
          query: request.query,
          filters: { user_id: request.namespace },
          top_k: resultsToAsk(request.topK, MAX_TOP_K),
          threshold: options.threshold,
          rerank: options.rerank,
          ...(referenceDate ? { reference_date: referenceDate.toISOString() } : {}),
        },
        signal,
      });
      return hits.map(
        reply.results.map((result) => ({
          sessionId: result.metadata?.['lme_session_id'],
          score: result.score,
        })),
        { granularity: 'session', topK: request.topK },
      );
    },
  };
}
