import type { CorpusOptions } from '../../benchmarks/build-corpus.js';
import type { RetrieverChoice } from '../../config/retriever-rules.js';
import type { ProviderSection } from '../../config/sections/provider-section.js';
import type { RetrievalSection } from '../../config/sections/retrieval-section.js';
import type { RoutesSection } from '../../config/sections/routes-section.js';
import type { RunSection } from '../../config/sections/run-section.js';
import type { StageOptionValues } from '../../config/sections/stages-section.js';
import type { rerankModelOf } from './configured-reranker.js';
import type { ExplainSettings } from './explain-trace.js';
import type { StagePartsSettings } from './pipeline-stage-set.js';
import type { routeSettingsOf } from './route-settings.js';
import type { createTimedEmbedder } from './timed-embedder.js';
import type { createVectorStore } from './vector-stores.js';

/**
 * What the pipeline reads of a resolved config, by section: the retriever (its choice and own
 * options), the routes' fusion and settings, the stages' shared parts and what the embedder and
 * vector store read. A flat resolved config has them all; nothing here is the whole
 * config's type.
 */

/** `--fusion`, `--weights`, `--rrf-k` and the weighted fusion's options. */
export type FusionSettings = Pick<
  RoutesSection,
  'fusion' | 'rrfK' | 'weights' | 'fusionNormalization' | 'adaptiveWeights' | 'adaptivePower' | 'denseGap'
>;

export type PipelineSettings = RetrieverChoice &
  Readonly<Record<string, unknown>> &
  Pick<RetrievalSection, 'tokenizer' | 'finalTopK'> &
  FusionSettings &
  Parameters<typeof routeSettingsOf>[0] &
  Pick<RoutesSection, 'feedbackDocs' | 'feedbackWeight'> &
  // The stages read their own options (components/stages/); multi-source merges at --dedup-threshold.
  Pick<StageOptionValues, 'dedupThreshold'> &
  Parameters<typeof createVectorStore>[0] &
  // The stages' shared parts: the endpoint, the cache, the reranker families' options.
  StagePartsSettings &
  Parameters<typeof createTimedEmbedder>[0];

/** What the pipeline as a provider reads besides: the provider, the corpus, the trace's settings, `--explain`. */
export type PipelineProviderSettings = PipelineSettings &
  Pick<ProviderSection, 'provider'> &
  CorpusOptions &
  ExplainSettings &
  Pick<RunSection, 'explain'> &
  Parameters<typeof rerankModelOf>[0];
