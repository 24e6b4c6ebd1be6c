import { RERANK_PASSAGE_CHARS } from '@lme/search-core';
import { buildCorpus } from '../../benchmarks/build-corpus.js';
import type { LongMemEvalRecord } from '../../benchmarks/longmemeval-record.js';
import { rerankCandidates } from '../../config/retriever-rules.js';
import type { RunSections } from '../../config/run-sections.js';
import { usesPipeline } from '../../config/run-shape.js';
import { rerankPlanner } from '../../providers/pipeline/configured-reranker.js';
import { providerCapabilities } from '../../providers/provider-registry.js';

/** What the rerank plan reads: the reranker and the retriever with their own options, the provider and the corpus settings. */
export type RerankPlanSettings = Pick<RunSections, 'reranker' | 'retriever' | 'provider' | 'retrieval'>;

export type RerankPlan = { model: string; calls: number; promptTokens: number; completionTokens: number };

/**
 * Calls and tokens the rerank stage would spend on these records (`--dry-run`): per question,
 * min(--rerank-depth, candidates) candidates (fewer when the retriever says so: session-aware's top sessions × turns per session) of
 * the mean indexed document length, cut as the prompts cut them; each reranker family's
 * `planCalls` counts its calls (listwise: a window of 20 moved by 10; pointwise: one per candidate;
 * http: one, billed by the service). Undefined for rerankers that call nothing and runs without one.
 */
export function planRerank(
  sections: RerankPlanSettings,
  records: readonly LongMemEvalRecord[],
  tokensPerChar: number,
): RerankPlan | undefined {
  const { reranker, retriever, retrieval } = sections;
  if (!reranker || !usesPipeline(providerCapabilities(sections.provider.provider))) return undefined;
  // The family says what it bills and how its calls add up (components/rerankers/<family>/).
  const planner = rerankPlanner({ ...reranker.options, reranker: reranker.id });
  if (!planner) return undefined;
  const plan: RerankPlan = { model: planner.model, calls: 0, promptTokens: 0, completionTokens: 0 };
  for (const record of records) {
    const documents = buildCorpus(record, retrieval).documents;
    // A retriever that hands the stage fewer candidates than documents says how many.
    const available = rerankCandidates(retriever) ?? documents.length;
    const depth = Math.min(Number(reranker.options.rerankDepth), available, documents.length);
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
