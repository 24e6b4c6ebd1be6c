import { dedupStage as createDedupStage } from '@lme/search-core';
import { z } from 'zod';
import { defineStage } from '../stage-descriptor.js';

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
    dedupThreshold: {
      schema: z.number().min(0).max(1).default(0.95),
      flags: '--dedup-threshold <cosine>',
      group: 'stages',
      help: 'cosine at which --dedup merges two hits',
    },
  },
  capabilities: { runsOn: 'pipeline', order: 10, needsVectors: true },
  switch: 'dedup',
  create: (options) => createDedupStage({ threshold: options.dedupThreshold }),
  provenance: (options) => `dedup (${options.dedupThreshold})`,
  explain: (options) => ({ dedup: { threshold: options.dedupThreshold } }),
});
