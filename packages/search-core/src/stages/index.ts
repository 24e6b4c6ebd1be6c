// Public API of the strategy stages (re-exported by the package index).
export * from '../core/dedup.js';
export * from './dedup-stage.js';
export * from './mmr.js';
export * from './mmr-stage.js';
export * from './multi-signal-ranking.js';
export * from './multi-signal-stage.js';
export * from './pack-context.js';
export * from './stage.js';
export * from './with-stages.js';
