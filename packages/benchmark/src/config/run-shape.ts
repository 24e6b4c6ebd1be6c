import { type RetrieverChoice, retrieverSummarizes, searchesDense } from './retriever-rules.js';
import type { ProviderSection } from './sections/provider-section.js';
import type { QaSection } from './sections/qa-section.js';
import type { StagesSection } from './sections/stages-section.js';
import type { SummariesSection } from './sections/summaries-section.js';

/**
 * What a resolved config makes a run do: whether it embeds, summarises, reranks, reads and judges.
 * Preflight (the keys it needs), the dry run (what it costs), the ineffective-flag warnings and
 * the pipeline itself all ask here, so they cannot disagree. Each takes the sections it reads
 * (a flat resolved config has them all).
 */

type Provider = Pick<ProviderSection, 'provider'>;
type PipelineShape = Provider & RetrieverChoice & Pick<StagesSection, 'dedup' | 'mmr'>;
/** The retriever's own options travel with its choice (a summary index, say). */
type RetrieverShape = RetrieverChoice & Readonly<Record<string, unknown>>;

/** The run measures search-core's pipeline (`--provider pipeline`). */
export const usesPipeline = (config: Provider): boolean => config.provider === 'pipeline';

/**
 * The pipeline's settings embed text: a dense route, or a stage comparing vectors (dedup, MMR).
 * Says nothing of the provider; `embeds` does.
 */
export const pipelineEmbeds = (config: RetrieverChoice & Pick<StagesSection, 'dedup' | 'mmr'>): boolean =>
  searchesDense(config) || config.dedup || config.mmr;

/** The run embeds text (the pipeline with `pipelineEmbeds` settings). */
export const embeds = (config: PipelineShape): boolean => usesPipeline(config) && pipelineEmbeds(config);

/**
 * The run writes session summaries: a retriever whose options ask for them (session-aware over a
 * summary index, `--session-index summary|both`), or contextual chunks (`--contextual`), which
 * read them.
 */
export const summarizes = (
  config: Provider & RetrieverShape & Pick<SummariesSection, 'contextual'>,
): boolean => usesPipeline(config) && (retrieverSummarizes(config) || config.contextual !== 'none');

/** The summaries come from an LLM (`--summarizer llm`): calls the dry run counts. */
export const summarizesWithLlm = (
  config: Provider & RetrieverShape & Pick<SummariesSection, 'contextual' | 'summarizer'>,
): boolean => summarizes(config) && config.summarizer === 'llm';

/** Contextual chunks are written by an LLM (`--contextual llm`): one call per document. */
export const contextualizesWithLlm = (config: Provider & Pick<SummariesSection, 'contextual'>): boolean =>
  usesPipeline(config) && config.contextual === 'llm';

/** The pipeline reranks its candidates (`--reranker`). */
export const reranks = (config: Provider & Pick<StagesSection, 'reranker'>): boolean =>
  usesPipeline(config) && config.reranker !== undefined;

/** The reranker is a server (`--reranker http:<url>`). */
export const reranksOverHttp = (config: Provider & Pick<StagesSection, 'reranker'>): boolean =>
  reranks(config) && config.reranker!.startsWith('http:');

/** A reader answers every question (`--reader-model`), and the judge grades each answer. */
export const readsAndJudges = (config: Pick<QaSection, 'readerModel'>): boolean =>
  config.readerModel !== undefined;

/** The memory system's own answers are judged (`--answers provider`), with no lme reader. */
export const judgesProviderAnswers = (config: Pick<QaSection, 'answers'>): boolean =>
  config.answers === 'provider';

/** The judge grades answers: lme reader's, or the provider's own. */
export const judges = (config: Pick<QaSection, 'readerModel' | 'answers'>): boolean =>
  readsAndJudges(config) || judgesProviderAnswers(config);
