import {
  createMemoryVectorIndex,
  createQdrantVectorIndex,
  type VectorIndex,
  type VectorIndexFactory,
} from '@lme/search-core';
import { fromRegistry } from '../../config/config-error.js';
import type { RunConfig } from '../../config/run-config.js';
import { checkEndpointUrl } from '../../config/secrets.js';

/** Where a pipeline's dense route keeps its vectors: an index per haystack, and the end of the run. */
export type VectorStore = { factory: VectorIndexFactory; close(): Promise<void> };

/** `memory`: a fresh exact index per haystack. */
function createMemoryStore(): VectorStore {
  return { factory: ({ dimensions }) => createMemoryVectorIndex({ dimensions }), close: async () => {} };
}

/**
 * `qdrant`: one collection for the whole run (QDRANT_URL, optional QDRANT_API_KEY), haystacks
 * kept apart by a `namespace` payload filter; each haystack's points are deleted when it is done
 * and the collection when the run ends.
 */
function createQdrantStore(_config: RunConfig, environment: NodeJS.ProcessEnv): VectorStore {
  const url = environment.QDRANT_URL;
  if (!url)
    throw new Error('--vector-store qdrant needs QDRANT_URL (and QDRANT_API_KEY if the server wants one).');
  checkEndpointUrl(url, 'QDRANT_URL');
  const collection = `lme-${new Date().toISOString().replace(/\D/g, '').slice(0, 14)}-${process.pid}`;
  let shared: VectorIndex | undefined;
  return {
    factory: ({ dimensions, namespace }) => {
      shared ??= createQdrantVectorIndex({
        url,
        apiKey: environment.QDRANT_API_KEY,
        collection,
        dimensions,
        filterKeys: { namespace: 'keyword', session_id: 'keyword', position: 'integer' },
      });
      const index = shared;
      return {
        id: index.id,
        upsert: (options) => index.upsert(options),
        search: (options) => index.search(options),
        delete: (options) => index.delete(options),
        drop: () => index.delete({ filter: { namespace } }),
      };
    },
    close: async () => {
      await shared?.drop();
    },
  };
}

/** The vector stores `--vector-store` selects. */
export const VECTOR_STORES = {
  memory: createMemoryStore,
  qdrant: createQdrantStore,
} as const satisfies Record<
  RunConfig['vectorStore'],
  (config: RunConfig, environment: NodeJS.ProcessEnv) => VectorStore
>;

/** The vector store a config names; an unknown name is a ConfigError listing the known ones. */
export function createVectorStore(config: RunConfig, environment: NodeJS.ProcessEnv): VectorStore {
  const create = fromRegistry(VECTOR_STORES, config.vectorStore, {
    key: 'vectorStore',
    label: 'vector store',
  });
  return create(config, environment);
}
