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
} from '../../testing/hosted-contract-checks.js';
import { parseProviderOptions } from '../provider-registry.js';
import { mem0PlatformDescriptor } from './descriptor.js';
import { createMem0PlatformMemory } from './mem0-platform-memory.js';

/**
 * A stand-in for Mem0 Platform following its OpenAPI document (mem0ai/mem0 docs/openapi.json at
 * 8d5b7865): `Authorization: Token <key>`; POST /v3/memories/add/ (messages, user_id, metadata,
 * infer, timestamp) answered `{event_id, status: PENDING}`, the event RUNNING on its first look
 * and SUCCEEDED after; POST /v3/memories/search/ (query, filters with user_id, top_k, threshold,
 * rerank, reference_date) answered `{results: [{id, memory, score, metadata}]}`; DELETE
 * /v1/memories/?user_id= queued as an event; GET /v1/ping/.
 */
const addBody = z
  .object({
    messages: z
      .array(z.object({ role: z.enum(['user', 'assistant', 'system']), content: z.string() }).strict())
      .min(1),
    user_id: z.string().min(1),
    metadata: z.record(z.string(), z.unknown()).optional(),
    infer: z.boolean().optional(),
    timestamp: z.number().int().optional(),
  })
  .strict();
const searchBody = z
  .object({
    query: z.string().min(1),
    filters: z.object({ user_id: z.string().min(1) }).strict(),
    top_k: z.number().int().min(1).max(1000).optional(),
    threshold: z.number().min(0).max(1).optional(),
    rerank: z.boolean().optional(),
    reference_date: z.union([z.string(), z.number()]).optional(),
  })
  .strict();

type Stored = { id: string; user: string; memory: string; metadata: Record<string, unknown> | null };

type Mem0StandInOptions = { eventNeverEnds?: boolean };

async function startMem0StandIn(options: Mem0StandInOptions = {}) {
  const memories: Stored[] = [];
  const eventLooks = new Map<string, number>();
  let next = 0;
  const newEvent = () => {
    const id = `00000000-0000-4000-8000-${String(++next).padStart(12, '0')}`;
    eventLooks.set(id, 0);
    return id;
  };
  const words = (text: string) => new Set(text.toLowerCase().match(/[a-z]+/g) ?? []);
  const routes: StandInRoute[] = [
    {
      method: 'GET',
      path: /^\/v1\/ping\/$/,
      reply: () => ({ body: { status: 'ok', org_id: 'o', project_id: 'p' } }),
    },
    {
      method: 'POST',
      path: /^\/v3\/memories\/add\/$/,
      body: addBody,
      reply: ({ body }) => {
        const add = addBody.parse(body);
        for (const message of add.messages) {
          memories.push({
            id: `m${memories.length}`,
            user: add.user_id,
            memory: message.content,
            metadata: add.metadata ?? null,
          });
        }
        return { body: { event_id: newEvent(), status: 'PENDING' } };
      },
    },
    {
      method: 'GET',
      path: /^\/v1\/event\/([^/]+)\/$/,
      reply: (_request, [id]) => {
        const looks = eventLooks.get(id!);
        if (looks === undefined) return { status: 404, body: { error: 'Event not found.' } };
        eventLooks.set(id!, looks + 1);
        const status = options.eventNeverEnds ? 'PENDING' : looks === 0 ? 'RUNNING' : 'SUCCEEDED';
        return { body: { id, event_type: 'ADD', status } };
      },
    },
    {
      method: 'POST',
      path: /^\/v3\/memories\/search\/$/,
      body: searchBody,
      reply: ({ body }) => {
        const search = searchBody.parse(body);
        const query = words(search.query);
        const results = memories
          .filter((memory) => memory.user === search.filters.user_id)
          .map((memory) => ({
            ...memory,
            score: [...words(memory.memory)].filter((word) => query.has(word)).length / (query.size || 1),
          }))
          .filter((memory) => memory.score >= (search.threshold ?? 0.1))
          .sort((a, b) => b.score - a.score)
          .slice(0, search.top_k ?? 10)
          .map(({ id, memory, score, metadata, user }) => ({ id, memory, score, metadata, user_id: user }));
        return { body: { results } };
      },
    },
    {
      method: 'DELETE',
      path: /^\/v1\/memories\/$/,
      query: ['user_id'],
      reply: ({ query }) => {
        const user = query.get('user_id');
        for (let index = memories.length - 1; index >= 0; index--) {
          if (memories[index]!.user === user) memories.splice(index, 1);
        }
        return { body: { message: 'Delete in progress. This may take some time.', event_id: newEvent() } };
      },
    },
  ];
  const standIn = await startHostedStandIn({
    routes,
    authorized: (headers) => headers.authorization === `Token ${STAND_IN_KEY}`,
    unauthorizedBody: { detail: 'Invalid API key.' },
  });
  return { standIn, memories };
}

const contract: HostedContract<Awaited<ReturnType<typeof startMem0StandIn>>, Mem0StandInOptions> = {
  displayName: 'Mem0 Platform',
  apiKeyEnv: 'MEM0_API_KEY',
  start: startMem0StandIn,
  create: (options, dependencies, hooks) =>
    createMem0PlatformMemory(parseProviderOptions(mem0PlatformDescriptor, options), dependencies, hooks),
  search: { query: 'dog', topK: 5, granularity: 'session' },
};

describe('mem0-platform contract', () => {
  hostedContractChecks(contract);
});

describe('mem0-platform adapter', () => {
  const setUp = hostedSetUp(contract);

  it('adds each session under the namespace user with its id and date, waits for the events, and maps memories back', async () => {
    const { standIn, memory, memories, waits } = await setUp();
    await memory.preflight();
    await memory.reset('ns-1');
    await memory.ingest('ns-1', STAND_IN_SESSIONS);
    const adds = standIn.requests.filter((request) => request.path === '/v3/memories/add/');
    expect(adds.map((request) => request.body)).toEqual([
      {
        messages: [
          { role: 'user', content: 'I adopted a greyhound called Comet last week.' },
          { role: 'assistant', content: 'Congratulations on adopting Comet!' },
        ],
        user_id: 'ns-1',
        metadata: { lme_session_id: 's-7f3a', lme_date: '2023/05/20 (Sat) 02:21' },
        infer: true,
        timestamp: Date.UTC(2023, 4, 20, 2, 21) / 1000,
      },
      expect.objectContaining({
        user_id: 'ns-1',
        metadata: expect.objectContaining({ lme_session_id: 's-91bc' }),
      }),
    ]);
    expect(
      standIn.requests.every((request) => request.headers.authorization === `Token ${STAND_IN_KEY}`),
    ).toBe(true);
    // Each add's event was looked at until it succeeded (RUNNING first), with a recorded wait between.
    expect(standIn.requests.filter((request) => request.path.startsWith('/v1/event/'))).toHaveLength(
      2 + 2 * 2,
    );
    expect(waits).toEqual([2000, 2000, 2000]);
    expect(memories).toHaveLength(5);

    const reply = await memory.search({
      namespace: 'ns-1',
      query: 'where does my sister work at the bakery',
      queryDate: '2023/07/01 (Sat) 10:00',
      topK: 10,
      granularity: 'session',
    });
    // Threshold 0: the whole ranking comes back, the session about the sister first.
    expect(reply.hits.map((hit) => hit.session_id)).toEqual(['s-91bc', 's-7f3a']);
    expect(reply.hits[0]!.turn_index).toBeUndefined();
    expect(reply.hits[0]!.score).toBeGreaterThan(reply.hits[1]!.score);
    const search = standIn.requests.find((request) => request.path === '/v3/memories/search/');
    expect(search?.body).toEqual({
      query: 'where does my sister work at the bakery',
      filters: { user_id: 'ns-1' },
      top_k: 30,
      threshold: 0,
      rerank: false,
      reference_date: '2023-07-01T10:00:00.000Z',
    });
    expect(standIn.rejected).toEqual([]);
  });

  it('deletes the namespace user on reset and waits for the deletion to run', async () => {
    const { standIn, memory, memories } = await setUp();
    await memory.ingest('ns-1', STAND_IN_SESSIONS);
    await memory.ingest('ns-2', STAND_IN_SESSIONS.slice(0, 1));
    await memory.reset('ns-1');
    expect(memories.map((stored) => stored.user)).toEqual(['ns-2', 'ns-2']);
    const deletion = standIn.requests.findIndex((request) => request.method === 'DELETE');
    expect(standIn.requests[deletion]!.query.get('user_id')).toBe('ns-1');
    expect(standIn.requests.slice(deletion + 1).map((request) => request.path)).toEqual([
      expect.stringMatching(/^\/v1\/event\/.+\/$/),
      expect.stringMatching(/^\/v1\/event\/.+\/$/),
    ]);
    expect(standIn.rejected).toEqual([]);
  });

  it('drops and counts memories whose metadata names no session lme sent', async () => {
    const { memory, memories } = await setUp();
    await memory.ingest('ns-1', STAND_IN_SESSIONS);
    memories.push({ id: 'derived', user: 'ns-1', memory: 'sister Lisbon bakery summary', metadata: null });
    const reply = await memory.search({
      namespace: 'ns-1',
      query: 'sister Lisbon bakery',
      topK: 5,
      granularity: 'session',
    });
    expect(reply.hits.map((hit) => hit.session_id)).toEqual(['s-91bc', 's-7f3a']);
    expect(memory.droppedHits()).toBe(1);
  });

  it('sends infer false, no reference date and the threshold given as options', async () => {
    const { standIn, memory } = await setUp({ infer: 'false', 'reference-date': 'false', threshold: '0.2' });
    await memory.ingest('ns-1', STAND_IN_SESSIONS.slice(0, 1));
    await memory.search({
      namespace: 'ns-1',
      query: 'dog',
      queryDate: '2023/07/01',
      topK: 3,
      granularity: 'session',
    });
    expect(standIn.requests.find((request) => request.path === '/v3/memories/add/')?.body).toMatchObject({
      infer: false,
    });
    const search = standIn.requests.find((request) => request.path === '/v3/memories/search/')?.body;
    expect(search).toMatchObject({ threshold: 0.2 });
    expect(search).not.toHaveProperty('reference_date');
  });

  it('refuses turn granularity in one sentence', async () => {
    const { memory } = await setUp();
    await expect(
      memory.search({ namespace: 'ns-1', query: 'dog', topK: 3, granularity: 'turn' }),
    ).rejects.toThrow(
      'mem0-platform ranks whole sessions only (a Mem0 memory is distilled from a whole session); run it with --granularity session.',
    );
  });

  it('gives up waiting for an event after max-wait-ms of waits, naming the option', async () => {
    const { memory, waits } = await setUp(
      { 'max-wait-ms': '5000', 'poll-interval-ms': '2000' },
      { standInOptions: { eventNeverEnds: true } },
    );
    await expect(memory.ingest('ns-1', STAND_IN_SESSIONS.slice(0, 1))).rejects.toThrow(
      /^Mem0 Platform ingest event \S+ was still processing after 4 s of waiting, the most lme waits \(raise it with --provider-option max-wait-ms=<ms>\)\.$/,
    );
    expect(waits).toEqual([2000, 2000]);
  });
});
