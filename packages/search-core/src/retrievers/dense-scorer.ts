import { setTimeout as wait } from 'node:timers/promises';
import type { MemoryDocument } from '../core/retriever.js';
import { centroid } from '../core/vector-math.js';
import type { Embedder } from '../embedding/embedder.js';
import type { PayloadFilter, VectorIndex, VectorSearchHit } from '../vector-index/vector-index.js';

/**
 * Pseudo-relevance feedback (Rocchio) on the query vector: the query is moved towards the best
 * matching part of its top `documents` hits, by `weight`, and the haystack is searched again.
 */
export type DenseFeedback = { documents: number; weight: number };

const INCOMPLETE_SEARCH_DELAYS_MS = [100, 400, 1600] as const;

/** Creates the vector index for one haystack (memory, Qdrant, …). */
export type VectorIndexFactory = (options: { dimensions: number; namespace: string }) => VectorIndex;

export type DenseScorer = {
  /**
   * Embeds the documents and starts their upsert into the vector index; `namespace` keeps
   * haystacks apart in a shared store. It resolves without waiting for the upsert: a remote store
   * (Qdrant) applies it while the caller builds its other indexes, and the first search waits for
   * it (a failed upsert fails that search). Call it before the caller's own CPU work.
   */
  index(options: {
    documents: readonly MemoryDocument[];
    namespace: string;
    signal?: AbortSignal;
  }): Promise<void>;
  /**
   * Cosine similarity of the query (after feedback, if set) with every document (a document with
   * parts: its best part); 0 for documents the filter leaves out.
   */
  scoreAll(options: {
    query: string;
    sessionIds?: readonly string[];
    signal?: AbortSignal;
  }): Promise<Float64Array>;
  /** The document vectors in corpus order (kept for MMR, centroids and dedup). */
  vectors(): readonly Float32Array[];
  queryVector(query: string, signal?: AbortSignal): Promise<Float32Array>;
  drop(): Promise<void>;
};

/**
 * Dense scoring of one haystack: documents are embedded (through whatever cache wraps the
 * embedder), upserted into a vector index with their session id and position as payload, and a
 * query is answered by a filtered vector search over the whole haystack.
 */
export function createDenseScorer(options: {
  embedder: Embedder;
  createIndex: VectorIndexFactory;
  feedback?: DenseFeedback;
  /**
   * Waits before asking again when a search returns fewer points than the haystack holds for its
   * filter (a vector store mid-optimisation); after the last, the search fails. Default 100, 400, 1600 ms.
   */
  incompleteSearchDelaysMs?: readonly number[];
}): DenseScorer {
  const { embedder, createIndex, feedback } = options;
  const retryDelays = options.incompleteSearchDelaysMs ?? INCOMPLETE_SEARCH_DELAYS_MS;
  let index: VectorIndex | undefined;
  let namespace = '';
  let partsOf: Float32Array[][] = [];
  let documentVectors: Float32Array[] = [];
  let size = 0;
  let records = 0;
  /** The session id of every stored vector, to know how many points a filtered search must return. */
  let recordSessions: string[] = [];
  let sessionOfPosition: string[] = [];
  /** The upsert under way or done; searches wait for it. */
  let stored: Promise<void> = Promise.resolve();
  const queries = new Map<string, Float32Array>();
  /**
   * The unfiltered searches of the last query (its own vector, and its vector after feedback from
   * given documents), in rank order. A search of the same vector filtered to some sessions is their
   * hits in those sessions (a store ranks by score, ties by id), so session-aware's second stage
   * does not ask the store again for what its first stage has.
   */
  let whole: { query: string; hits: Map<string, readonly VectorSearchHit[]> } | undefined;

  const queryVector = async (query: string, signal?: AbortSignal) => {
    let vector = queries.get(query);
    if (!vector) {
      vector = await embedder.embedQuery({ text: query, signal });
      queries.set(query, vector);
    }
    return vector;
  };

  return {
    async index({ documents, namespace: space, signal }) {
      namespace = space;
      size = documents.length;
      // A document with parts is stored as one vector per part; others as one vector.
      const owners: number[] = [];
      const texts: string[] = [];
      documents.forEach((document, position) => {
        for (const text of document.parts ?? [document.text]) {
          owners.push(position);
          texts.push(text);
        }
      });
      const vectors = await embedder.embedDocuments({ texts, signal });
      records = vectors.length;
      recordSessions = owners.map((owner) => documents[owner]!.sessionId);
      whole = undefined;
      sessionOfPosition = documents.map((document) => document.sessionId);
      partsOf = documents.map(() => []);
      for (const [record, vector] of vectors.entries()) partsOf[owners[record]!]!.push(vector);
      documentVectors = partsOf.map((parts) =>
        parts.length === 1 ? parts[0]! : centroid(parts, embedder.dimensions),
      );
      index = createIndex({ dimensions: embedder.dimensions, namespace });
      stored = index.upsert({
        records: vectors.map((vector, record) => ({
          id: `${namespace}:${record}`,
          vector,
          payload: {
            namespace,
            session_id: documents[owners[record]!]!.sessionId,
            position: owners[record]!,
          },
        })),
        signal,
      });
      // Its failure is the first search's (or drop's) to report, not an unhandled rejection.
      stored.catch(() => {});
    },
    async scoreAll({ query, sessionIds, signal }) {
      if (!index) throw new Error('dense scorer: search before index');
      // The query embeds (on a worker thread) while the store finishes the upsert.
      const [vector] = await Promise.all([queryVector(query, signal), stored]);
      const filter: PayloadFilter = sessionIds ? { namespace, session_id: sessionIds } : { namespace };
      const wanted = new Set(sessionIds);
      const expected = sessionIds
        ? recordSessions.filter((sessionId) => wanted.has(sessionId)).length
        : records;
      // Every stored point the filter selects must come back: a missing one would score 0 and
      // change the ranking silently. A short reply is asked again, then fails the question.
      const search = async (vector: Float32Array) => {
        for (let attempt = 0; ; attempt++) {
          const hits = await index!.search({
            vector,
            limit: records,
            filter,
            payloadKeys: ['position'],
            signal,
          });
          if (hits.length >= expected) return hits;
          if (attempt === retryDelays.length) {
            throw new Error(
              `dense search in "${namespace}" returned ${hits.length} of the ${expected} points it asked for, ` +
                `${attempt + 1} times (${index!.id}); a vector store that answers a filtered search in part ` +
                'would change rankings silently, so the question fails (docs/qdrant.md).',
            );
          }
          await wait(retryDelays[attempt]!, undefined, signal ? { signal } : {});
        }
      };
      if (whole?.query !== query) whole = { query, hits: new Map() };
      const known = whole.hits;
      /** `key` names the vector: `query`, or `feedback:<positions>`. */
      const searchOnce = async (key: string, vector: Float32Array) => {
        if (!sessionIds) {
          const hits = await search(vector);
          known.set(key, hits);
          return hits;
        }
        const hits = known.get(key);
        return hits
          ? hits.filter((hit) => wanted.has(sessionOfPosition[hit.payload.position as number]!))
          : search(vector);
      };
      let hits = await searchOnce('query', vector);
      if (feedback && feedback.documents > 0 && feedback.weight > 0) {
        // Hits come best first: the first distinct positions are the top documents.
        const top = new Set<number>();
        for (const hit of hits) {
          if (top.size === feedback.documents) break;
          top.add(hit.payload.position as number);
        }
        if (top.size > 0) {
          const bestParts = [...top].map((position) => bestPart(partsOf[position]!, vector));
          hits = await searchOnce(
            `feedback:${[...top].join(',')}`,
            expandQuery(vector, bestParts, feedback.weight),
          );
        }
      }
      const scores = new Float64Array(size).fill(Number.NEGATIVE_INFINITY);
      for (const hit of hits) {
        const position = hit.payload.position as number;
        scores[position] = Math.max(scores[position]!, hit.score);
      }
      for (let position = 0; position < size; position++)
        if (scores[position] === Number.NEGATIVE_INFINITY) scores[position] = 0;
      return scores;
    },
    vectors: () => documentVectors,
    queryVector,
    async drop() {
      // After the upsert has settled: a delete sent first would leave its points behind.
      await stored.catch(() => {});
      await index?.drop();
      index = undefined;
      whole = undefined;
    },
  };
}

/** The part most similar to the query. */
function bestPart(parts: readonly Float32Array[], query: Float32Array): Float32Array {
  let best = parts[0]!;
  let bestScore = Number.NEGATIVE_INFINITY;
  for (const part of parts) {
    let score = 0;
    for (let index = 0; index < query.length; index++) score += part[index]! * query[index]!;
    if (score > bestScore) [best, bestScore] = [part, score];
  }
  return best;
}

/** Rocchio: the unit vector of query + weight × (unit mean of the feedback vectors). */
export function expandQuery(
  query: Float32Array,
  feedbackVectors: readonly Float32Array[],
  weight: number,
): Float32Array {
  const direction = centroid(feedbackVectors, query.length);
  const expanded = new Float32Array(query.length);
  for (let index = 0; index < query.length; index++)
    expanded[index] = query[index]! + weight * direction[index]!;
  return centroid([expanded], query.length);
}
