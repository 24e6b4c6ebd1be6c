import { createBm25DenseRetriever, createMultiSourceRetriever } from '@lme/search-core';
import { z } from 'zod';
import { defineRetriever } from '../retriever-descriptor.js';

/**
 * `--retriever multi-source`: the routes `--routes` names (fused as configured) as the
 * stored-memory source, with the entity graph and the conversation-context source;
 * `--source-weights` sets the base weights, `--dedup-threshold` the merge cosine. Documents and
 * granularity as configured.
 */
export const multiSourceRetriever = defineRetriever({
  name: 'multi-source',
  description: 'stored memory (--routes, fused), an entity graph and the conversation context, merged',
  options: {
    /** Base weights of the multi-source sources (before the query cues adjust them). */
    sourceWeights: {
      schema: z
        .object({ memory: z.number().min(0), graph: z.number().min(0), context: z.number().min(0) })
        .partial()
        .strict()
        .optional(),
      flags: '--source-weights <name=w,...>',
      group: 'retrieval',
      help: 'base weights of the multi-source sources memory, graph, context',
      defaultHelp: 'memory=0.6,graph=0.25,context=0.15',
    },
  },
  capabilities: {
    routes: 'configured',
    defaultRoutes: 'hybrid',
    fusion: 'routes',
    bm25Settings: false,
    timeBoost: false,
    // Counted as reading --dense-neighbours (the has-no-effect rule always has); its memory source
    // does not pass it on yet.
    denseNeighbours: true,
    refuses: [],
    legacyKey: 'multiSource',
  },
  create: (options, { tokenizer, dense, fusion, routes, namespace, dedupThreshold, finalTopK }) => {
    const multiSource = createMultiSourceRetriever({
      memory: createBm25DenseRetriever({ routes, tokenizer, dense, fusion, namespace }),
      tokenizer,
      ...(dense ? { dense } : {}),
      ...(options.sourceWeights ? { weights: options.sourceWeights } : {}),
      dedupThreshold,
      finalK: finalTopK,
    });
    return { retriever: multiSource, lastSourceTrace: () => multiSource.lastTrace() };
  },
});
