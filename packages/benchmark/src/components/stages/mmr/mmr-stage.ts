import { mmrStage as createMmrStage } from '@lme/search-core';
import { z } from 'zod';
import { defineStage } from '../stage-descriptor.js';

/** `--mmr`: maximal marginal relevance over the candidate pool. */
export const mmrStage = defineStage({
  name: 'mmr',
  description: 'maximal marginal relevance over the candidate pool',
  options: {
    mmr: {
      schema: z.boolean().default(false),
      flags: '--mmr',
      group: 'stages',
      help: 'maximal marginal relevance over the candidate pool (needs document vectors)',
    },
    mmrLambda: {
      schema: z.number().min(0).max(1).default(0.78),
      flags: '--mmr-lambda <x>',
      group: 'stages',
      help: 'MMR relevance weight against redundancy',
    },
    mmrDuplicate: {
      schema: z.number().min(0).max(1).default(0.94),
      flags: '--mmr-duplicate <cosine>',
      group: 'stages',
      help: 'MMR skips a candidate this similar to a selected hit',
    },
  },
  capabilities: { runsOn: 'pipeline', order: 30, needsVectors: true },
  switch: 'mmr',
  create: (options) =>
    createMmrStage({ lambda: options.mmrLambda, duplicateThreshold: options.mmrDuplicate }),
  provenance: (options) => `mmr (lambda ${options.mmrLambda})`,
  explain: (options, { finalK }) => ({
    mmr: {
      lambda: options.mmrLambda,
      duplicate_threshold: options.mmrDuplicate,
      k: finalK,
      tags: 'session id',
    },
  }),
});
