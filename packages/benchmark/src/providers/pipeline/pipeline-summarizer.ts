import {
  type ChatUsage,
  createChatClient,
  createExtractiveSummarizer,
  createLlmSummarizer,
  type Summarizer,
} from '@lme/search-core';
import { resolveOpenAiEndpoint } from '../../config/openai-endpoints.js';
import type { RunSection } from '../../config/sections/run-section.js';
import type { SummariesSection } from '../../config/sections/summaries-section.js';

/** What the summarizer reads: `--summarizer`, its model and endpoint, and the cache. */
export type SummarizerSettings = Parameters<typeof resolveOpenAiEndpoint>[0] &
  Pick<SummariesSection, 'summarizer' | 'summarizerModel'> &
  Pick<RunSection, 'cache' | 'cacheDir'>;

/** Index-time cost of session summaries (summary.json's `summaries`). */
export type SummaryStats = {
  seconds: number;
  failures: number;
  promptTokens: number;
  completionTokens: number;
};

/**
 * The session summarizer a config names (`--summarizer`), created on first use and shared by
 * every haystack of the run, timed: extractive, or an LLM that falls back to extractive.
 */
export function createPipelineSummarizer(
  config: SummarizerSettings,
  environment: NodeJS.ProcessEnv,
): { summarizer(): Summarizer; stats(): SummaryStats } {
  let shared: Summarizer | undefined;
  let llmUsage: (() => ChatUsage) | undefined;
  let seconds = 0;
  let failures = 0;
  const summarizer = (): Summarizer => {
    if (shared) return shared;
    const extractive = createExtractiveSummarizer();
    let inner: Summarizer = extractive;
    if (config.summarizer === 'llm') {
      const llm = createLlmSummarizer({
        client: createChatClient(resolveOpenAiEndpoint(config, 'pipeline', environment)),
        model: config.summarizerModel,
        fallback: extractive,
        cacheDir: config.cache ? config.cacheDir : undefined,
        onFailure: () => {
          failures++;
        },
      });
      llmUsage = llm.usage;
      inner = llm;
    }
    shared = {
      id: inner.id,
      async summarize(options) {
        const started = performance.now();
        try {
          return await inner.summarize(options);
        } finally {
          seconds += (performance.now() - started) / 1000;
        }
      },
    };
    return shared;
  };
  return {
    summarizer,
    stats: () => ({
      seconds,
      failures,
      promptTokens: llmUsage?.().promptTokens ?? 0,
      completionTokens: llmUsage?.().completionTokens ?? 0,
    }),
  };
}
