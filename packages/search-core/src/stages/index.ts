// Public API of the strategy stages (re-exported by the package index).
export * from '../core/dedup.js';
export * from './mmr.js';
export * from './multi-signal-ranking.js';
export * from './pack-context.js';
export * from './with-stages.js';
