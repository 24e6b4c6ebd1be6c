import { createRequire } from 'node:module';
import type { QdrantClient } from '@qdrant/js-client-rest';

const require = createRequire(import.meta.url);
let qdrantClientClass: typeof QdrantClient | undefined;

/** The Qdrant client class, loaded on first use: runs with the memory vector store skip it. */
export function loadQdrantClient(): typeof QdrantClient {
  qdrantClientClass ??= (require('@qdrant/js-client-rest') as { QdrantClient: typeof QdrantClient })
    .QdrantClient;
  return qdrantClientClass;
}
