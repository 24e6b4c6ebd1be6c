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
import { lettaDescriptor } from './descriptor.js';
import { createLettaMemory } from './letta-memory.js';

/**
 * A stand-in for Letta following its TypeScript SDK (letta-ai/letta-node 8b1e9cea, 1.12.0):
 * `Authorization: Bearer <key>`; GET /v1/health/ → `{status, version}`; POST /v1/agents/
 * (AgentCreateParams: name, model, embedding, memory_blocks, include_base_tools, tags) →
 * AgentState; GET /v1/agents/?name=&limit= → AgentState[]; DELETE /v1/agents/{agent_id}; POST
 * /v1/agents/{agent_id}/archival-memory (text, created_at, tags) → Passage[]; GET
 * /v1/agents/{agent_id}/archival-memory/search?query=&top_k= → `{results: [{id, content,
 * timestamp, tags}], count}` (no scores).
 */
const createAgentBody = z
  .object({
    name: z.string().min(1),
    model: z.string().regex(/^[^/]+\/.+$/),
    embedding: z.string().regex(/^[^/]+\/.+$/),
    memory_blocks: z.array(z.object({ label: z.string(), value: z.string() })).optional(),
    include_base_tools: z.boolean().optional(),
    tags: z.array(z.string()).optional(),
  })
  .strict();
const insertBody = z
  .object({
    text: z.string().min(1),
    created_at: z.string().optional(),
    tags: z.array(z.string()).optional(),
  })
  .strict();

type Passage = z.infer<typeof insertBody> & { id: string };

async function startLettaStandIn() {
  const agents = new Map<string, { name: string; passages: Passage[] }>();
  const words = (text: string) => new Set(text.toLowerCase().match(/[a-z]+/g) ?? []);
  let next = 0;
  const routes: StandInRoute[] = [
    { method: 'GET', path: /^\/v1\/health\/$/, reply: () => ({ body: { status: 'ok', version: '0.16.7' } }) },
    {
      method: 'GET',
      path: /^\/v1\/agents\/$/,
      query: ['name', 'limit'],
      reply: ({ query }) => ({
        body: [...agents.entries()]
          .filter(([, agent]) => !query.has('name') || agent.name === query.get('name'))
          .slice(0, Number(query.get('limit') ?? 50))
          .map(([id, agent]) => ({ id, name: agent.name })),
      }),
    },
    {
      method: 'POST',
      path: /^\/v1\/agents\/$/,
      body: createAgentBody,
      reply: ({ body }) => {
        const id = `agent-00000000-0000-4000-8000-${String(++next).padStart(12, '0')}`;
        agents.set(id, { name: (body as { name: string }).name, passages: [] });
        return { body: { id, name: (body as { name: string }).name } };
      },
    },
    {
      method: 'DELETE',
      path: /^\/v1\/agents\/([^/]+)$/,
      reply: (_request, [id]) =>
        agents.delete(id!) ? { body: {} } : { status: 404, body: { detail: 'Agent not found' } },
    },
    {
      method: 'POST',
      path: /^\/v1\/agents\/([^/]+)\/archival-memory$/,
      body: insertBody,
      reply: ({ body }, [id]) => {
        const agent = agents.get(id!);
        if (!agent) return { status: 404, body: { detail: 'Agent not found' } };
        const passage = { ...insertBody.parse(body), id: `passage-${++next}` };
        agent.passages.push(passage);
        return { body: [{ ...passage, embedding: null, embedding_config: null }] };
      },
    },
    {
      method: 'GET',
      path: /^\/v1\/agents\/([^/]+)\/archival-memory\/search$/,
      query: ['query', 'top_k'],
      reply: ({ query }, [id]) => {
        const agent = agents.get(id!);
        if (!agent) return { status: 404, body: { detail: 'Agent not found' } };
        const asked = words(query.get('query') ?? '');
        const results = agent.passages
          .map((passage) => ({
            passage,
            overlap: [...words(passage.text)].filter((word) => asked.has(word)).length,
          }))
          .sort((a, b) => b.overlap - a.overlap)
          .slice(0, Number(query.get('top_k') ?? 10))
          .map(({ passage }) => ({
            id: passage.id,
            content: passage.text,
            timestamp: 'x',
            tags: passage.tags ?? [],
          }));
        return { body: { results, count: results.length } };
      },
    },
  ];
  const standIn = await startHostedStandIn({
    routes,
    authorized: (headers) => headers.authorization === `Bearer ${STAND_IN_KEY}`,
    unauthorizedBody: { detail: 'Unauthorized' },
  });
  return { standIn, agents };
}

const contract: HostedContract<Awaited<ReturnType<typeof startLettaStandIn>>> = {
  displayName: 'Letta',
  apiKeyEnv: 'LETTA_API_KEY',
  start: startLettaStandIn,
  create: (options, dependencies, hooks) =>
    createLettaMemory(parseProviderOptions(lettaDescriptor, options), dependencies, hooks),
  search: { query: 'dog', topK: 5, granularity: 'session' },
};

describe('letta contract', () => {
  hostedContractChecks(contract);
});

describe('letta adapter', () => {
  const setUp = hostedSetUp(contract);

  it('stores each turn as a tagged archival passage of the namespace agent and maps passages back to turns', async () => {
    const { standIn, memory, agents } = await setUp();
    await memory.preflight();
    expect(memory.identity()).toMatchObject({ kind: 'letta', name: 'Letta', version: '0.16.7' });
    await memory.reset('ns-1');
    await memory.ingest('ns-1', STAND_IN_SESSIONS);
    expect(
      standIn.requests.find((request) => request.method === 'POST' && request.path === '/v1/agents/')?.body,
    ).toEqual({
      name: 'lme-ns-1',
      model: 'openai/gpt-4o-mini',
      embedding: 'openai/text-embedding-3-small',
      memory_blocks: [],
      include_base_tools: false,
      tags: ['lme'],
    });
    const [agent] = [...agents.values()];
    // Inserted several at a time: compare in session and turn order.
    const stored = agent!.passages
      .map(({ id: _id, ...passage }) => passage)
      .sort((a, b) => (a.tags ?? []).join().localeCompare((b.tags ?? []).join()));
    expect(stored).toEqual([
      {
        text: 'user: I adopted a greyhound called Comet last week.',
        created_at: '2023-05-20T02:21:00.000Z',
        tags: ['lme-session:s-7f3a', 'lme-turn:0'],
      },
      expect.objectContaining({ tags: ['lme-session:s-7f3a', 'lme-turn:1'] }),
      expect.objectContaining({ tags: ['lme-session:s-91bc', 'lme-turn:0'] }),
      expect.objectContaining({ tags: ['lme-session:s-91bc', 'lme-turn:1'] }),
      expect.objectContaining({
        text: 'user: She works at a bakery there.',
        tags: ['lme-session:s-91bc', 'lme-turn:2'],
      }),
    ]);
    expect(
      standIn.requests.every((request) => request.headers.authorization === `Bearer ${STAND_IN_KEY}`),
    ).toBe(true);

    const turns = await memory.search({
      namespace: 'ns-1',
      query: 'she works at a bakery',
      topK: 2,
      granularity: 'turn',
    });
    expect(turns.hits).toEqual([
      { session_id: 's-91bc', turn_index: 2, score: 1 },
      { session_id: expect.any(String), turn_index: expect.any(Number), score: 0.5 },
    ]);
    const sessions = await memory.search({
      namespace: 'ns-1',
      query: 'Comet the greyhound',
      topK: 10,
      granularity: 'session',
    });
    expect(sessions.hits.map((hit) => hit.session_id)).toEqual(['s-7f3a', 's-91bc']);
    const search = standIn.requests.findLast((request) => request.path.endsWith('/archival-memory/search'));
    expect(search?.query.get('query')).toBe('Comet the greyhound');
    expect(search?.query.get('top_k')).toBe('30');
    expect(standIn.rejected).toEqual([]);
  });

  it('drops and counts passages without lme tags, and finds nothing for a namespace it never ingested', async () => {
    const { memory, agents } = await setUp();
    await memory.ingest('ns-1', STAND_IN_SESSIONS);
    [...agents.values()][0]!.passages.unshift({ id: 'foreign', text: 'bakery bakery bakery' });
    const reply = await memory.search({
      namespace: 'ns-1',
      query: 'bakery',
      topK: 1,
      granularity: 'session',
    });
    expect(reply.hits).toEqual([{ session_id: 's-91bc', score: 0.5 }]);
    expect(memory.droppedHits()).toBe(1);
    expect(
      await memory.search({ namespace: 'ns-9', query: 'bakery', topK: 3, granularity: 'session' }),
    ).toEqual({ hits: [] });
  });

  it('deletes the namespace agent on reset and creates a new one on the next ingest', async () => {
    const { standIn, memory, agents } = await setUp();
    await memory.ingest('ns-1', STAND_IN_SESSIONS);
    await memory.ingest('ns-2', STAND_IN_SESSIONS.slice(0, 1));
    await memory.reset('ns-1');
    expect([...agents.values()].map((agent) => agent.name)).toEqual(['lme-ns-2']);
    await memory.ingest('ns-1', STAND_IN_SESSIONS.slice(0, 1));
    expect([...agents.values()].map((agent) => agent.name)).toEqual(['lme-ns-2', 'lme-ns-1']);
    expect(standIn.rejected).toEqual([]);
  });

  it('stores whole sessions with passage=session, and then refuses turn granularity in one sentence', async () => {
    const { memory, agents } = await setUp({ passage: 'session' });
    await memory.ingest('ns-1', STAND_IN_SESSIONS);
    expect([...agents.values()][0]!.passages.map((passage) => passage.tags)).toEqual([
      ['lme-session:s-7f3a'],
      ['lme-session:s-91bc'],
    ]);
    await expect(
      memory.search({ namespace: 'ns-1', query: 'dog', topK: 3, granularity: 'turn' }),
    ).rejects.toThrow(/^letta ranks whole sessions only \(.+\); run it with --granularity session\.$/);
  });
});
