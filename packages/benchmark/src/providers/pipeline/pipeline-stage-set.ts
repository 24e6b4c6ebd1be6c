import type { CandidateReranker, MemoryDocument, Stage, Summarizer } from '@lme/search-core';
import { RERANK_DEPTH_OPTION } from '../../components/rerankers/rerank-depth-option.js';
import type {
  IndexedDocuments,
  StageDescriptor,
  StageHooks,
  StageParts,
} from '../../components/stages/stage-descriptor.js';
import { resolveOpenAiEndpoint } from '../../config/openai-endpoints.js';
import type { RunSections } from '../../config/run-sections.js';
import { createConfiguredReranker } from './configured-reranker.js';
import type { SharedSections } from './pipeline-sections.js';

/** What the stages read: each selected stage's own options, the selected reranker's, the cache and the endpoint. */
export type StageSections = SharedSections & Pick<RunSections, 'pipelineStages' | 'reranker'>;

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
 * The stages a run selects (components/stages/), made from their descriptors: the index-time and
 * ranking stages once per run (their hooks share a client, cache and counts), the pool stages per
 * haystack. Each `create` receives its own options and the run's shared parts.
 */
export function createPipelineStageSet(
  sections: StageSections,
  environment: NodeJS.ProcessEnv,
): PipelineStageSet {
  const { pipelineStages: selected, reranker, run, qa } = sections;
  let provided: (() => Summarizer) | undefined;
  const parts: StageParts = {
    endpoint: () => resolveOpenAiEndpoint(qa, 'pipeline', environment),
    cacheDir: run.cache ? run.cacheDir : undefined,
    summarizer: () => {
      if (!provided) throw new Error('No selected stage provides session summaries.');
      return provided();
    },
    reranker: (id) => {
      // The reranker the run selected (`--reranker`), made by its family with its own options.
      if (reranker?.id !== id) throw new Error(`The reranker "${id}" is not the one the run selected.`);
      return {
        reranker: createConfiguredReranker(reranker, sections, environment),
        // `--rerank-depth`, which every family shares (its default for a family that declares none).
        depth: RERANK_DEPTH_OPTION.schema.parse(reranker.options.rerankDepth),
      };
    },
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
