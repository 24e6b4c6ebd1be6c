import { parseRerankerId, RERANK_PASSAGE_CHARS } from '@lme/search-core';
import { buildCorpus, type CorpusOptions } from '../benchmarks/build-corpus.js';
import type { LongMemEvalRecord } from '../benchmarks/longmemeval-record.js';
import { type RetrieverChoice, rerankCandidates } from '../config/retriever-rules.js';
import { usesPipeline } from '../config/run-shape.js';
import type { ProviderSection } from '../config/sections/provider-section.js';
import type { StagesSection } from '../config/sections/stages-section.js';

/** What the rerank plan reads: the reranker, the retriever (its own options too) and the corpus settings. */
export type RerankPlanSettings = Pick<StagesSection, 'reranker'> & {
  readonly rerankModel: string;
  readonly rerankDepth: number;
} & Pick<ProviderSection, 'provider'> &
  RetrieverChoice &
  Readonly<Record<string, unknown>> &
  CorpusOptions;

/** Prompt tokens of one call around the candidates (instructions, the question twice). */
const LISTWISE_OVERHEAD_TOKENS = 160;
const POINTWISE_OVERHEAD_TOKENS = 90;
/** RankGPT's window and step, the listwise reranker's defaults. */
const WINDOW = 20;
const STEP = 10;

export type RerankPlan = { model: string; calls: number; promptTokens: number; completionTokens: number };

/**
 * Calls and tokens the rerank stage would spend on these records (`--dry-run`): per question,
 * min(--rerank-depth, candidates) candidates (fewer when the retriever says so: session-aware's top sessions × turns per session) of
 * the mean indexed document length, cut as the prompts cut them. Listwise: one call per window of
 * 20 moved by 10; pointwise: one call per candidate with a 1-token answer; http: one call, billed
 * by the service (its tokens counted as prompt tokens). Undefined for offline rerankers and runs
 * without one.
 */
export function planRerank(
  config: RerankPlanSettings,
  records: readonly LongMemEvalRecord[],
  tokensPerChar: number,
): RerankPlan | undefined {
  if (!config.reranker || !usesPipeline(config)) return undefined;
  const { kind, argument } = parseRerankerId(config.reranker);
  if (kind === 'offline') return undefined;
  const plan: RerankPlan = {
    model: kind === 'http' ? config.rerankModel : argument,
    calls: 0,
    promptTokens: 0,
    completionTokens: 0,
  };
  for (const record of records) {
    const documents = buildCorpus(record, config).documents;
    // A retriever that hands the stage fewer candidates than documents says how many.
    const available = rerankCandidates(config) ?? documents.length;
    const depth = Math.min(config.rerankDepth, available, documents.length);
    if (depth < 2) continue;
    const chars =
      documents.reduce((sum, document) => sum + Math.min(document.text.length, RERANK_PASSAGE_CHARS), 0) /
      documents.length;
    const candidateTokens = Math.round(chars * tokensPerChar) + 4;
    const queryTokens = Math.round(record.question.length * tokensPerChar);
    if (kind === 'llm') {
      const windows = depth <= WINDOW ? 1 : 1 + Math.ceil((depth - WINDOW) / STEP);
      const perWindow = Math.min(depth, WINDOW);
      plan.calls += windows;
      plan.promptTokens +=
        windows * (perWindow * candidateTokens + 2 * queryTokens + LISTWISE_OVERHEAD_TOKENS);
      plan.completionTokens += windows * (8 * perWindow + 16);
    } else if (kind === 'llm-pointwise') {
      plan.calls += depth;
      plan.promptTokens += depth * (candidateTokens + queryTokens + POINTWISE_OVERHEAD_TOKENS);
      plan.completionTokens += depth;
    } else {
      plan.calls += 1;
      plan.promptTokens += depth * (candidateTokens + queryTokens);
    }
  }
  return plan;
}
