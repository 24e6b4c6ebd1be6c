export * from './hashing-embedder.js';
export * from './legacy-embedding-segment.js';
export * from './mount-tmpfs.js';
export * from './openai-wire-server.js';
export * from './qdrant-wire-server.js';
export * from './rerank-wire-server.js';
export * from './sample-records.js';
