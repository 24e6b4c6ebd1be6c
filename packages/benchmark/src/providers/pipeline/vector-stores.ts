import {
  createMemoryVectorIndex,
  createQdrantVectorIndex,
  newQdrantCollectionName,
  safeUrl,
  type VectorIndex,
  type VectorIndexFactory,
} from '@lme/search-core';
import { fromRegistry } from '../../config/config-error.js';
import { checkEndpointUrl } from '../../config/secrets.js';
import type { EmbeddingSection } from '../../config/sections/embedding-section.js';

/** The embedding section's choice of vector store (`--vector-store`). */
type VectorStoreChoice = Pick<EmbeddingSection, 'vectorStore'>;

/** Where a pipeline's dense route keeps its vectors: an index per haystack, and the end of the run. */
export type VectorStore = {
  factory: VectorIndexFactory;
  close(): Promise<void>;
  /** Where the vectors live, for messages: `qdrant collection "lme-…" at http://…`. */
  describe?(): string;
};

/** `memory`: a fresh exact index per haystack. */
function createMemoryStore(): VectorStore {
  return { factory: ({ dimensions }) => createMemoryVectorIndex({ dimensions }), close: async () => {} };
}

/**
 * QDRANT_URL, checked (plain http(s), no credentials or query), QDRANT_API_KEY, and the optional
 * QDRANT_GRPC_URL (Qdrant's gRPC port, which takes the upserts: docs/qdrant.md), checked alike.
 */
export function qdrantSettings(environment: NodeJS.ProcessEnv): {
  url: string;
  apiKey?: string;
  grpcUrl?: string;
} {
  const url = environment.QDRANT_URL;
  if (!url)
    throw new Error('--vector-store qdrant needs QDRANT_URL (and QDRANT_API_KEY if the server wants one).');
  checkEndpointUrl(url, 'QDRANT_URL');
  const grpcUrl = environment.QDRANT_GRPC_URL;
  if (grpcUrl) checkEndpointUrl(grpcUrl, 'QDRANT_GRPC_URL');
  const apiKey = environment.QDRANT_API_KEY;
  return { url, ...(apiKey ? { apiKey } : {}), ...(grpcUrl ? { grpcUrl } : {}) };
}

/**
 * `qdrant`: one collection for the whole run (QDRANT_URL, optional QDRANT_API_KEY), named
 * `lme-<UTC time>-<random>` (two runs started in the same second, even as pid 1 in two
 * containers, never share one), haystacks kept apart by a `namespace` payload filter; each
 * haystack's points are deleted when its question ends, failed or not, and the collection when
 * the run ends. `lme qdrant collections --remove` removes what a crash left behind.
 */
function createQdrantStore(_embedding: VectorStoreChoice, environment: NodeJS.ProcessEnv): VectorStore {
  const { url, apiKey, grpcUrl } = qdrantSettings(environment);
  const collection = newQdrantCollectionName();
  let shared: VectorIndex | undefined;
  return {
    factory: ({ dimensions, namespace }) => {
      shared ??= createQdrantVectorIndex({
        url,
        ...(apiKey ? { apiKey } : {}),
        ...(grpcUrl ? { grpcUrl } : {}),
        collection,
        dimensions,
        // The keys searches filter on; `position` is only read back, and an index costs a
        // creation (~50-100 ms on Qdrant 1.18.3) and an update per point.
        filterKeys: { namespace: 'keyword', session_id: 'keyword' },
      });
      const index = shared;
      return {
        id: index.id,
        upsert: (options) => index.upsert(options),
        search: (options) => index.search(options),
        delete: (options) => index.delete(options),
        // Nothing reads a finished question's points again: Qdrant answers once the delete is
        // logged and applies it while the next question loads (its upsert is queued after it).
        drop: () => index.delete({ filter: { namespace }, wait: false }),
      };
    },
    close: async () => {
      try {
        await shared?.drop();
      } catch (error) {
        throw new Error(
          `${(error as Error).message.replace(/\.$/, '')}; remove it and any other left-over collection with \`lme qdrant collections --remove\`.`,
          { cause: error },
        );
      }
    },
    describe: () =>
      `Qdrant collection "${collection}" at ${safeUrl(url)}${grpcUrl ? ` (upserts over gRPC at ${safeUrl(grpcUrl)})` : ''}`,
  };
}

/** The vector stores `--vector-store` selects. */
export const VECTOR_STORES = {
  memory: createMemoryStore,
  qdrant: createQdrantStore,
} as const satisfies Record<
  EmbeddingSection['vectorStore'],
  (embedding: VectorStoreChoice, environment: NodeJS.ProcessEnv) => VectorStore
>;

/** The vector store a config names; an unknown name is a ConfigError listing the known ones. */
export function createVectorStore(config: VectorStoreChoice, environment: NodeJS.ProcessEnv): VectorStore {
  const create = fromRegistry(VECTOR_STORES, config.vectorStore, {
    key: 'vectorStore',
    label: 'vector store',
  });
  return create(config, environment);
}
