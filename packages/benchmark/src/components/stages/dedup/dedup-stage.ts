import { dedupStage as createDedupStage } from '@lme/search-core';
import { z } from 'zod';
import { defineStage } from '../stage-descriptor.js';
import { DEDUP_THRESHOLD_OPTION } from './dedup-threshold-option.js';

/** `--dedup`: near-duplicate merging of the candidate pool. */
export const dedupStage = defineStage({
  name: 'dedup',
  description: 'merge near-duplicate hits of the candidate pool',
  options: {
    dedup: {
      schema: z.boolean().default(false),
      flags: '--dedup',
      group: 'stages',
      help: 'merge near-duplicate hits (cosine >= --dedup-threshold)',
    },
    dedupThreshold: DEDUP_THRESHOLD_OPTION,
  },
  capabilities: { runsOn: 'pipeline', order: 10, needsVectors: true },
  switch: 'dedup',
  create: (options) => createDedupStage({ threshold: options.dedupThreshold }),
  provenance: (options) => `dedup (${options.dedupThreshold})`,
  explain: (options) => ({ dedup: { threshold: options.dedupThreshold } }),
});
