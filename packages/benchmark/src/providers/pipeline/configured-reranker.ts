import {
  type CandidateReranker,
  createReranker,
  estimateCost,
  loadPriceTable,
  type PriceTable,
  parseRerankerId,
  type RerankHookState,
  type RerankTrace,
} from '@lme/search-core';
import { resolveOpenAiEndpoint } from '../../config/openai-endpoints.js';
import type { RunConfig } from '../../config/run-config.js';
import { addSecret, checkEndpointUrl } from '../../config/secrets.js';

/**
 * The reranker `--reranker` names, built once per run: the `llm` kinds over the pipeline's
 * OpenAI-compatible endpoint (`--base-url`, `OPENAI_API_KEY`, `--max-retries`, `--timeout`) and the
 * completion cache in `--cache-dir`, as the reader; `http:<url>` with `--rerank-model` and the key
 * read from the variable `--rerank-key-env` names (redacted from every output, never stored).
 */
export function createConfiguredReranker(
  config: RunConfig,
  environment: NodeJS.ProcessEnv = process.env,
): CandidateReranker | undefined {
  if (!config.reranker) return undefined;
  const { kind, argument } = parseRerankerId(config.reranker);
  const cacheDir = config.cache ? config.cacheDir : undefined;
  if (kind === 'http') {
    const url = checkEndpointUrl(argument, '--reranker http:<url>');
    const apiKey = config.rerankKeyEnv ? environment[config.rerankKeyEnv] : undefined;
    if (config.rerankKeyEnv && !apiKey)
      throw new Error(`--rerank-key-env names ${config.rerankKeyEnv}, which is not set in the environment.`);
    addSecret(apiKey);
    return createReranker(`http:${url}`, {
      http: {
        model: config.rerankModel,
        maxRetries: config.maxRetries,
        timeoutMs: config.timeoutMs,
        ...(apiKey ? { apiKey } : {}),
        ...(cacheDir ? { cacheDir } : {}),
      },
    });
  }
  if (kind === 'offline') return createReranker(config.reranker);
  return createReranker(config.reranker, {
    chat: { ...resolveOpenAiEndpoint(config, 'pipeline', environment), ...(cacheDir ? { cacheDir } : {}) },
  });
}

/** A fresh place for a session-aware base to leave its rerank trace (one per haystack). */
export const newRerankHookState = (): RerankHookState => ({});

/** Rerank usage of one question as a samples.jsonl usage entry (priced like the reader's). */
export function rerankUsageEntry(
  trace: RerankTrace,
  model: string | undefined,
  prices: PriceTable | undefined,
):
  | {
      prompt_tokens: number;
      completion_tokens: number;
      cost_usd: number | null;
      cached: boolean;
      requests: number;
    }
  | undefined {
  if (trace.usage.calls === 0) return undefined;
  const usage = { promptTokens: trace.usage.promptTokens, completionTokens: trace.usage.completionTokens };
  return {
    prompt_tokens: usage.promptTokens,
    completion_tokens: usage.completionTokens,
    cost_usd: model && prices ? estimateCost(model, usage, prices).usd : null,
    cached: trace.usage.cachedCalls === trace.usage.calls,
    requests: trace.usage.calls - trace.usage.cachedCalls,
  };
}

/** The priced model of `--reranker` (the chat model, or `--rerank-model` of `http:`); none offline. */
export function rerankModelOf(config: RunConfig): string | undefined {
  if (!config.reranker) return undefined;
  const { kind, argument } = parseRerankerId(config.reranker);
  return kind === 'offline' ? undefined : kind === 'http' ? config.rerankModel : argument;
}

/** Run totals of the rerank stage (summary.json `provider_stats.rerank`). */
export type RerankTotals = {
  questions: number;
  calls: number;
  cached_calls: number;
  prompt_tokens: number;
  completion_tokens: number;
  cost_usd: number | null;
  /** Questions whose incoming order was kept because the reranker failed, with the first errors. */
  fallbacks: number;
  fallback_examples: string[];
  missing_ids: number;
};

/** Accumulates the rerank traces of a run and prices each question's calls. */
export function rerankStats(model: string | undefined) {
  const prices: Promise<PriceTable | undefined> = model
    ? loadPriceTable().catch(() => undefined)
    : Promise.resolve(undefined);
  const totals: RerankTotals = {
    questions: 0,
    calls: 0,
    cached_calls: 0,
    prompt_tokens: 0,
    completion_tokens: 0,
    cost_usd: model ? 0 : null,
    fallbacks: 0,
    fallback_examples: [],
    missing_ids: 0,
  };
  return {
    async add(trace: RerankTrace) {
      totals.questions++;
      totals.calls += trace.usage.calls;
      totals.cached_calls += trace.usage.cachedCalls;
      totals.prompt_tokens += trace.usage.promptTokens;
      totals.completion_tokens += trace.usage.completionTokens;
      totals.missing_ids += trace.missing.length;
      if (trace.fallback) {
        totals.fallbacks++;
        if (totals.fallback_examples.length < 3) totals.fallback_examples.push(trace.fallback);
      }
      const entry = rerankUsageEntry(trace, model, await prices);
      if (entry && !entry.cached && totals.cost_usd !== null)
        totals.cost_usd = entry.cost_usd === null ? null : totals.cost_usd + entry.cost_usd;
      return entry;
    },
    totals: (): RerankTotals => ({ ...totals, fallback_examples: [...totals.fallback_examples] }),
  };
}
