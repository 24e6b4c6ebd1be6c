import { z } from 'zod';
import { defineStage } from '../stage-descriptor.js';
import { createChunkContextualizer } from './chunk-contextualizer.js';
import { planContextual } from './plan-contextual.js';

/**
 * `--contextual template|llm`: contextual retrieval. At index time each document gets a context
 * line in front (speaker, session day and the session's summary topics, or an LLM's line); the
 * index sees the context, the corpus keeps the original text for the reader and the metrics.
 */
export const contextualChunksStage = defineStage({
  name: 'contextual-chunks',
  description: 'a context line before each chunk at index time (contextual retrieval)',
  options: {
    contextual: {
      schema: z.enum(['none', 'template', 'llm']).default('none'),
      flags: '--contextual <kind>',
      group: 'retrieval',
      help: 'context line before each chunk at index time',
    },
    contextualModel: {
      schema: z.string().min(1).default('gpt-4o-mini'),
      flags: '--contextual-model <model>',
      group: 'retrieval',
      help: 'chat model of --contextual llm',
    },
    contextualDense: {
      schema: z.boolean().default(true),
      flags: '--contextual-dense',
      group: 'retrieval',
      help: 'the dense route embeds the contextualized text',
      negatedHelp: 'the dense route embeds the original text; the context goes to BM25 only',
    },
  },
  capabilities: { runsOn: 'pipeline', at: 'index', order: 5, needsVectors: false, needsSummaries: true },
  switch: 'contextual',
  switchOn: { value: 'template', is: (value) => value !== 'none' },
  optionRules: {
    contextualModel: { used: (options) => options.contextual === 'llm', needs: '--contextual llm' },
    contextualDense: { used: (_options, run) => run.embeds, needs: 'a dense route' },
  },
  create: (options, parts) => createChunkContextualizer(options, parts),
  chatModel: (options) =>
    options.contextual === 'llm' ? { role: 'contextual', model: options.contextualModel } : undefined,
  plan: planContextual,
  provenance: (options) => `contextual (${options.contextual})`,
});
