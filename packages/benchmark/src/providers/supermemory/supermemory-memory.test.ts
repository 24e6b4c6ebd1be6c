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
import { supermemoryDescriptor } from './descriptor.js';
import { createSupermemoryMemory } from './supermemory-memory.js';

/**
 * A stand-in for supermemory following its OpenAPI document (3.0.0, supermemoryai/sdk-ts
 * e8ad71ab): `Authorization: Bearer <key>`; POST /v3/documents (content, containerTag of
 * `[A-Za-z0-9._-]` up to 100, customId likewise, metadata of scalars, dreaming) → `{id, status:
 * queued}`, `embedding` on the first look and `done` after; POST /v4/search (q, containerTag,
 * limit ≤ 100, threshold, rerank, searchMode, include) → memories (one per line of a document)
 * whose own metadata is null, with the document they came from, plus one memory from no document;
 * DELETE /v3/container-tags/{tag}; GET /v3/settings.
 */
const tag = z.string().regex(/^[A-Za-z0-9._-]{1,100}$/);
const addBody = z
  .object({
    content: z.string().min(1),
    containerTag: tag.optional(),
    customId: tag.optional(),
    metadata: z
      .record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.array(z.string())]))
      .optional(),
    dreaming: z.enum(['dynamic', 'instant']).optional(),
  })
  .strict();
const searchBody = z
  .object({
    q: z.string().min(1),
    containerTag: z.string().optional(),
    limit: z.number().int().min(1).max(100).optional(),
    threshold: z.number().min(0).max(1).optional(),
    rerank: z.boolean().optional(),
    searchMode: z.enum(['memories', 'hybrid', 'documents']).optional(),
    include: z
      .object({
        documents: z.boolean().optional(),
        summaries: z.boolean().optional(),
        chunks: z.boolean().optional(),
      })
      .strict()
      .optional(),
  })
  .strict();

type Document = z.infer<typeof addBody> & { id: string; looks: number };

async function startSupermemoryStandIn() {
  const documents: Document[] = [];
  const words = (text: string) => new Set(text.toLowerCase().match(/[a-z]+/g) ?? []);
  const routes: StandInRoute[] = [
    { method: 'GET', path: /^\/v3\/settings$/, reply: () => ({ body: { shouldLLMFilter: false } }) },
    {
      method: 'POST',
      path: /^\/v3\/documents$/,
      body: addBody,
      reply: ({ body }) => {
        const add = addBody.parse(body);
        const existing = documents.findIndex((document) => document.customId === add.customId);
        const id = `doc${String(documents.length).padStart(19, '0')}`;
        const document = { ...add, id, looks: 0 };
        if (existing >= 0) documents[existing] = document;
        else documents.push(document);
        return { body: { id, status: 'queued' } };
      },
    },
    {
      method: 'GET',
      path: /^\/v3\/documents\/([^/]+)$/,
      reply: (_request, [id]) => {
        const document = documents.find((candidate) => candidate.id === id);
        if (!document) return { status: 404, body: { error: 'Document not found' } };
        return {
          body: { id, status: document.looks++ === 0 ? 'embedding' : 'done', metadata: document.metadata },
        };
      },
    },
    {
      method: 'DELETE',
      path: /^\/v3\/container-tags\/([^/]+)$/,
      reply: (_request, [containerTag]) => {
        const before = documents.length;
        for (let index = documents.length - 1; index >= 0; index--) {
          if (documents[index]!.containerTag === containerTag) documents.splice(index, 1);
        }
        if (before === documents.length) return { status: 404, body: { error: 'Container tag not found' } };
        return {
          body: {
            success: true,
            containerTag,
            deletedDocumentsCount: before - documents.length,
            deletedMemoriesCount: 0,
          },
        };
      },
    },
    {
      method: 'POST',
      path: /^\/v4\/search$/,
      body: searchBody,
      reply: ({ body }) => {
        const search = searchBody.parse(body);
        const query = words(search.q);
        const memories = documents
          .filter((document) => document.containerTag === search.containerTag)
          .flatMap((document) =>
            document.content
              .split('\n')
              .slice(1)
              .map((line, index) => ({
                id: `${document.id}-${index}`,
                memory: line,
                metadata: null,
                updatedAt: 'x',
                similarity: [...words(line)].filter((word) => query.has(word)).length / (query.size || 1),
                documents: [{ id: document.id, createdAt: 'x', updatedAt: 'x', metadata: document.metadata }],
              })),
          );
        memories.push({
          id: 'orphan',
          memory: 'sister bakery Lisbon',
          metadata: null,
          updatedAt: 'x',
          similarity: 0.99,
          documents: [],
        });
        const results = memories
          .filter((memory) => memory.similarity >= (search.threshold ?? 0.6))
          .sort((a, b) => b.similarity - a.similarity)
          .slice(0, search.limit ?? 10);
        return { body: { results, timing: 1, total: results.length } };
      },
    },
  ];
  const standIn = await startHostedStandIn({
    routes,
    authorized: (headers) => headers.authorization === `Bearer ${STAND_IN_KEY}`,
    unauthorizedBody: { error: 'Unauthorized', details: 'Invalid API key' },
  });
  return { standIn, documents };
}

const contract: HostedContract<Awaited<ReturnType<typeof startSupermemoryStandIn>>> = {
  displayName: 'supermemory',
  apiKeyEnv: 'SUPERMEMORY_API_KEY',
  start: startSupermemoryStandIn,
  create: (options, dependencies, hooks) =>
    createSupermemoryMemory(parseProviderOptions(supermemoryDescriptor, options), dependencies, hooks),
  search: { query: 'dog', topK: 5, granularity: 'session' },
};

describe('supermemory contract', () => {
  hostedContractChecks(contract);
});

describe('supermemory adapter', () => {
  const setUp = hostedSetUp(contract);

  it('adds each session as a document of the namespace container, waits until done, and maps memories back through their documents', async () => {
    const { standIn, memory, waits } = await setUp();
    await memory.preflight();
    await memory.reset('ns-1');
    await memory.ingest('ns-1', STAND_IN_SESSIONS);
    const adds = standIn.requests.filter((request) => request.path === '/v3/documents');
    expect(adds[0]!.body).toEqual({
      content:
        'Conversation date: 2023/05/20 (Sat) 02:21\nuser: I adopted a greyhound called Comet last week.\nassistant: Congratulations on adopting Comet!',
      containerTag: 'ns-1',
      customId: 'ns-1.s-7f3a',
      metadata: { lme_session_id: 's-7f3a', lme_date: '2023/05/20 (Sat) 02:21' },
      dreaming: 'dynamic',
    });
    expect(adds).toHaveLength(2);
    expect(standIn.requests.filter((request) => request.path.startsWith('/v3/documents/'))).toHaveLength(4);
    expect(waits).toEqual([2000, 2000]);
    expect(
      standIn.requests.every((request) => request.headers.authorization === `Bearer ${STAND_IN_KEY}`),
    ).toBe(true);

    const reply = await memory.search({
      namespace: 'ns-1',
      query: 'sister bakery',
      topK: 500,
      granularity: 'session',
    });
    expect(reply.hits.map((hit) => hit.session_id)).toEqual(['s-91bc', 's-7f3a']);
    expect(memory.droppedHits()).toBe(1);
    expect(standIn.requests.find((request) => request.path === '/v4/search')?.body).toEqual({
      q: 'sister bakery',
      containerTag: 'ns-1',
      limit: 100,
      threshold: 0,
      rerank: false,
      searchMode: 'memories',
      include: { documents: true },
    });
    expect(standIn.rejected).toEqual([]);
  });

  it('turns a namespace that is not a valid container tag into a stable one, and deletes it on reset', async () => {
    const { standIn, memory, documents } = await setUp();
    await memory.ingest('run 7/conv-26', STAND_IN_SESSIONS);
    const containerTag = (
      standIn.requests.find((request) => request.path === '/v3/documents')!.body as { containerTag: string }
    ).containerTag;
    expect(containerTag).toMatch(/^lme-[0-9a-f]{32}$/);
    expect(documents).toHaveLength(2);
    await memory.reset('run 7/conv-26');
    expect(documents).toHaveLength(0);
    expect(standIn.requests.at(-1)!.path).toBe(`/v3/container-tags/${containerTag}`);
    // Nothing left: the 404 is a no-op.
    await memory.reset('run 7/conv-26');
    expect(standIn.rejected).toEqual([]);
  });

  it('refuses turn granularity in one sentence', async () => {
    const { memory } = await setUp();
    await expect(
      memory.search({ namespace: 'ns-1', query: 'dog', topK: 3, granularity: 'turn' }),
    ).rejects.toThrow(
      'supermemory ranks whole sessions only (each document lme adds is a whole session); run it with --granularity session.',
    );
  });
});
