import { describe, expect, it } from 'vitest';
import type { MemoryDocument, RetrievalHit, Retriever } from '../../core/retriever.js';
import { wordsTokenizer } from '../../lexical/tokenizer.js';
import { createHashingEmbedder } from '../../testing/hashing-embedder.js';
import { createMemoryVectorIndex } from '../../vector-index/memory-vector-index.js';
import { createDenseScorer } from '../dense-scorer.js';
import { adaptiveWeights } from './adaptive-weights.js';
import { haystackTime, scoreConversationContext } from './conversation-context-source.js';
import { buildEntityGraph, searchEntityGraph } from './entity-graph.js';
import { createMultiSourceRetriever } from './multi-source-retriever.js';

const documents: MemoryDocument[] = [
  {
    id: 'a',
    sessionId: 'S1',
    role: 'user',
    date: '2023/05/01 (Mon) 10:00',
    text: 'I visited the Louvre with Marie last spring.',
  },
  {
    id: 'b',
    sessionId: 'S1',
    role: 'user',
    date: '2023/05/01 (Mon) 10:00',
    text: 'Marie loves painting landscapes.',
  },
  {
    id: 'c',
    sessionId: 'S2',
    role: 'user',
    date: '2023/05/20 (Sat) 09:00',
    text: 'We talked about my new job at Acme Corp yesterday.',
  },
  {
    id: 'd',
    sessionId: 'S3',
    role: 'user',
    date: '2023/06/02 (Fri) 18:00',
    text: 'Can you suggest a recipe for dinner tonight?',
  },
  {
    id: 'e',
    sessionId: 'S3',
    role: 'assistant',
    date: '2023/06/02 (Fri) 18:00',
    text: 'Try a mushroom risotto for dinner.',
  },
  {
    id: 'f',
    sessionId: 'S4',
    role: 'user',
    date: '2023/07/01 (Sat) 12:00',
    text: 'A session after the question date about dinner.',
  },
];

describe('entity graph', () => {
  it('links entities of the same user turn and reaches a turn one hop from the query entity', () => {
    const graph = buildEntityGraph(documents);
    expect(graph.documentsOf.get('marie')).toEqual(new Set([0, 1]));
    expect(graph.neighbours.get('louvre')?.get('marie')).toBe(1);
    const { seeds, scores } = searchEntityGraph(graph, ['Louvre'], documents);
    expect(seeds).toEqual(['louvre']);
    // a: the seed itself; b: Marie, the Louvre's neighbour; c: nothing.
    expect(scores[0]).toBeGreaterThan(scores[1]!);
    expect(scores[1]).toBeGreaterThan(0);
    expect(scores[2]).toBe(0);
  });

  it('seeds every graph entity that contains a multi-word query entity as whole words', () => {
    const museums: MemoryDocument[] = [
      { id: 'm', sessionId: 'S', role: 'user', text: 'I went to the Natural History Museum with Ana.' },
      { id: 'n', sessionId: 'T', role: 'user', text: 'We saw the Prehistory Museums downtown.' },
    ];
    const { seeds } = searchEntityGraph(buildEntityGraph(museums), ['history museum'], museums);
    expect(seeds).toEqual(['natural history museum']);
  });

  it('finds no seed for a question without entities in the graph', () => {
    const { seeds, scores } = searchEntityGraph(buildEntityGraph(documents), ['weather'], documents);
    expect(seeds).toEqual([]);
    expect([...scores].every((score) => score === 0)).toBe(true);
  });
});

describe('conversation-context source', () => {
  it('scores the most recent sessions before the question by recency, keyword overlap and role', () => {
    const { sessions, scores } = scoreConversationContext({
      documents,
      query: 'What should I cook for dinner?',
      queryDate: '2023/06/05 (Mon) 08:00',
      tokenizer: wordsTokenizer,
      context: { recentSessions: 2 },
    });
    expect(sessions).toEqual(['S3', 'S2']); // S4 is after the question
    expect(scores[0]).toBe(0);
    expect(scores[5]).toBe(0);
    // d and e share the latest session and the word dinner; e is the assistant's (role 0.5).
    const overlap = 1 / new Set(wordsTokenizer.tokenize('What should I cook for dinner?')).size;
    expect(scores[3]).toBeCloseTo(0.5 + 0.3 * overlap + 0.2);
    expect(scores[4]).toBeCloseTo(0.5 + 0.3 * overlap + 0.2 * 0.5);
    // c: the session before (recency 1/2), no shared word, a user turn.
    expect(scores[2]).toBeCloseTo(0.5 / 2 + 0.2);
  });

  it('reads haystack dates', () => {
    expect(haystackTime('2023/05/30 (Tue) 23:40')).toBe(Date.UTC(2023, 4, 30, 23, 40));
    expect(haystackTime('yesterday')).toBeNaN();
  });
});

describe('adaptive weights', () => {
  it('doubles the context source for a pronoun and raises the graph for a name, recording the cues', () => {
    const plain = adaptiveWeights('what did I cook for dinner?');
    expect(plain.cues).toEqual([]);
    expect(plain.weights.memory).toBeCloseTo(0.6);
    const cued = adaptiveWeights('Where did I go with Marie after that?');
    expect(cued.cues).toEqual(['pronoun "that" → context ×2', 'name "Marie" → graph ×1.5']);
    const total = 0.6 + 0.25 * 1.5 + 0.15 * 2;
    expect(cued.weights.context).toBeCloseTo(0.3 / total);
    expect(cued.weights.graph).toBeCloseTo(0.375 / total);
  });
});

describe('multi-source retriever', () => {
  /** Stored memory that ranks documents in a fixed order. */
  const fixedMemory = (order: string[]): Retriever => {
    let indexed: readonly MemoryDocument[] = [];
    return {
      id: 'fixed',
      index: async ({ documents: given }) => {
        indexed = given;
      },
      search: async () =>
        order.map((id, rank): RetrievalHit => {
          const document = indexed.findIndex((entry) => entry.id === id);
          return {
            document,
            id,
            sessionId: indexed[document]!.sessionId,
            score: order.length - rank,
            routes: {},
          };
        }),
    };
  };

  it('lets the graph lift a turn about the named entity into the top and records per-source counts', async () => {
    const retriever = createMultiSourceRetriever({
      memory: fixedMemory(['c', 'd', 'e', 'f', 'b', 'a']),
      tokenizer: wordsTokenizer,
      weights: { memory: 0.5, graph: 0.5, context: 0 },
      finalK: 3,
    });
    await retriever.index({ documents });
    const hits = await retriever.search({
      query: 'When did I visit the Louvre?',
      queryDate: '2023/06/05 (Mon) 08:00',
      limit: 6,
    });
    expect(hits[0]!.id).toBe('a');
    expect(hits[0]!.routes.graph!.rank).toBe(1);
    const trace = retriever.lastTrace()!;
    expect(trace.graph_seeds).toEqual(['louvre']);
    expect(trace.scored.graph).toBe(2);
    expect(trace.top5_entered).toContainEqual({ id: 'a', memory_rank: 6, lifted_by: 'graph' });
    expect(trace.top_k_from.graph).toBeGreaterThanOrEqual(1);
  });

  it('merges near-duplicate hits by embedding similarity', async () => {
    const twins: MemoryDocument[] = [
      { id: 'x', sessionId: 'S1', text: 'the same words exactly' },
      { id: 'y', sessionId: 'S2', text: 'the same words exactly' },
      { id: 'z', sessionId: 'S3', text: 'something else entirely' },
    ];
    const dense = createDenseScorer({
      embedder: createHashingEmbedder({ dimensions: 64 }),
      createIndex: ({ dimensions }) => createMemoryVectorIndex({ dimensions }),
    });
    const memory = fixedMemory(['x', 'y', 'z']);
    const retriever = createMultiSourceRetriever({
      memory: {
        ...memory,
        index: async (options) => {
          await memory.index(options);
          await dense.index({ ...options, namespace: 'n' });
        },
      },
      tokenizer: wordsTokenizer,
      dense,
      finalK: 2,
    });
    await retriever.index({ documents: twins });
    const hits = await retriever.search({ query: 'words', limit: 10 });
    expect(hits.map((hit) => hit.id)).toEqual(['x', 'z']);
    expect(retriever.lastTrace()!.merges).toEqual([
      { kept: 'x', removed: ['y'], similarity: expect.closeTo(1, 5) },
    ]);
  });
});
