import {
  type CandidateReranker,
  estimateCost,
  loadPriceTable,
  type PriceTable,
  type RerankHookState,
  type RerankTrace,
} from '@lme/search-core';
import { ownOptions } from '../../components/component.js';
import type { RerankCallPlan, RerankCallSize } from '../../components/rerankers/reranker-descriptor.js';
import { resolveReranker } from '../../config/component-ids.js';
import { resolveOpenAiEndpoint } from '../../config/openai-endpoints.js';
import type { SelectedComponent } from '../../config/run-sections.js';
import { addSecret, checkEndpointUrl } from '../../config/secrets.js';
import type { RerankerOptionValues, StageOptionValues } from '../../config/sections/stages-section.js';
import type { SharedSections } from './pipeline-sections.js';

/**
 * The reranker `--reranker` names, built once per run by its family (components/rerankers/): chat
 * models over the pipeline's OpenAI-compatible endpoint (`--base-url`, `OPENAI_API_KEY`,
 * `--max-retries`, `--timeout`) and the completion cache in `--cache-dir`, as the reader; a rerank
 * server with its own options (its key read from the environment, redacted from every output,
 * never stored).
 */
export function createConfiguredReranker(
  /** The selected reranker (`--reranker`) with its family's own options. */
  reranker: SelectedComponent,
  { run, qa }: SharedSections,
  environment: NodeJS.ProcessEnv = process.env,
): CandidateReranker {
  const { descriptor, argument } = resolveReranker(reranker.id);
  const cacheDir = run.cache ? run.cacheDir : undefined;
  return descriptor.create(argument, reranker.options, {
    chat: () => ({
      ...resolveOpenAiEndpoint(qa, 'pipeline', environment),
      ...(cacheDir ? { cacheDir } : {}),
    }),
    cacheDir,
    maxRetries: qa.maxRetries,
    timeoutMs: qa.timeoutMs,
    environment,
    checkEndpointUrl,
    addSecret,
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

/** The priced model of `--reranker` (the chat model, or a rerank server's model); none for one that calls none. */
export function rerankModelOf(reranker: SelectedComponent | undefined): string | undefined {
  if (!reranker) return undefined;
  const { descriptor, argument } = resolveReranker(reranker.id);
  return descriptor.pricedModel(argument, reranker.options);
}

/**
 * What the dry run asks of `--reranker`: the model it prices and the calls and tokens of one
 * question (its family's `planCalls`); undefined for a reranker that calls no model.
 */
export function rerankPlanner(
  settings: Pick<StageOptionValues, 'reranker'> & Partial<RerankerOptionValues>,
): { model: string; plan: (size: RerankCallSize) => RerankCallPlan } | undefined {
  if (!settings.reranker) return undefined;
  const { descriptor, argument } = resolveReranker(settings.reranker);
  const model = descriptor.pricedModel(argument, ownOptions(descriptor, settings));
  const planCalls = descriptor.planCalls;
  return model === undefined || !planCalls ? undefined : { model, plan: (size) => planCalls(size) };
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
