export * from './adaptive-weights.js';
export * from './conversation-context-source.js';
export * from './entity-graph.js';
export * from './multi-source-retriever.js';
