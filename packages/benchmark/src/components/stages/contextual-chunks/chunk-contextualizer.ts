import {
  type ChunkContextualizer,
  createChatClient,
  createLlmContextualizer,
  createTemplateContextualizer,
} from '@lme/search-core';
import type { StageHooks, StageParts } from '../stage-descriptor.js';
import { contextualizeCorpus } from './contextualize-corpus.js';

/** Index-time cost of contextual chunks (config.json's `provider_stats.contextual`). */
export type ContextualStats = {
  seconds: number;
  chunks: number;
  failures: number;
  promptTokens: number;
  completionTokens: number;
};

/** The contextual chunks' own options (`--contextual`, `--contextual-model`, `--contextual-dense`). */
export type ContextualOptions = {
  contextual: 'none' | 'template' | 'llm';
  contextualModel: string;
  contextualDense: boolean;
};

/**
 * The contextual chunks `--contextual template|llm` names: one contextualizer for the run, created
 * on first use (an LLM one over the run's endpoint and completion cache), timed and counted; the
 * session topics of the template come from the run's session summarizer.
 */
export function createChunkContextualizer(
  options: ContextualOptions,
  parts: StageParts,
): Required<Pick<StageHooks, 'indexDocuments' | 'stats'>> {
  const usage: ContextualStats = { seconds: 0, chunks: 0, failures: 0, promptTokens: 0, completionTokens: 0 };
  let shared: ChunkContextualizer | undefined;
  const contextualizer = (): ChunkContextualizer => {
    shared ??=
      options.contextual === 'llm'
        ? createLlmChunkContextualizer(options, parts, usage)
        : createTemplateContextualizer();
    return shared;
  };
  return {
    async indexDocuments(documents, signal) {
      const started = performance.now();
      try {
        const result = await contextualizeCorpus({
          documents,
          contextualizer: contextualizer(),
          summarizer: parts.summarizer(),
          dense: options.contextualDense,
          ...(signal ? { signal } : {}),
        });
        usage.chunks += result.statuses.length;
        usage.failures += result.statuses.filter((status) => status.status === 'failed').length;
        return result;
      } finally {
        usage.seconds += (performance.now() - started) / 1000;
      }
    },
    stats: () => ({ contextual: { ...usage } }),
  };
}

/** `--contextual llm`: a context line per chunk from `--contextual-model`; tokens of uncached calls counted in `usage`. */
function createLlmChunkContextualizer(
  options: ContextualOptions,
  parts: StageParts,
  usage: ContextualStats,
): ChunkContextualizer {
  const client = createChatClient({ ...parts.endpoint(), cacheDir: parts.cacheDir });
  return createLlmContextualizer({
    model: options.contextualModel,
    complete: async (prompt, { signal }) => {
      const reply = await client.complete({
        model: options.contextualModel,
        messages: [{ role: 'user', content: prompt }],
        temperature: 0,
        maxTokens: 150,
        ...(signal ? { signal } : {}),
      });
      if (!reply.cached) {
        usage.promptTokens += reply.usage.promptTokens;
        usage.completionTokens += reply.usage.completionTokens;
      }
      return reply.text;
    },
  });
}
