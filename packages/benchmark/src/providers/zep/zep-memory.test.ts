import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  STAND_IN_KEY,
  STAND_IN_SESSIONS,
  type StandInRoute,
  startHostedStandIn,
} from '../../testing/hosted-api-stand-in.js';
import {
  type HostedContract,
  hostedContractChecks,
  hostedSetUp,
  hostedTestDependencies,
} from '../../testing/hosted-contract-checks.js';
import { parseProviderOptions } from '../provider-registry.js';
import { zepDescriptor } from './descriptor.js';
import { createZepMemory } from './zep-memory.js';

/**
 * A stand-in for Zep Cloud following the v3 SDK (getzep/zep-python a80dee37): `Authorization:
 * Api-Key <key>`; users at /users and /users/{userId}; POST /graph (AddDataRequest: data, type,
 * created_at, metadata of at most 10 keys, source_description, user_id) answered with the Episode
 * (uuid, processed false), processed once looked at via GET /graph/episodes/{uuid}; POST
 * /graph/search (user_id, query, scope, limit ≤ 50, reranker) answered GraphSearchResults: a fact
 * (edge) per episode naming it, plus one fact from an episode lme never sent.
 */
const addBody = z
  .object({
    data: z.string().min(1),
    type: z.enum(['text', 'json', 'message', 'fact_triple']),
    created_at: z.string().optional(),
    metadata: z
      .record(z.string(), z.union([z.string(), z.number(), z.boolean()]))
      .refine((metadata) => Object.keys(metadata).length <= 10)
      .optional(),
    source_description: z.string().optional(),
    user_id: z.string().min(1),
  })
  .strict();
const searchBody = z
  .object({
    user_id: z.string().min(1),
    query: z.string().min(1),
    scope: z.enum(['edges', 'nodes', 'episodes']).optional(),
    limit: z.number().int().min(1).max(50).optional(),
    reranker: z.enum(['rrf', 'mmr', 'node_distance', 'episode_mentions', 'cross_encoder']).optional(),
  })
  .strict();

type Episode = z.infer<typeof addBody> & { uuid: string; processed: boolean };

async function startZepStandIn() {
  const users = new Set<string>();
  const episodes: Episode[] = [];
  const words = (text: string) => new Set(text.toLowerCase().match(/[a-z]+/g) ?? []);
  const overlap = (text: string, query: Set<string>) =>
    [...words(text)].filter((word) => query.has(word)).length / (query.size || 1);
  const routes: StandInRoute[] = [
    {
      method: 'GET',
      path: /^\/projects\/info$/,
      reply: () => ({ body: { project: { name: 'lme', uuid: 'p' } } }),
    },
    {
      method: 'GET',
      path: /^\/users\/([^/]+)$/,
      reply: (_request, [id]) =>
        users.has(id!) ? { body: { user_id: id } } : { status: 404, body: { message: 'not found' } },
    },
    {
      method: 'POST',
      path: /^\/users$/,
      body: z.object({ user_id: z.string().min(1) }).strict(),
      reply: ({ body }) => {
        const id = (body as { user_id: string }).user_id;
        if (users.has(id)) return { status: 400, body: { message: 'user already exists' } };
        users.add(id);
        return { status: 201, body: { user_id: id, uuid: `u-${id}` } };
      },
    },
    {
      method: 'DELETE',
      path: /^\/users\/([^/]+)$/,
      reply: (_request, [id]) => {
        if (!users.delete(id!)) return { status: 404, body: { message: 'not found' } };
        for (let index = episodes.length - 1; index >= 0; index--) {
          if (episodes[index]!.user_id === id) episodes.splice(index, 1);
        }
        return { body: { message: 'deleted' } };
      },
    },
    {
      method: 'POST',
      path: /^\/graph$/,
      body: addBody,
      reply: ({ body }) => {
        const add = addBody.parse(body);
        if (!users.has(add.user_id)) return { status: 404, body: { message: 'user not found' } };
        const episode = { ...add, uuid: `ep-${episodes.length}`, processed: false };
        episodes.push(episode);
        return {
          status: 202,
          body: { uuid: episode.uuid, content: add.data, created_at: 'x', processed: false },
        };
      },
    },
    {
      method: 'GET',
      path: /^\/graph\/episodes\/([^/]+)$/,
      reply: (_request, [uuid]) => {
        const episode = episodes.find((candidate) => candidate.uuid === uuid);
        if (!episode) return { status: 404, body: { message: 'not found' } };
        const answer = {
          uuid,
          content: episode.data,
          created_at: 'x',
          processed: episode.processed,
          metadata: episode.metadata,
        };
        episode.processed = true;
        return { body: answer };
      },
    },
    {
      method: 'POST',
      path: /^\/graph\/search$/,
      body: searchBody,
      reply: ({ body }) => {
        const search = searchBody.parse(body);
        const query = words(search.query);
        const own = episodes
          .filter((episode) => episode.user_id === search.user_id)
          .map((episode) => ({ episode, score: overlap(episode.data, query) }))
          .sort((a, b) => b.score - a.score)
          .slice(0, search.limit ?? 10);
        if (search.scope === 'episodes') {
          return {
            body: {
              episodes: own.map(({ episode, score }) => ({
                uuid: episode.uuid,
                content: episode.data,
                created_at: 'x',
                metadata: episode.metadata,
                score,
              })),
            },
          };
        }
        const edges = own.map(({ episode, score }, index) => ({
          uuid: `edge-${index}`,
          fact: episode.data,
          name: 'MENTIONS',
          created_at: 'x',
          source_node_uuid: 'a',
          target_node_uuid: 'b',
          episodes: [episode.uuid],
          score,
        }));
        edges.splice(1, 0, {
          uuid: 'edge-foreign',
          fact: 'a fact from elsewhere',
          name: 'X',
          created_at: 'x',
          source_node_uuid: 'a',
          target_node_uuid: 'b',
          episodes: ['ep-not-from-lme'],
          score: 0.9,
        });
        return { body: { edges } };
      },
    },
  ];
  const standIn = await startHostedStandIn({
    routes,
    authorized: (headers) => headers.authorization === `Api-Key ${STAND_IN_KEY}`,
    unauthorizedBody: { message: 'unauthorized' },
  });
  return { standIn, users, episodes };
}

const contract: HostedContract<Awaited<ReturnType<typeof startZepStandIn>>> = {
  displayName: 'Zep',
  apiKeyEnv: 'ZEP_API_KEY',
  start: startZepStandIn,
  create: (options, dependencies, hooks) =>
    createZepMemory(parseProviderOptions(zepDescriptor, options), dependencies, hooks),
  search: { query: 'dog', topK: 5, granularity: 'session' },
};

describe('zep contract', () => {
  hostedContractChecks(contract);
});

describe('zep adapter', () => {
  const setUp = hostedSetUp(contract);

  it('adds each session as a message episode of the namespace user, waits for the last, and credits facts to sessions', async () => {
    const { standIn, memory, users, waits } = await setUp();
    await memory.preflight();
    await memory.reset('ns-1');
    await memory.ingest('ns-1', STAND_IN_SESSIONS);
    expect(users.has('ns-1')).toBe(true);
    const adds = standIn.requests.filter((request) => request.path === '/graph');
    expect(adds.map((request) => request.body)).toEqual([
      {
        data: 'User (user): I adopted a greyhound called Comet last week.\nAssistant (assistant): Congratulations on adopting Comet!',
        type: 'message',
        created_at: '2023-05-20T02:21:00.000Z',
        metadata: { lme_session_id: 's-7f3a', lme_date: '2023/05/20 (Sat) 02:21' },
        source_description: 'lme session',
        user_id: 'ns-1',
      },
      expect.objectContaining({ metadata: { lme_session_id: 's-91bc', lme_date: '2023/06/02 (Fri) 18:05' } }),
    ]);
    // Only the last episode is polled: unprocessed on the first look, processed on the second.
    expect(
      standIn.requests.filter((request) => request.path.startsWith('/graph/episodes/')).map((r) => r.path),
    ).toEqual(['/graph/episodes/ep-1', '/graph/episodes/ep-1']);
    expect(waits).toEqual([2000]);
    expect(
      standIn.requests.every((request) => request.headers.authorization === `Api-Key ${STAND_IN_KEY}`),
    ).toBe(true);

    const reply = await memory.search({
      namespace: 'ns-1',
      query: 'my sister in Lisbon',
      topK: 80,
      granularity: 'session',
    });
    expect(reply.hits.map((hit) => hit.session_id)).toEqual(['s-91bc', 's-7f3a']);
    // The fact from an episode lme never sent is dropped and counted.
    expect(memory.droppedHits()).toBe(1);
    expect(standIn.requests.find((request) => request.path === '/graph/search')?.body).toEqual({
      user_id: 'ns-1',
      query: 'my sister in Lisbon',
      scope: 'edges',
      limit: 50,
      reranker: 'rrf',
    });
    expect(standIn.rejected).toEqual([]);
  });

  it('credits facts of a run it did not ingest (a resumed run) by reading their episodes once', async () => {
    const { standIn, memory } = await setUp();
    await memory.ingest('ns-1', STAND_IN_SESSIONS);
    const resumed = contract.create(
      { 'base-url': standIn.url },
      hostedTestDependencies({ ZEP_API_KEY: STAND_IN_KEY }),
      { sleep: async () => {} },
    );
    const before = standIn.requests.length;
    const search = {
      namespace: 'ns-1',
      query: 'my sister in Lisbon',
      topK: 5,
      granularity: 'session' as const,
    };
    expect((await resumed.search(search)).hits.map((hit) => hit.session_id)).toEqual(['s-91bc', 's-7f3a']);
    expect(resumed.droppedHits()).toBe(1);
    expect(standIn.requests.slice(before).map((request) => `${request.method} ${request.path}`)).toEqual([
      'POST /graph/search',
      'GET /graph/episodes/ep-1',
      'GET /graph/episodes/ep-not-from-lme',
      'GET /graph/episodes/ep-0',
    ]);
    // Looked up once: the second search reads nothing more.
    await resumed.search(search);
    expect(standIn.requests.slice(before).filter((request) => request.method === 'GET')).toHaveLength(3);
  });

  it('stores one episode per turn and ranks turns from episode metadata when asked', async () => {
    const { standIn, memory } = await setUp({ episode: 'turn', scope: 'episodes' });
    await memory.ingest('ns-1', STAND_IN_SESSIONS);
    expect(standIn.requests.filter((request) => request.path === '/graph')).toHaveLength(5);
    const reply = await memory.search({
      namespace: 'ns-1',
      query: 'she works at a bakery',
      topK: 2,
      granularity: 'turn',
    });
    expect(reply.hits[0]).toEqual({ session_id: 's-91bc', turn_index: 2, score: expect.any(Number) });
    expect(reply.hits).toHaveLength(2);
    expect(standIn.rejected).toEqual([]);
  });

  it('deletes the user on reset, and creates it again on the next ingest', async () => {
    const { standIn, memory, users, episodes } = await setUp();
    await memory.ingest('ns-1', STAND_IN_SESSIONS);
    await memory.reset('ns-1');
    expect(users.has('ns-1')).toBe(false);
    expect(episodes).toEqual([]);
    await memory.reset('ns-1');
    await memory.ingest('ns-1', STAND_IN_SESSIONS.slice(0, 1));
    expect(users.has('ns-1')).toBe(true);
    expect(
      standIn.requests.filter((request) => request.method === 'POST' && request.path === '/users'),
    ).toHaveLength(2);
    expect(standIn.rejected).toEqual([]);
  });

  it('splits a session longer than max-episode-chars into episodes with the same metadata', async () => {
    const { standIn, memory } = await setUp({ 'max-episode-chars': '500' });
    const long = {
      ...STAND_IN_SESSIONS[0]!,
      turns: [{ role: 'user' as const, content: 'word '.repeat(250), turn_index: 0 }],
    };
    await memory.ingest('ns-1', [long]);
    const adds = standIn.requests.filter((request) => request.path === '/graph');
    expect(adds).toHaveLength(3);
    expect(adds.every((request) => (request.body as { data: string }).data.length <= 500)).toBe(true);
    expect(
      new Set(adds.map((request) => JSON.stringify((request.body as { metadata: unknown }).metadata))).size,
    ).toBe(1);
  });

  it('refuses turn granularity when episodes hold sessions, in one sentence', async () => {
    const { memory } = await setUp();
    await expect(
      memory.search({ namespace: 'ns-1', query: 'dog', topK: 3, granularity: 'turn' }),
    ).rejects.toThrow(/^zep ranks whole sessions only \(.+\); run it with --granularity session\.$/);
  });
});
