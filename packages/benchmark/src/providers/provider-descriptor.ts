import { z } from 'zod';
import type { ProviderCapabilities } from '../config/provider-capabilities.js';
import type { RunConfig } from '../config/run-config.js';
import type { PipelineResources } from './pipeline/configured-embedder.js';
import type { Provider } from './provider.js';

/** What a run hands a provider's factory. */
export type ProviderContext<Options> = {
  config: RunConfig;
  /** Its `--provider-option`s, parsed by its `options` schema. */
  options: Options;
  /** The run id, or a function giving it (the default run id is known after the provider's preflight). */
  runId: string | (() => string);
  resources?: PipelineResources | undefined;
  /** Where credentials are looked up. */
  environment: Readonly<Record<string, string | undefined>>;
};

/**
 * One memory system `--provider` can name: what it is, its `--provider-option`s as a zod object
 * (each field's `.describe()` is its help line), its capabilities (what the rest of the program
 * asks instead of its name) and its factory.
 */
export type ProviderDescriptor<Options = Record<string, unknown>> = {
  readonly name: string;
  readonly description: string;
  readonly options: z.ZodType<Options>;
  readonly capabilities: ProviderCapabilities;
  create(context: ProviderContext<Options>): Provider;
};

/** The options schema of a provider that takes none. */
export const NO_OPTIONS = z.object({});
