import type { EndpointSettings } from '../../config/openai-endpoints.js';
import type { RunSections } from '../../config/run-sections.js';
import type { RunSection } from '../../config/sections/run-section.js';

/**
 * What the pipeline's parts share of the run: the cache (run section) and the OpenAI-compatible
 * endpoint (QA section) that hosted embedders, LLM stages and chat rerankers call.
 */
export type SharedSections = {
  readonly run: Pick<RunSection, 'cache' | 'cacheDir'>;
  readonly qa: EndpointSettings;
};

/**
 * What the pipeline reads of a run, by owner: the retrieval and routes sections, the vector store
 * (embedding section), and the selected retriever, embedders, stages and reranker, each with its
 * own options. Nothing here is the whole config.
 */
export type PipelineSections = SharedSections &
  Pick<
    RunSections,
    'retrieval' | 'routes' | 'embedding' | 'retriever' | 'embedders' | 'pipelineStages' | 'reranker'
  >;
