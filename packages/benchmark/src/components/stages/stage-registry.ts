import { ownOptions } from '../component.js';
import type { RetrieverDescriptor } from '../retrievers/retriever-descriptor.js';
import { RETRIEVERS } from '../retrievers/retriever-registry.js';
import { contextualChunksStage } from './contextual-chunks/contextual-chunks-stage.js';
import { dedupStage } from './dedup/dedup-stage.js';
import { mmrStage } from './mmr/mmr-stage.js';
import { multiSignalStage } from './multi-signal/multi-signal-stage.js';
import { rerankingStage } from './reranking/reranking-stage.js';
import { sessionSummariesStage } from './session-summaries/session-summaries-stage.js';
import type { StageDescriptor } from './stage-descriptor.js';

/**
 * Every stage of the pipeline outside the base retriever (at index time, on the candidate pool, on
 * the final ranking): one line each, its descriptor in its own folder (`components/stages/<name>/`).
 * Its flags, help, "has no effect" warnings, explain and provenance come from the descriptor; the
 * selected ones run in their declared `order`.
 */
export const STAGES = {
  'session-summaries': sessionSummariesStage,
  'contextual-chunks': contextualChunksStage,
  dedup: dedupStage,
  'multi-signal': multiSignalStage,
  mmr: mmrStage,
  reranking: rerankingStage,
} as const;

/** A selected stage: its descriptor and its own options (what `create`, explain and provenance take). */
export type SelectedStage = {
  readonly descriptor: StageDescriptor;
  readonly options: Readonly<Record<string, unknown>>;
};

/** Every stage's descriptor, in registry order. */
export const stageDescriptors = (): StageDescriptor[] => Object.values(STAGES) as StageDescriptor[];

/** Whether a stage's switch is on in a resolved config (a stage selected by need: never by itself). */
const switchedOn = (descriptor: StageDescriptor, config: Readonly<Record<string, unknown>>): boolean =>
  descriptor.switchOn
    ? descriptor.switchOn.is(config[descriptor.switch])
    : config[descriptor.switch] === true;

/** The base retriever a resolved config names writes session summaries under its options. */
function retrieverSummarizes(config: Readonly<Record<string, unknown>>): boolean {
  const retriever = (RETRIEVERS as Record<string, RetrieverDescriptor>)[String(config.retriever)];
  return retriever?.summarizes?.(ownOptions(retriever, config)) ?? false;
}

/**
 * The stages a resolved config turns on, in their declared order: those whose switch is on, and
 * those that provide session summaries when the base retriever or a stage turned on reads them.
 */
export function selectedStages(config: Readonly<Record<string, unknown>>): SelectedStage[] {
  const on = stageDescriptors().filter((descriptor) => switchedOn(descriptor, config));
  const summaries =
    retrieverSummarizes(config) || on.some((descriptor) => descriptor.capabilities.needsSummaries);
  return stageDescriptors()
    .filter(
      (descriptor) => on.includes(descriptor) || (summaries && descriptor.capabilities.providesSummaries),
    )
    .sort((a, b) => a.capabilities.order - b.capabilities.order)
    .map((descriptor) => ({ descriptor, options: ownOptions(descriptor, config) }));
}

/**
 * The selected stages as the report's provenance and the dry run list them, in the order they run:
 * those acting at index time (`index`), or those after retrieval (the pool's and the ranking's).
 */
export const stagesProvenance = (
  stages: readonly SelectedStage[],
  when: 'index' | 'after retrieval' = 'after retrieval',
): string[] =>
  stages
    .filter(({ descriptor }) => (descriptor.capabilities.at === 'index') === (when === 'index'))
    .flatMap(({ descriptor, options }) => descriptor.provenance(options) ?? []);
