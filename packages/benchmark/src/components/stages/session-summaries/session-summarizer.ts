import {
  type ChatUsage,
  createChatClient,
  createExtractiveSummarizer,
  createLlmSummarizer,
  type Summarizer,
} from '@lme/search-core';
import type { StageHooks, StageParts } from '../stage-descriptor.js';

/** Index-time cost of session summaries (config.json's `provider_stats.summaries`). */
export type SummaryStats = {
  seconds: number;
  failures: number;
  promptTokens: number;
  completionTokens: number;
};

/**
 * The session summarizer `--summarizer` names, created on first use and shared by every haystack
 * of the run, timed: extractive, or an LLM (`--summarizer-model` over the run's endpoint and
 * completion cache) that falls back to extractive.
 */
export function createSessionSummarizer(
  options: { summarizer: 'extractive' | 'llm'; summarizerModel: string },
  parts: Pick<StageParts, 'endpoint' | 'cacheDir'>,
): Required<Pick<StageHooks, 'summarizer' | 'stats'>> {
  let shared: Summarizer | undefined;
  let llmUsage: (() => ChatUsage) | undefined;
  let seconds = 0;
  let failures = 0;
  const summarizer = (): Summarizer => {
    if (shared) return shared;
    const extractive = createExtractiveSummarizer();
    let inner: Summarizer = extractive;
    if (options.summarizer === 'llm') {
      const llm = createLlmSummarizer({
        client: createChatClient(parts.endpoint()),
        model: options.summarizerModel,
        fallback: extractive,
        cacheDir: parts.cacheDir,
        onFailure: () => {
          failures++;
        },
      });
      llmUsage = llm.usage;
      inner = llm;
    }
    shared = {
      id: inner.id,
      async summarize(summarizeOptions) {
        const started = performance.now();
        try {
          return await inner.summarize(summarizeOptions);
        } finally {
          seconds += (performance.now() - started) / 1000;
        }
      },
    };
    return shared;
  };
  const stats = (): SummaryStats => ({
    seconds,
    failures,
    promptTokens: llmUsage?.().promptTokens ?? 0,
    completionTokens: llmUsage?.().completionTokens ?? 0,
  });
  return { summarizer, stats: () => ({ summaries: stats() }) };
}
