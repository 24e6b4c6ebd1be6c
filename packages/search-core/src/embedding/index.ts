// Public API of the embedders and the embedding cache (re-exported by the package index).

export * from './concat-embedder.js';
export * from './disk-cache/cache-admin.js';
export { checkEmbeddingCacheFolder } from './disk-cache/cache-folder.js';
export * from './disk-cache/verify-embedding-cache.js';
export * from './disk-cache/with-disk-cache.js';
export * from './embedder.js';
export * from './embedder-registry.js';
export * from './onnx/onnx-embedder.js';
export * from './openai-embedder.js';
export * from './use-lite-embedder.js';
