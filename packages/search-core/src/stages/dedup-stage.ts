import { mergeNearDuplicates } from '../core/dedup.js';
import type { Stage } from './stage.js';

/** Near-duplicate merging: hits whose vectors reach `threshold` (default 0.95) fold into the better one. */
export function dedupStage(options: { threshold?: number } = {}): Stage {
  const { threshold } = options;
  return {
    name: 'dedup',
    needsVectors: true,
    apply(pool, { dense, trace }) {
      const merged = mergeNearDuplicates({
        hits: pool,
        vectors: dense!.vectors(),
        ...(threshold === undefined ? {} : { threshold }),
      });
      trace.merges = merged.merges;
      return merged.hits;
    },
  };
}
