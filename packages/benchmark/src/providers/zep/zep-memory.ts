/**
 * Zep (Zep Cloud's graph memory) as an lme external memory system.
 *
 * Written from Zep's public API reference (help.getzep.com, SDK reference for the v3 SDK: the
 * `/api/v2` endpoints) and its official Python SDK, getzep/zep-python at commit
 * a80dee376de31fa9fdd2762ee6c55038d5cfab28 (zep-cloud 3.20.0): `Authorization: Api-Key <key>`
 * (core/client_wrapper.py); `user.add`/`user.get`/`user.delete` → POST /users, GET and DELETE
 * /users/{userId}; `graph.add` → POST /graph (data, type, created_at, metadata with at most 10
 * keys, source_description, user_id); `graph.episode.get` → GET /graph/episodes/{uuid} (its
 * `processed` flag); `graph.search` → POST /graph/search (user_id, query, scope, limit ≤ 50,
 * reranker); `project.get` → GET /projects/info. Zep's newer v4 endpoints are not used. Verified
 * against a loopback stand-in that follows that reference, not against the live service.
 *
 * Mapping: a namespace is a Zep user (its user graph); a session is one `message` episode (or one
 * per turn with `episode=turn`; a session longer than `max-episode-chars` is split) whose lines
 * read `User (user): …`, with `created_at` the session's date and `metadata: {lme_session_id,
 * lme_date[, lme_turn_index]}`. Zep processes episodes in order and asynchronously: after an
 * ingest the adapter polls the last episode until `processed`, within `max-wait-ms`. A search over
 * episodes maps each by its metadata; a search over facts (edges, the default) credits each fact
 * to the episodes Zep lists for it, by the metadata of those episodes (remembered from the adds of
 * this process, else read once with GET /graph/episodes/{uuid}); a fact whose episodes carry no
 * lme metadata is dropped and counted. Reset deletes the user. Cannot: rank more than 50 results
 * (Zep's search limit), rank turns unless `episode=turn`, report tokens.
 */
import type { ExternalMemoryDependencies } from '../external/external-memory-descriptor.js';
import {
  createHostedConnection,
  type HostedMemory,
  type HostedTestHooks,
} from '../hosted/hosted-connection.js';
import { sessionsOnlyError } from '../hosted/hosted-options.js';
import { createHostedHitMapper, type HostedHitCandidate, resultsToAsk } from '../hosted/map-hosted-hits.js';
import { pollHostedJob } from '../hosted/poll-until-done.js';
import { sessionInstant, spokenTurns } from '../hosted/session-text.js';
import type { ProtocolSession } from '../http/protocol.js';
import { episodeReply, projectInfoReply, searchReply, successReply, userReply } from './zep-api.js';
import type { ZepOptions } from './zep-options.js';

/** The most results one Zep graph search returns (`limit` is "Limited to 50"). */
const MAX_LIMIT = 50;

type EpisodeSource = { sessionId: string; turnIndex?: number };
type EpisodeBody = { data: string; created_at?: string; metadata: Record<string, string | number> };

export function createZepMemory(
  options: ZepOptions,
  dependencies: ExternalMemoryDependencies,
  hooks: HostedTestHooks = {},
): HostedMemory {
  const connection = createHostedConnection({
    system: 'zep',
    displayName: 'Zep',
    baseUrl: options['base-url'],
    apiKeyEnv: 'ZEP_API_KEY',
    authHeaders: (key) => ({ Authorization: `Api-Key ${key}` }),
    dependencies,
    hooks,
  });
  /** Users this process knows exist. */
  const users = new Set<string>();
  /** Episode uuid → what lme sent in it, per namespace (facts name episodes, not metadata). */
  const episodes = new Map<string, Map<string, EpisodeSource>>();
  /** Episode uuids already looked up, per namespace (found or not). */
  const lookedUp = new Map<string, Set<string>>();
  const hits = createHostedHitMapper();
  const userPath = (namespace: string) => `/users/${encodeURIComponent(namespace)}`;

  async function ensureUser(namespace: string, signal: AbortSignal | undefined) {
    if (users.has(namespace)) return;
    const found = await connection.requestOrMissing(userReply, {
      method: 'GET',
      path: userPath(namespace),
      signal,
    });
    if (!found) {
      await connection.request(userReply, {
        method: 'POST',
        path: '/users',
        body: { user_id: namespace },
        signal,
      });
    }
    users.add(namespace);
  }

  /** The episodes of one session: one per turn, or its lines packed up to the size bound. */
  function episodesOf(session: ProtocolSession): (EpisodeBody & { source: EpisodeSource })[] {
    const instant = sessionInstant(session.date);
    const base = (data: string, turnIndex?: number) => ({
      data,
      ...(instant ? { created_at: instant.toISOString() } : {}),
      metadata: {
        lme_session_id: session.session_id,
        lme_date: session.date,
        ...(turnIndex === undefined ? {} : { lme_turn_index: turnIndex }),
      },
      source: { sessionId: session.session_id, ...(turnIndex === undefined ? {} : { turnIndex }) },
    });
    const lines = spokenTurns(session).map((turn) => ({
      turn,
      line: `${speaker(turn.role)} (${turn.role}): ${turn.content}`,
    }));
    if (options.episode === 'turn') {
      return lines.map(({ turn, line }) =>
        base(line.slice(0, options['max-episode-chars']), turn.turn_index),
      );
    }
    const chunks: string[] = [];
    for (const { line } of lines) {
      const last = chunks.at(-1);
      if (last !== undefined && last.length + 1 + line.length <= options['max-episode-chars']) {
        chunks[chunks.length - 1] = `${last}\n${line}`;
      } else {
        for (let start = 0; start < line.length; start += options['max-episode-chars']) {
          chunks.push(line.slice(start, start + options['max-episode-chars']));
        }
      }
    }
    return chunks.map((chunk) => base(chunk));
  }

  /**
   * Reads the metadata of episodes a fact names that this process did not add (a resumed run):
   * `GET /graph/episodes/{uuid}`, once per episode; one that is gone or carries no lme metadata
   * stays unknown, and its facts are dropped.
   */
  async function learnEpisodes(
    namespace: string,
    known: Map<string, EpisodeSource>,
    uuids: readonly string[],
    signal: AbortSignal | undefined,
  ) {
    const looked = lookedUp.get(namespace) ?? new Set<string>();
    lookedUp.set(namespace, looked);
    for (const uuid of new Set(uuids)) {
      if (known.has(uuid) || looked.has(uuid)) continue;
      looked.add(uuid);
      const episode = await connection.requestOrMissing(episodeReply, {
        method: 'GET',
        path: `/graph/episodes/${encodeURIComponent(uuid)}`,
        signal,
      });
      const sessionId = episode?.metadata?.['lme_session_id'];
      const turnIndex = episode?.metadata?.['lme_turn_index'];
      if (typeof sessionId !== 'string' || sessionId === '') continue;
      known.set(uuid, { sessionId, ...(typeof turnIndex === 'number' ? { turnIndex } : {}) });
    }
  }

  return {
    identity: () => ({ ...connection.identity }),
    droppedHits: hits.dropped,
    async preflight({ signal } = {}) {
      await connection.request(projectInfoReply, { method: 'GET', path: '/projects/info', signal });
    },
    async reset(namespace, { signal } = {}) {
      await connection.requestOrMissing(successReply, {
        method: 'DELETE',
        path: userPath(namespace),
        signal,
      });
      users.delete(namespace);
      episodes.delete(namespace);
      lookedUp.delete(namespace);
    },
    async ingest(namespace, sessions, { signal } = {}) {
      await ensureUser(namespace, signal);
      const known = episodes.get(namespace) ?? new Map<string, EpisodeSource>();
      episodes.set(namespace, known);
      let last: string | undefined;
      for (const session of sessions) {
        for (const { source, ...episode } of episodesOf(session)) {
          const added = await connection.request(episodeReply, {
            method: 'POST',
            path: '/graph',
            body: { ...episode, type: 'message', source_description: 'lme session', user_id: namespace },
            signal,
          });
          known.set(added.uuid, source);
          last = added.processed ? last : added.uuid;
        }
      }
      // Zep processes a graph's episodes in order: the last one done means all are.
      if (last !== undefined) {
        const uuid = last;
        await pollHostedJob(connection, options, {
          what: `Zep episode ${uuid}`,
          signal,
          async check() {
            const episode = await connection.request(episodeReply, {
              method: 'GET',
              path: `/graph/episodes/${encodeURIComponent(uuid)}`,
              signal,
            });
            return episode.processed ? { state: 'done' } : { state: 'pending' };
          },
        });
      }
      return {};
    },
    async search(request, { signal } = {}) {
      if (request.granularity === 'turn' && options.episode !== 'turn') {
        throw sessionsOnlyError(
          'zep',
          'each episode holds a whole session; --provider-option episode=turn stores turns',
        );
      }
      const reply = await connection.request(searchReply, {
        method: 'POST',
        path: '/graph/search',
        body: {
          user_id: request.namespace,
          query: request.query,
          scope: options.scope,
          limit: resultsToAsk(request.topK, MAX_LIMIT),
          reranker: options.reranker,
        },
        signal,
      });
      const known = episodes.get(request.namespace) ?? new Map<string, EpisodeSource>();
      const candidates: HostedHitCandidate[] = [];
      if (options.scope === 'episodes') {
        for (const episode of reply.episodes ?? []) {
          candidates.push({
            sessionId: episode.metadata?.['lme_session_id'],
            turnIndex: episode.metadata?.['lme_turn_index'],
            score: episode.score ?? undefined,
          });
        }
      } else {
        const facts = reply.edges ?? [];
        await learnEpisodes(
          request.namespace,
          known,
          facts.flatMap((fact) => fact.episodes ?? []),
          signal,
        );
        for (const fact of facts) {
          const sources = (fact.episodes ?? []).flatMap((uuid) => known.get(uuid) ?? []);
          if (sources.length === 0) candidates.push({});
          for (const source of sources) candidates.push({ ...source, score: fact.score ?? undefined });
        }
      }
      return hits.map(candidates, { granularity: request.granularity, topK: request.topK });
    },
  };
}

function speaker(role: 'user' | 'assistant'): string {
  return role === 'user' ? 'User' : 'Assistant';
}
