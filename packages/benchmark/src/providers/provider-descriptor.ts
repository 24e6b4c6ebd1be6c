import type { Benchmark } from '../benchmarks/benchmark.js';
import type { ComponentOptions, OptionValues } from '../components/component.js';
import type { ProviderCapabilities } from '../config/provider-capabilities.js';
import type { RunSections } from '../config/run-sections.js';
import type { PipelineResources } from './pipeline/configured-embedder.js';
import type { Provider } from './provider.js';

/** What a run hands a provider's factory. */
export type ProviderContext<Options> = {
  /**
   * The run's settings by owner: a provider reads its section (URL, auth, request budget), the
   * documents it is given and graded on (retrieval: granularity, roles, top K) and the run's
   * cache folder and concurrency; lme's own pipeline, the sections and components it selects.
   */
  sections: RunSections;
  /** Its `--provider-option`s, parsed by its `options` schema. */
  options: Options;
  /** The run id, or a function giving it (the default run id is known after the provider's preflight). */
  runId: string | (() => string);
  resources?: PipelineResources | undefined;
  /** Where credentials are looked up. */
  environment: Readonly<Record<string, string | undefined>>;
  /** The dataset's benchmark, found once per run: how the documents it ranks are keyed and graded. */
  benchmark?: Benchmark | undefined;
};

/**
 * One memory system `--provider` can name: what it is, its `--provider-option`s (`ComponentOption`
 * records, as every component's, made by `defineProviderOptions`: schema, help, `measures`), its
 * capabilities (what the rest of the program asks instead of its name) and its factory.
 */
export type ProviderDescriptor<O extends ComponentOptions = ComponentOptions> = {
  readonly name: string;
  readonly description: string;
  readonly options: O;
  readonly capabilities: ProviderCapabilities;
  create(context: ProviderContext<OptionValues<O>>): Provider;
};
