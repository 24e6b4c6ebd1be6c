import { createRequire } from 'node:module';
import type { MemoryDocument } from '../../core/retriever.js';

// compromise takes about a second to load: loaded on first use, so runs without the graph skip it.
const require = createRequire(import.meta.url);
let nlpModule: typeof import('compromise').default | undefined;
const nlp = (text: string) => {
  nlpModule ??= require('compromise') as typeof import('compromise').default;
  return nlpModule(text);
};

const SENTENCE = /[^.!?\n]+[.!?]*/g;
/** A capitalised word (or run of them) that does not start its sentence. */
const INNER_NAME = /(?<=[\p{L}\p{N},;:]\s+)[A-Z][\p{L}\p{N}&'’-]+(?:\s+[A-Z][\p{L}\p{N}&'’-]+)*/gu;
const NOT_NAMES = new Set(
  'i im ive id ill the a an and or but my our your monday tuesday wednesday thursday friday saturday sunday january february march april may june july august september october november december'.split(
    ' ',
  ),
);
/** Entities per text, shared across haystacks (S haystacks repeat many sessions). */
const memo = new Map<string, string[]>();
const MEMO_LIMIT = 200_000;

/** A graph key: lower case, no possessive, no punctuation at the ends. */
export function entityKey(entity: string): string {
  return entity
    .toLowerCase()
    .replace(/['’]s\b/g, '')
    .replace(/[^\p{L}\p{N}\s&-]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * The entities of one user text: the people, places and organisations compromise finds in its
 * sentences that hold a capitalised word after their first (as the extractive summarizer reads
 * them, about 8 ms per 1,500 characters), and the capitalised names inside sentences.
 */
export function textEntities(text: string): string[] {
  const known = memo.get(text);
  if (known) return known;
  const sentences = text.match(SENTENCE)?.filter((sentence) => /\s[A-Z]/.test(sentence.trim())) ?? [];
  const found = new Set<string>();
  if (sentences.length > 0) {
    for (const topic of nlp(sentences.join(' ')).topics().out('array') as string[])
      found.add(entityKey(topic));
    for (const sentence of sentences)
      for (const match of sentence.trim().matchAll(INNER_NAME)) found.add(entityKey(match[0]));
  }
  const entities = [...found].filter((key) => key.length > 1 && !NOT_NAMES.has(key));
  if (memo.size >= MEMO_LIMIT) memo.clear();
  memo.set(text, entities);
  return entities;
}

export type EntityGraph = {
  /** Entity → the documents that mention it. */
  documentsOf: Map<string, Set<number>>;
  /** Entity → co-occurring entity → number of user texts mentioning both. */
  neighbours: Map<string, Map<string, number>>;
  /** Session id → the entities of its documents. */
  sessionEntities: Map<string, Set<string>>;
  /** Entities per document. */
  entitiesOf: string[][];
};

/**
 * The entity graph of a haystack, built at ingest from the user side: nodes are entities, edges
 * link entities mentioned in the same user text (weight: how many texts), and every entity links
 * to the documents (turns or sessions) and sessions that mention it. A document's user texts are
 * its parts (a session) or its own text when it is a user turn; assistant turns add nothing.
 */
export function buildEntityGraph(documents: readonly MemoryDocument[]): EntityGraph {
  const graph: EntityGraph = {
    documentsOf: new Map(),
    neighbours: new Map(),
    sessionEntities: new Map(),
    entitiesOf: [],
  };
  // Pass 1: the entities each user text names. Pass 2: a text also mentions every entity named
  // anywhere in the haystack whose words it contains (a sentence-initial "Marie" compromise was not
  // asked about still links to Marie).
  const textsOf = documents.map((document) =>
    document.role === 'assistant' ? [] : (document.parts ?? [document.text]),
  );
  const named = textsOf.map((texts) => texts.map(textEntities));
  const known = new Set(named.flat(2));
  textsOf.forEach((texts, index) => {
    const document = documents[index]!;
    const all = new Set<string>();
    texts.forEach((text, part) => {
      const normalised = ` ${entityKey(text)} `;
      const entities = new Set(named[index]![part]);
      for (const entity of known) if (normalised.includes(` ${entity} `)) entities.add(entity);
      for (const entity of entities) {
        all.add(entity);
        const links = graph.neighbours.get(entity) ?? new Map<string, number>();
        graph.neighbours.set(entity, links);
        for (const other of entities) if (other !== entity) links.set(other, (links.get(other) ?? 0) + 1);
      }
    });
    graph.entitiesOf.push([...all]);
    for (const entity of all) {
      const holders = graph.documentsOf.get(entity) ?? new Set<number>();
      holders.add(index);
      graph.documentsOf.set(entity, holders);
    }
    const session = graph.sessionEntities.get(document.sessionId) ?? new Set<string>();
    for (const entity of all) session.add(entity);
    graph.sessionEntities.set(document.sessionId, session);
  });
  return graph;
}

export type GraphSearch = {
  /** Graph entities matched by the query's entities. */
  seeds: string[];
  /** One score per document (0: not reached). */
  scores: Float64Array;
};

/**
 * Scores documents by graph proximity to the query's entities. Seeds are the graph entities equal
 * to a query entity or containing it as whole words. A document scores idf(seed) for each seed it
 * mentions, half of idf × the edge share for each neighbour of a seed it mentions (one hop), and a
 * quarter of idf for each seed its session mentions elsewhere (the turn–session link).
 */
export function searchEntityGraph(
  graph: EntityGraph,
  queryEntities: readonly string[],
  documents: readonly MemoryDocument[],
): GraphSearch {
  const scores = new Float64Array(documents.length);
  const keys = queryEntities.map(entityKey).filter((key) => key.length > 1);
  const seeds = [...graph.documentsOf.keys()].filter((entity) =>
    keys.some((key) => ` ${entity} `.includes(` ${key} `)),
  );
  if (seeds.length === 0) return { seeds, scores };
  const idf = (entity: string) =>
    Math.log((documents.length + 1) / ((graph.documentsOf.get(entity)?.size ?? 0) + 1)) + 1;
  const seedSet = new Set(seeds);
  for (const seed of seeds) {
    const weight = idf(seed);
    for (const document of graph.documentsOf.get(seed) ?? []) scores[document]! += weight;
    const links = graph.neighbours.get(seed);
    if (links) {
      const total = [...links.values()].reduce((sum, count) => sum + count, 0);
      for (const [neighbour, count] of links) {
        if (seedSet.has(neighbour)) continue;
        const share = (0.5 * idf(neighbour) * count) / total;
        for (const document of graph.documentsOf.get(neighbour) ?? []) scores[document]! += share;
      }
    }
  }
  documents.forEach((document, index) => {
    const session = graph.sessionEntities.get(document.sessionId);
    if (!session) return;
    for (const seed of seeds)
      if (session.has(seed) && !graph.entitiesOf[index]!.includes(seed)) scores[index]! += 0.25 * idf(seed);
  });
  return { seeds, scores };
}
