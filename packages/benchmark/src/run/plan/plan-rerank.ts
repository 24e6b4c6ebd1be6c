import { RERANK_PASSAGE_CHARS } from '@lme/search-core';
import { buildCorpus, type CorpusOptions } from '../../benchmarks/build-corpus.js';
import type { LongMemEvalRecord } from '../../benchmarks/longmemeval-record.js';
import { type RetrieverChoice, rerankCandidates, selectedRetriever } from '../../config/retriever-rules.js';
import { usesPipeline } from '../../config/run-shape.js';
import type { ProviderSection } from '../../config/sections/provider-section.js';
import type { StageOptionValues } from '../../config/sections/stages-section.js';
import { rerankPlanner } from '../../providers/pipeline/configured-reranker.js';
import { providerCapabilities } from '../../providers/provider-registry.js';

/** What the rerank plan reads: the reranker, the retriever (its own options too) and the corpus settings. */
export type RerankPlanSettings = Pick<StageOptionValues, 'reranker'> & {
  readonly rerankModel: string;
  readonly rerankDepth: number;
} & Pick<ProviderSection, 'provider'> &
  RetrieverChoice &
  Readonly<Record<string, unknown>> &
  CorpusOptions;

export type RerankPlan = { model: string; calls: number; promptTokens: number; completionTokens: number };

/**
 * Calls and tokens the rerank stage would spend on these records (`--dry-run`): per question,
 * min(--rerank-depth, candidates) candidates (fewer when the retriever says so: session-aware's top sessions × turns per session) of
 * the mean indexed document length, cut as the prompts cut them; each reranker family's
 * `planCalls` counts its calls (listwise: a window of 20 moved by 10; pointwise: one per candidate;
 * http: one, billed by the service). Undefined for rerankers that call nothing and runs without one.
 */
export function planRerank(
  config: RerankPlanSettings,
  records: readonly LongMemEvalRecord[],
  tokensPerChar: number,
): RerankPlan | undefined {
  if (!config.reranker || !usesPipeline(providerCapabilities(config.provider))) return undefined;
  // The family says what it bills and how its calls add up (components/rerankers/<family>/).
  const planner = rerankPlanner(config);
  if (!planner) return undefined;
  const plan: RerankPlan = { model: planner.model, calls: 0, promptTokens: 0, completionTokens: 0 };
  for (const record of records) {
    const documents = buildCorpus(record, config).documents;
    // A retriever that hands the stage fewer candidates than documents says how many.
    const available = rerankCandidates(selectedRetriever(config)) ?? documents.length;
    const depth = Math.min(config.rerankDepth, available, documents.length);
    if (depth < 2) continue;
    const chars =
      documents.reduce((sum, document) => sum + Math.min(document.text.length, RERANK_PASSAGE_CHARS), 0) /
      documents.length;
    const call = planner.plan({
      depth,
      candidateTokens: Math.round(chars * tokensPerChar) + 4,
      queryTokens: Math.round(record.question.length * tokensPerChar),
    });
    plan.calls += call.calls;
    plan.promptTokens += call.promptTokens;
    plan.completionTokens += call.completionTokens;
  }
  return plan;
}
