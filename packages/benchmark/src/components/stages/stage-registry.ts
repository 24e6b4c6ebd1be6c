import { ownOptions } from '../component.js';
import { dedupStage } from './dedup/dedup-stage.js';
import { mmrStage } from './mmr/mmr-stage.js';
import { multiSignalStage } from './multi-signal/multi-signal-stage.js';
import type { StageDescriptor } from './stage-descriptor.js';

/**
 * Every stage between the base retriever and the reader: one line each, its descriptor in its own
 * folder (`components/stages/<name>/`). Its flags, help, "has no effect" warnings, explain and
 * provenance come from the descriptor; the selected ones run in their declared `order`.
 */
export const STAGES = {
  dedup: dedupStage,
  'multi-signal': multiSignalStage,
  mmr: mmrStage,
} as const;

/** A selected stage: its descriptor and its own options (what `create`, explain and provenance take). */
export type SelectedStage = {
  readonly descriptor: StageDescriptor;
  readonly options: Readonly<Record<string, unknown>>;
};

/** Every stage's descriptor, in registry order. */
export const stageDescriptors = (): StageDescriptor[] => Object.values(STAGES);

/** The stages a resolved config turns on (their switch option true), in their declared order. */
export function selectedStages(config: Readonly<Record<string, unknown>>): SelectedStage[] {
  return stageDescriptors()
    .filter((descriptor) => config[descriptor.switch] === true)
    .sort((a, b) => a.capabilities.order - b.capabilities.order)
    .map((descriptor) => ({ descriptor, options: ownOptions(descriptor, config) }));
}

/** The selected stages as the report's provenance and the dry run list them, in the order they run. */
export const stagesProvenance = (config: Readonly<Record<string, unknown>>): string[] =>
  selectedStages(config).map(({ descriptor, options }) => descriptor.provenance(options));
