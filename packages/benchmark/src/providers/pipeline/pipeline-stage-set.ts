import type { CandidateReranker, MemoryDocument, Stage, Summarizer } from '@lme/search-core';
import type {
  IndexedDocuments,
  StageDescriptor,
  StageHooks,
  StageParts,
} from '../../components/stages/stage-descriptor.js';
import { selectedStages } from '../../components/stages/stage-registry.js';
import { type EndpointSettings, resolveOpenAiEndpoint } from '../../config/openai-endpoints.js';
import type { RunSection } from '../../config/sections/run-section.js';
import { createConfiguredReranker, type RerankerSettings } from './configured-reranker.js';

/** What the stages' shared parts read: the endpoint, the cache, the reranker families' options. */
export type StagePartsSettings = EndpointSettings &
  Pick<RunSection, 'cache' | 'cacheDir'> &
  Omit<RerankerSettings, 'reranker'> & { readonly rerankDepth: number } & Readonly<Record<string, unknown>>;

/** The selected stages of one run, folded by where they act. */
export type PipelineStageSet = {
  /** The pool stages of one haystack, made fresh, in their declared order. */
  poolStages(): Stage[];
  /** The run's session summarizer (a stage that provides it must be selected when one is read). */
  summarizer(): Summarizer;
  /** The index-time rewrites of a haystack's documents in their order; undefined when none is selected. */
  indexDocuments?(documents: readonly MemoryDocument[], signal?: AbortSignal): Promise<IndexedDocuments>;
  /** The reranker of the final ranking, when a selected stage gives one. */
  readonly reranker: { readonly reranker: CandidateReranker; readonly depth: number } | undefined;
  /** The run totals the stages keep, by key, for config.json's `provider_stats`. */
  stats(): Record<string, unknown>;
};

const isPoolStage = (descriptor: StageDescriptor) => (descriptor.capabilities.at ?? 'pool') === 'pool';

/**
 * The stages a config selects (components/stages/), made from their descriptors: the index-time and
 * ranking stages once per run (their hooks share a client, cache and counts), the pool stages per
 * haystack. Each `create` receives its own options and the run's shared parts.
 */
export function createPipelineStageSet(
  config: StagePartsSettings,
  environment: NodeJS.ProcessEnv,
): PipelineStageSet {
  const selected = selectedStages(config);
  let provided: (() => Summarizer) | undefined;
  const parts: StageParts = {
    endpoint: () => resolveOpenAiEndpoint(config, 'pipeline', environment),
    cacheDir: config.cache ? config.cacheDir : undefined,
    summarizer: () => {
      if (!provided) throw new Error('No selected stage provides session summaries.');
      return provided();
    },
    reranker: (id) => ({
      reranker: createConfiguredReranker({ ...config, reranker: id }, environment)!,
      depth: config.rerankDepth,
    }),
  };
  const hooks = selected
    .filter(({ descriptor }) => !isPoolStage(descriptor))
    .map(({ descriptor, options }) => descriptor.create(options, parts) as StageHooks);
  provided = hooks.find((hook) => hook.summarizer)?.summarizer;
  const rewrites = hooks.flatMap((hook) => (hook.indexDocuments ? [hook.indexDocuments] : []));
  return {
    poolStages: () =>
      selected
        .filter(({ descriptor }) => isPoolStage(descriptor))
        .map(({ descriptor, options }) => descriptor.create(options, parts) as Stage),
    summarizer: parts.summarizer,
    ...(rewrites.length > 0
      ? {
          async indexDocuments(documents: readonly MemoryDocument[], signal?: AbortSignal) {
            let result: IndexedDocuments = { documents: [...documents], statuses: [] };
            for (const rewrite of rewrites) {
              const next = await rewrite(result.documents, signal);
              result = { documents: next.documents, statuses: [...result.statuses, ...next.statuses] };
            }
            return result;
          },
        }
      : {}),
    reranker: hooks.find((hook) => hook.reranker)?.reranker,
    stats: () => Object.assign({}, ...hooks.map((hook) => hook.stats?.() ?? {})),
  };
}
