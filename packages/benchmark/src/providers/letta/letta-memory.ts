/**
 * Letta's archival memory as an lme external memory system.
 *
 * Written from Letta's public API reference and its official TypeScript SDK, letta-ai/letta-node
 * at commit 8b1e9cea68c932852b09e5f0cfad3d7aa7c3e9cf (1.12.0; `api.md`, `src/client.ts`,
 * `src/resources/agents/agents.ts` and `agents/passages.ts`): `Authorization: Bearer <key>`;
 * GET /v1/health/; POST /v1/agents/ (name, model, embedding, memory_blocks, include_base_tools,
 * tags); GET /v1/agents/?name=…; DELETE /v1/agents/{agent_id}; POST
 * /v1/agents/{agent_id}/archival-memory (text, created_at, tags); GET
 * /v1/agents/{agent_id}/archival-memory/search?query=…&top_k=… → `{results: [{id, content,
 * timestamp, tags}], count}`. Verified against a loopback stand-in that follows that reference,
 * not against the live service.
 *
 * Mapping: a namespace is an agent named after it (created on first ingest, with no memory blocks
 * and no tools: only its archival store is used); each turn (or, with `passage=session`, each
 * session) is one archival passage `role: text`, with `created_at` the session's date and the tags
 * `lme-session:<id>` and `lme-turn:<index>`; a passage found by search maps back through those
 * tags (inserted `ingest-concurrency` at a time). Letta embeds on insert, so an ingest is
 * searchable when it returns (nothing to poll).
 * Reset deletes the namespace's agents. Cannot: give scores (its search returns none; the rank
 * stands in as 1/rank), report tokens.
 */
import pLimit from 'p-limit';
import type { ExternalMemoryDependencies } from '../external/external-memory-descriptor.js';
import {
  createHostedConnection,
  type HostedMemory,
  type HostedTestHooks,
} from '../hosted/hosted-connection.js';
import { sessionsOnlyError } from '../hosted/hosted-options.js';
import { createHostedHitMapper, resultsToAsk } from '../hosted/map-hosted-hits.js';
import { safeIdentifier } from '../hosted/safe-identifier.js';
import { sessionInstant, sessionTranscript, spokenTurns, turnLine } from '../hosted/session-text.js';
import type { ProtocolSession } from '../http/protocol.js';
import {
  agentListReply,
  agentReply,
  deleteReply,
  healthReply,
  insertReply,
  searchReply,
} from './letta-api.js';
import type { LettaOptions } from './letta-options.js';

/** The most results lme asks one archival search for (Letta documents no limit). */
const MAX_TOP_K = 1000;
const SESSION_TAG = 'lme-session:';
const TURN_TAG = 'lme-turn:';

export function createLettaMemory(
  options: LettaOptions,
  dependencies: ExternalMemoryDependencies,
  hooks: HostedTestHooks = {},
): HostedMemory {
  const connection = createHostedConnection({
    system: 'letta',
    displayName: 'Letta',
    baseUrl: options['base-url'],
    apiKeyEnv: 'LETTA_API_KEY',
    authHeaders: (key) => ({ Authorization: `Bearer ${key}` }),
    dependencies,
    hooks,
  });
  /** Namespace → its agent's id, once known. */
  const agents = new Map<string, string>();
  const hits = createHostedHitMapper();
  const agentName = (namespace: string) => `lme-${safeIdentifier(namespace)}`;

  async function findAgents(namespace: string, signal: AbortSignal | undefined) {
    return connection.request(agentListReply, {
      method: 'GET',
      path: `/v1/agents/?name=${encodeURIComponent(agentName(namespace))}`,
      signal,
    });
  }

  async function agentOf(namespace: string, create: boolean, signal: AbortSignal | undefined) {
    const known = agents.get(namespace);
    if (known) return known;
    let id = (await findAgents(namespace, signal))[0]?.id;
    if (!id && create) {
      const created = await connection.request(agentReply, {
        method: 'POST',
        path: '/v1/agents/',
        body: {
          name: agentName(namespace),
          model: options.model,
          embedding: options.embedding,
          memory_blocks: [],
          include_base_tools: false,
          tags: ['lme'],
        },
        signal,
      });
      id = created.id;
    }
    if (id) agents.set(namespace, id);
    return id;
  }

  /** The passages of one session: one per turn, or one for the whole session. */
  function passagesOf(session: ProtocolSession) {
    const instant = sessionInstant(session.date);
    const created = instant ? { created_at: instant.toISOString() } : {};
    const turns = spokenTurns(session);
    if (options.passage === 'session') {
      return turns.length === 0
        ? []
        : [{ text: sessionTranscript(session), ...created, tags: [`${SESSION_TAG}${session.session_id}`] }];
    }
    return turns.map((turn) => ({
      text: turnLine(turn),
      ...created,
      tags: [`${SESSION_TAG}${session.session_id}`, `${TURN_TAG}${turn.turn_index}`],
    }));
  }

  return {
    identity: () => ({ ...connection.identity }),
    droppedHits: hits.dropped,
    async preflight({ signal } = {}) {
      const health = await connection.request(healthReply, { method: 'GET', path: '/v1/health/', signal });
      if (health.version) connection.identity.version = connection.redact(health.version).slice(0, 100);
      // Health needs no key on a self-hosted server: list agents to check the key itself.
      await connection.request(agentListReply, { method: 'GET', path: '/v1/agents/?limit=1', signal });
    },
    async reset(namespace, { signal } = {}) {
      agents.delete(namespace);
      for (const agent of await findAgents(namespace, signal)) {
        await connection.requestOrMissing(deleteReply, {
          method: 'DELETE',
          path: `/v1/agents/${encodeURIComponent(agent.id)}`,
          signal,
        });
      }
    },
    async ingest(namespace, sessions, { signal } = {}) {
      const agentId = await agentOf(namespace, true, signal);
      const limit = pLimit(options['ingest-concurrency']);
      await Promise.all(
        sessions.flatMap(passagesOf).map((passage) =>
          limit(() =>
            connection.request(insertReply, {
              method: 'POST',
              path: `/v1/agents/${encodeURIComponent(agentId!)}/archival-memory`,
              body: passage,
              signal,
            }),
          ),
        ),
      );
      return {};
    },
    async search(request, { signal } = {}) {
      if (request.granularity === 'turn' && options.passage !== 'turn') {
        throw sessionsOnlyError(
          'letta',
          'each passage holds a whole session; --provider-option passage=turn stores turns',
        );
      }
      const agentId = await agentOf(request.namespace, false, signal);
      if (!agentId) return { hits: [] };
      const reply = await connection.request(searchReply, {
        method: 'GET',
        path: `/v1/agents/${encodeURIComponent(agentId)}/archival-memory/search?query=${encodeURIComponent(request.query)}&top_k=${resultsToAsk(request.topK, MAX_TOP_K)}`,
        signal,
      });
      const tagValue = (tags: readonly string[] | null | undefined, prefix: string) =>
        tags?.find((tag) => tag.startsWith(prefix))?.slice(prefix.length);
      return hits.map(
        reply.results.map((result) => ({
          sessionId: tagValue(result.tags, SESSION_TAG),
          turnIndex: tagValue(result.tags, TURN_TAG),
        })),
        { granularity: request.granularity, topK: request.topK },
      );
    },
  };
}
