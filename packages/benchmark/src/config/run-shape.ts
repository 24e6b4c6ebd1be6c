import { searchesDense } from './base-retrievers.js';
import type { RunConfig } from './run-config.js';

/**
 * What a resolved config makes a run do: whether it embeds, summarises, reranks, reads and judges.
 * Preflight (the keys it needs), the dry run (what it costs), the ineffective-flag warnings and
 * the pipeline itself all ask here, so they cannot disagree.
 */

/** The run measures search-core's pipeline (`--provider pipeline`). */
export const usesPipeline = (config: Pick<RunConfig, 'provider'>): boolean => config.provider === 'pipeline';

/**
 * The pipeline's settings embed text: a dense route, or a stage comparing vectors (dedup, MMR).
 * Says nothing of the provider; `embeds` does.
 */
export const pipelineEmbeds = (config: Pick<RunConfig, 'retriever' | 'routes' | 'dedup' | 'mmr'>): boolean =>
  searchesDense(config) || config.dedup || config.mmr;

/** The run embeds text (the pipeline with `pipelineEmbeds` settings). */
export const embeds = (config: RunConfig): boolean => usesPipeline(config) && pipelineEmbeds(config);

/**
 * The run writes session summaries: session-aware retrieval over a summary index
 * (`--session-index summary|both`), or contextual chunks (`--contextual`), which read them.
 */
export const summarizes = (config: RunConfig): boolean =>
  usesPipeline(config) &&
  ((config.retriever === 'session-aware' && config.sessionIndex !== 'text') || config.contextual !== 'none');

/** The summaries come from an LLM (`--summarizer llm`): calls the dry run counts. */
export const summarizesWithLlm = (config: RunConfig): boolean =>
  summarizes(config) && config.summarizer === 'llm';

/** Contextual chunks are written by an LLM (`--contextual llm`): one call per document. */
export const contextualizesWithLlm = (config: RunConfig): boolean =>
  usesPipeline(config) && config.contextual === 'llm';

/** The pipeline reranks its candidates (`--reranker`). */
export const reranks = (config: RunConfig): boolean => usesPipeline(config) && config.reranker !== undefined;

/** The reranker is a server (`--reranker http:<url>`). */
export const reranksOverHttp = (config: RunConfig): boolean =>
  reranks(config) && config.reranker!.startsWith('http:');

/** A reader answers every question (`--reader-model`), and the judge grades each answer. */
export const readsAndJudges = (config: Pick<RunConfig, 'readerModel'>): boolean =>
  config.readerModel !== undefined;

/** The memory system's own answers are judged (`--answers provider`), with no lme reader. */
export const judgesProviderAnswers = (config: Pick<RunConfig, 'answers'>): boolean =>
  config.answers === 'provider';

/** The judge grades answers: lme reader's, or the provider's own. */
export const judges = (config: Pick<RunConfig, 'readerModel' | 'answers'>): boolean =>
  readsAndJudges(config) || judgesProviderAnswers(config);
