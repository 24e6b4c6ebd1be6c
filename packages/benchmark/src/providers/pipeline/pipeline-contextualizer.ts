import {
  type ChunkContextualizer,
  createChatClient,
  createLlmContextualizer,
  createTemplateContextualizer,
  type MemoryDocument,
  type Summarizer,
} from '@lme/search-core';
import { resolveOpenAiEndpoint } from '../../config/openai-endpoints.js';
import type { RunSection } from '../../config/sections/run-section.js';
import type { SummariesSection } from '../../config/sections/summaries-section.js';

/** What contextual chunks read: `--contextual`, its model and endpoint, and the cache. */
export type ContextualSettings = Parameters<typeof resolveOpenAiEndpoint>[0] &
  Pick<SummariesSection, 'contextual' | 'contextualModel' | 'contextualDense'> &
  Pick<RunSection, 'cache' | 'cacheDir'>;

import { type ContextualizeCorpusResult, contextualizeCorpus } from './contextualize-corpus.js';

/** Index-time cost of contextual chunks (`--contextual`). */
export type ContextualStats = {
  seconds: number;
  chunks: number;
  failures: number;
  promptTokens: number;
  completionTokens: number;
};

/** The contextual chunks of one haystack's documents. */
export type Contextualize = (
  documents: readonly MemoryDocument[],
  signal?: AbortSignal,
) => Promise<ContextualizeCorpusResult>;

/**
 * The contextual chunks a config names (`--contextual template|llm`): one contextualizer for the
 * run, created on first use (an LLM one over the pipeline's endpoint and completion cache), timed
 * and counted. `contextualize` is undefined with `--contextual none`.
 */
export function createPipelineContextualizer(
  config: ContextualSettings,
  environment: NodeJS.ProcessEnv,
  summarizer: () => Summarizer,
): { contextualize?: Contextualize; stats(): ContextualStats | undefined } {
  if (config.contextual === 'none') return { stats: () => undefined };
  const usage: ContextualStats = { seconds: 0, chunks: 0, failures: 0, promptTokens: 0, completionTokens: 0 };
  let shared: ChunkContextualizer | undefined;
  const contextualizer = (): ChunkContextualizer => {
    shared ??=
      config.contextual === 'llm'
        ? createLlmChunkContextualizer(config, environment, usage)
        : createTemplateContextualizer();
    return shared;
  };
  return {
    async contextualize(documents, signal) {
      const started = performance.now();
      try {
        const result = await contextualizeCorpus({
          documents,
          contextualizer: contextualizer(),
          summarizer: summarizer(),
          dense: config.contextualDense,
          ...(signal ? { signal } : {}),
        });
        usage.chunks += result.statuses.length;
        usage.failures += result.statuses.filter((status) => status.status === 'failed').length;
        return result;
      } finally {
        usage.seconds += (performance.now() - started) / 1000;
      }
    },
    stats: () => ({ ...usage }),
  };
}

/** `--contextual llm`: a context line per chunk from `--contextual-model`; tokens of uncached calls counted in `usage`. */
function createLlmChunkContextualizer(
  config: ContextualSettings,
  environment: NodeJS.ProcessEnv,
  usage: ContextualStats,
): ChunkContextualizer {
  const client = createChatClient({
    ...resolveOpenAiEndpoint(config, 'pipeline', environment),
    cacheDir: config.cache ? config.cacheDir : undefined,
  });
  return createLlmContextualizer({
    model: config.contextualModel,
    complete: async (prompt, { signal }) => {
      const reply = await client.complete({
        model: config.contextualModel,
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
