import type { SelectedStage } from '../components/stages/stage-registry.js';
import type { ProviderCapabilities } from './provider-capabilities.js';
import { type RetrieverChoice, searchesDense } from './retriever-rules.js';
import type { QaSection } from './sections/qa-section.js';
import type { StageOptionValues } from './sections/stages-section.js';

/**
 * What a resolved config makes a run do: whether it embeds, which chat models its stages call,
 * whether it reranks, reads and judges.
 * Preflight (the keys it needs), the dry run (what it costs), the ineffective-flag warnings and
 * the pipeline itself all ask here, so they cannot disagree. Each takes the sections it reads
 * (`RunSections`).
 */

/** What these ask of the selected provider: its descriptor's capabilities (providers/provider-registry.ts). */
type Provider = Pick<ProviderCapabilities, 'pipeline'>;
/** The pipeline's retriever choice and its selected stages, each with its own options (as `RunSections` holds them). */
export type PipelineParts = {
  readonly retrieval: RetrieverChoice;
  readonly pipelineStages: readonly SelectedStage[];
};

/** The run measures lme's own search-core pipeline (the provider's `pipeline` capability). */
export const usesPipeline = (provider: Provider): boolean => provider.pipeline === true;

/**
 * The pipeline's settings embed text: a dense route, or a selected stage comparing vectors (its
 * `needsVectors`: dedup, MMR). Says nothing of the provider; `partsEmbed` does.
 */
export const pipelineEmbeds = ({ retrieval, pipelineStages }: PipelineParts): boolean =>
  searchesDense(retrieval) || pipelineStages.some(({ descriptor }) => descriptor.capabilities.needsVectors);

/** The run embeds text (the pipeline with `pipelineEmbeds` parts). */
export const partsEmbed = (parts: PipelineParts, provider: Provider): boolean =>
  usesPipeline(provider) && pipelineEmbeds(parts);

/**
 * The chat models the selected stages call at the pipeline's endpoint (`--summarizer llm`,
 * `--contextual llm`), each named by its role: preflight checks their key, the dry run counts them.
 */
export const stageChatModels = (
  { pipelineStages }: Pick<PipelineParts, 'pipelineStages'>,
  provider: Provider,
): { readonly role: string; readonly model: string }[] =>
  usesPipeline(provider)
    ? pipelineStages.flatMap(({ descriptor, options }) => descriptor.chatModel?.(options) ?? [])
    : [];

/** A stage acting at index time calls a chat model: each haystack's indexing is paid for. */
export const indexesWithLlm = (stages: readonly SelectedStage[], provider: Provider): boolean =>
  usesPipeline(provider) &&
  stages.some(
    ({ descriptor, options }) =>
      descriptor.capabilities.at === 'index' && descriptor.chatModel?.(options) !== undefined,
  );

/** The pipeline reranks its candidates (`--reranker`). */
export const reranks = (config: Pick<StageOptionValues, 'reranker'>, provider: Provider): boolean =>
  usesPipeline(provider) && config.reranker !== undefined;

/** A reader answers every question (`--reader-model`), and the judge grades each answer. */
export const readsAndJudges = (config: Pick<QaSection, 'readerModel'>): boolean =>
  config.readerModel !== undefined;

/** The memory system's own answers are judged (`--answers provider`), with no lme reader. */
export const judgesProviderAnswers = (config: Pick<QaSection, 'answers'>): boolean =>
  config.answers === 'provider';

/** The judge grades answers: lme reader's, or the provider's own. */
export const judges = (config: Pick<QaSection, 'readerModel' | 'answers'>): boolean =>
  readsAndJudges(config) || judgesProviderAnswers(config);
