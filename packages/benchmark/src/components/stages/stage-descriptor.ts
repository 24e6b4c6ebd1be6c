import type { Stage, StageTrace } from '@lme/search-core';
import type { ComponentDescriptor, ComponentOptions, OptionValues } from '../component.js';

/** What the rest of the program asks of a stage instead of its name. */
export type StageCapabilities = {
  /**
   * Where it may run: `pipeline`, on lme's own candidate pool only (it reads the pipeline's
   * documents or vectors), so under an external memory system its flags have no effect.
   */
  readonly runsOn: 'pipeline';
  /** Its place among the stages: the selected stages run in ascending order. */
  readonly order: number;
  /** It compares document vectors, so the pipeline embeds when it is on. */
  readonly needsVectors: boolean;
};

/** What a stage's explain record and provenance draw on. */
export type StageExplainContext = {
  /** The search's trace (what the stages recorded). */
  readonly trace: StageTrace;
  /** The number of hits the pipeline returns. */
  readonly finalK: number;
};

/**
 * One stage between the base retriever and the reader: a folder `components/stages/<name>/` and a
 * line in `STAGES`. It is on when its `switch` option is true (`--dedup`); its other options
 * matter only then.
 */
export type StageDescriptor<O extends ComponentOptions = ComponentOptions> = ComponentDescriptor<
  O,
  StageCapabilities
> & {
  /** The boolean option that turns it on (its flag selects it). */
  readonly switch: keyof O & string;
  create(options: OptionValues<O>): Stage;
  /** How the report's provenance lists it under these options (`dedup (0.95)`). */
  provenance(options: OptionValues<O>): string;
  /** What it adds to an explain record's `weights` (by key) after a search; undefined: nothing. */
  explain?(options: OptionValues<O>, context: StageExplainContext): Record<string, unknown> | undefined;
};

/** Declares a stage, keeping its options' types (the run config's keys are typed from them). */
export const defineStage = <const O extends ComponentOptions>(descriptor: StageDescriptor<O>) => descriptor;
